import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES, PROFILE_FIELDS, type ProfileField, type User, type UserUpdateRequest } from '@sitewalk/proto';
import { useProfileStore } from '../../stores/profile.store';
import { useSettings } from '../../stores/settings.store';
import { changedValues, hasChanges, markSaved, setField, startTracking } from '../../lib/changed-fields';
import { checkEmail, checkFirstName, checkRequired, noErrors } from '../../lib/form-rules';
import { PROFILE_FIELD_AUTOCOMPLETE, PROFILE_FIELD_LABELS, isMandatory, visibleProfileFields } from '../../lib/profile-field-labels';
import { formToast } from '../../lib/toast';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';

type Values = Record<'email' | ProfileField, string>;

const valuesOf = (u: User): Values =>
  Object.fromEntries([['email', u.email ?? ''], ...PROFILE_FIELDS.map((f) => [f, (u[f] as string | null) ?? ''])]) as Values;

/** The profile fields enabled by settings, with their mandatory flags; only changed fields are sent. */
export function DetailsForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const update = useProfileStore((s) => s.update);
  const fields = useMemo(() => visibleProfileFields(PROFILE_FIELDS, settings), [settings]);
  const [form, setForm] = useState(() => startTracking(valuesOf(user)));
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string | null>>>({});
  const [busy, setBusy] = useState(false);
  const [inlineError, setInlineError] = useState<string | null>(null);

  const change = (k: keyof Values) => (v: string) => {
    setForm((s) => setField(s, k, v));
    // SPEC §5: changing a field clears its error.
    setErrors((e) => ({ ...e, [k]: null }));
  };

  const validate = (): Partial<Record<keyof Values, string | null>> => {
    const v = form.values;
    const errs: Partial<Record<keyof Values, string | null>> = { email: checkEmail(v.email) };
    for (const f of fields) {
      if (f === 'first_name') errs[f] = checkFirstName(v[f]);
      else if (isMandatory(f, settings)) errs[f] = checkRequired(v[f]);
    }
    return errs;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = validate();
    setErrors(errs);
    if (!noErrors(errs) || !hasChanges(form)) return;
    setBusy(true);
    setInlineError(null);
    try {
      const changes = changedValues(form) as UserUpdateRequest;
      const saved = await update(changes);
      setForm((s) => markSaved(s, valuesOf(saved)));
      formToast('success', t(MESSAGES.profileUpdated));
    } catch (err) {
      const message = (err as Error).message || MESSAGES.profileUpdateFailed;
      setInlineError(MESSAGES.updateFailed);
      formToast('error', t(message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="profile-form-heading">
      <div className="card-header bg-transparent">
        <h2 id="profile-form-heading" className="h6 mb-0">
          {t('Your details')}
        </h2>
      </div>
      <form className="card-body" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="profile-form-heading">
        <TextField label={t('Username')} value={user.username} onChange={() => undefined} readOnly disabled />
        <TextField label={t('E-mail')} type="email" value={form.values.email} onChange={change('email')} error={errors.email && t(errors.email)} autoComplete="email" required />
        <div className="row">
          {fields.map((f) => (
            <TextField
              key={f}
              className="col-md-6 mb-3"
              label={t(PROFILE_FIELD_LABELS[f])}
              value={form.values[f]}
              onChange={change(f)}
              error={errors[f] && t(errors[f] as string)}
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
        <button type="submit" className="btn btn-primary" disabled={busy || !hasChanges(form)}>
          {busy ? <Spinner size="sm" hideText /> : null} {t('Save changes')}
        </button>
      </form>
    </section>
  );
}
