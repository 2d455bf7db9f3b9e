import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES, PROFILE_FIELDS, type ProfileField, type User, type UserUpdateRequest } from '@sitewalk/proto';
import { useProfileStore } from '../../stores/profile.store';
import { useSettings } from '../../stores/settings.store';
import { changedValues, compareWith, hasChanges } from '../../lib/changed-fields';
import { allRules } from '../../components/edit-form/edit-form-model';
import { emailRules, profileRules } from '../../components/edit-form/account-rules';
import { useRulesForm } from '../../components/edit-form/use-rules-form';
import { PROFILE_FIELD_AUTOCOMPLETE, PROFILE_FIELD_LABELS, isMandatory, visibleProfileFields } from '../../lib/profile-field-labels';
import { formToast } from '../../lib/toast';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';

type Values = Record<'email' | ProfileField, string>;

const valuesOf = (u: User): Values =>
  Object.fromEntries([['email', u.email ?? ''], ...PROFILE_FIELDS.map((f) => [f, (u[f] as string | null) ?? ''])]) as Values;

/** The profile fields enabled by settings, with their mandatory flags (the first name always, SPEC §5); only changed fields are sent. */
export function DetailsForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const update = useProfileStore((s) => s.update);
  const fields = useMemo(() => visibleProfileFields(PROFILE_FIELDS, settings), [settings]);
  const rules = useMemo(
    () => allRules<Values>(emailRules(), profileRules(fields, fields.filter((f) => f === 'first_name' || isMandatory(f, settings)))),
    [fields, settings],
  );
  // The values last loaded or saved: what "changed" is measured against.
  const [baseline, setBaseline] = useState(() => valuesOf(user));
  const { form, values, errors, set } = useRulesForm(rules, baseline);
  const tracked = compareWith(baseline, values);
  const busy = form.formState.isSubmitting;
  const [inlineError, setInlineError] = useState<string | null>(null);

  const submit = form.handleSubmit(async () => {
    if (!hasChanges(tracked)) return;
    setInlineError(null);
    try {
      const changes = changedValues(tracked) as UserUpdateRequest;
      const saved = valuesOf(await update(changes));
      setBaseline(saved);
      form.reset(saved);
      formToast('success', t(MESSAGES.profileUpdated));
    } catch (err) {
      const message = (err as Error).message || MESSAGES.profileUpdateFailed;
      setInlineError(MESSAGES.updateFailed);
      formToast('error', t(message));
    }
  });

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="profile-form-heading">
      <div className="card-header bg-transparent">
        <h2 id="profile-form-heading" className="h6 mb-0">
          {t('Your details')}
        </h2>
      </div>
      <form className="card-body" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="profile-form-heading">
        <TextField label={t('Username')} value={user.username} onChange={() => undefined} readOnly disabled />
        <TextField label={t('E-mail')} type="email" value={values.email} onChange={(v) => set('email', v)} error={errors.email && t(errors.email)} autoComplete="email" required />
        <div className="row">
          {fields.map((f) => (
            <TextField
              key={f}
              className="col-md-6 mb-3"
              label={t(PROFILE_FIELD_LABELS[f])}
              value={values[f]}
              onChange={(v) => set(f, v)}
              error={errors[f] && t(errors[f])}
              autoComplete={PROFILE_FIELD_AUTOCOMPLETE[f]}
              required={f === 'first_name' || isMandatory(f, settings)}
              type={f === 'tel' ? 'tel' : 'text'}
            />
          ))}
        </div>
        {inlineError && (
          <div className="text-danger mb-2" role="alert">
            {t(inlineError)}
          </div>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy || !hasChanges(tracked)}>
          {busy ? <Spinner size="sm" hideText /> : null} {t('Save changes')}
        </button>
      </form>
    </section>
  );
}
