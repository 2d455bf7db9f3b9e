import { useTranslation } from 'react-i18next';
import { MESSAGES, type ChangePasswordRequest, type NewPasswordForm, type User } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formToast } from '../../lib/toast';
import { NewPasswordFields } from '../../components/new-password-fields';
import { newPasswordRules } from '../../components/edit-form/account-rules';
import { useRulesForm } from '../../components/edit-form/use-rules-form';
import { userDisplayName } from './user-form';

/**
 * A super admin sets another user's password (POST /users/{id}/change-password
 * without the current one); that person's open sessions end. The rules are
 * proto's (newPasswordFormSchema): checked on submit, and a field's message
 * goes when that field changes.
 */
export function SetPasswordCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const { form, values, errors, set } = useRulesForm<NewPasswordForm>(newPasswordRules<NewPasswordForm>(), { password: '', confirm: '' });
  const { isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ password: next }) => {
    try {
      const body: ChangePasswordRequest = { target_user_id: user.id, new_password: next };
      await api.post(`/users/${user.id}/change-password`, body, MESSAGES.changePasswordFailed);
      form.reset();
      formToast('success', t('The password has been changed.'));
    } catch (err) {
      formToast('error', t((err as Error).message || MESSAGES.changePasswordFailed));
    }
  });

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="set-password-heading">
      <div className="card-header bg-transparent">
        <h2 id="set-password-heading" className="h6 mb-0">
          {t('Change password')}
        </h2>
      </div>
      <form className="card-body" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="set-password-heading">
        <p className="text-body-secondary small">
          {t('Give {name} a new password. They are signed out everywhere and sign in again with it.', { name: userDisplayName(user) })}
          {!user.active && <> {t('The account is inactive: turn on Active above so they can sign in.')}</>}
        </p>
        <div className="row">
          <NewPasswordFields
            fieldClassName="col-md-6 mb-3"
            label={t('New password')}
            confirmLabel={t('Confirm new password')}
            password={values.password}
            confirm={values.confirm}
            errors={{ password: errors.password, confirm: errors.confirm }}
            onChange={set}
          />
        </div>
        <button type="submit" className="btn btn-outline-primary" disabled={isSubmitting}>
          {isSubmitting && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          {t('Set password')}
        </button>
      </form>
    </section>
  );
}
