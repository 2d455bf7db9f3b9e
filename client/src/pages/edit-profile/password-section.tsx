import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@sitewalk/proto';
import { useProfileStore } from '../../stores/profile.store';
import { formToast } from '../../lib/toast';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';
import { NewPasswordFields } from '../../components/new-password-fields';
import { allRules, requestRules } from '../../components/edit-form/edit-form-model';
import { newPasswordRules } from '../../components/edit-form/account-rules';
import { useRulesForm } from '../../components/edit-form/use-rules-form';
import { tk } from '../../lib/i18n-keys';

type PasswordValues = { current: string; password: string; confirm: string };

/** Your own password changes only with the current one; the new one follows proto's rules, typed twice. */
const passwordRules = allRules<PasswordValues>(
  requestRules((v) => ({ current: v.current }), z.object({ current: z.string().min(1, tk('Enter your current password.')) })),
  newPasswordRules(),
);

const EMPTY: PasswordValues = { current: '', password: '', confirm: '' };

/** Change password: the current password is required for your own account. */
export function PasswordSection() {
  const { t } = useTranslation();
  const changePassword = useProfileStore((s) => s.changePassword);
  const { form, values, errors, set } = useRulesForm(passwordRules, EMPTY);
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async (v) => {
    try {
      await changePassword({ current_password: v.current, new_password: v.password });
      form.reset(EMPTY);
      formToast('success', t('The password has been changed.'));
    } catch (err) {
      formToast('error', t((err as Error).message || MESSAGES.changePasswordFailed));
    }
  });

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="password-heading">
      <div className="card-header bg-transparent">
        <h2 id="password-heading" className="h6 mb-0">
          {t('Change password')}
        </h2>
      </div>
      <form className="card-body" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="password-heading">
        <TextField label={t('Current password')} type="password" value={values.current} onChange={(v) => set('current', v)} error={errors.current && t(errors.current)} autoComplete="current-password" required />
        <div className="row">
          <NewPasswordFields
            fieldClassName="col-md-6 mb-3"
            label={t('New password')}
            confirmLabel={t('Confirm new password')}
            password={values.password}
            confirm={values.confirm}
            errors={errors}
            onChange={set}
          />
        </div>
        <button type="submit" className="btn btn-outline-primary" disabled={busy}>
          {busy ? <Spinner size="sm" hideText /> : null} {t('Change password')}
        </button>
      </form>
    </section>
  );
}
