import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type ChangePasswordRequest, type User } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { checkPassword, checkSamePassword, noErrors } from '../../lib/form-rules';
import { formToast } from '../../lib/toast';
import { NewPasswordFields } from '../../components/new-password-fields';
import { userDisplayName } from './user-form';

/**
 * A super admin sets another user's password (POST /users/{id}/change-password
 * without the current one); that person's open sessions end.
 */
export function SetPasswordCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = { next: checkPassword(next), confirm: checkSamePassword(next, confirm) };
    setErrors(errs);
    if (!noErrors(errs)) return;
    setBusy(true);
    try {
      const body: ChangePasswordRequest = { target_user_id: user.id, new_password: next };
      await api.post(`/users/${user.id}/change-password`, body, MESSAGES.changePasswordFailed);
      setNext('');
      setConfirm('');
      formToast('success', t('The password has been changed.'));
    } catch (err) {
      formToast('error', t((err as Error).message || MESSAGES.changePasswordFailed));
    } finally {
      setBusy(false);
    }
  };

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
            password={next}
            confirm={confirm}
            errors={{ password: errors.next, confirm: errors.confirm }}
            onChange={(field, v) => {
              if (field === 'password') setNext(v);
              else setConfirm(v);
              setErrors((x) => ({ ...x, [field === 'password' ? 'next' : 'confirm']: null }));
            }}
          />
        </div>
        <button type="submit" className="btn btn-outline-primary" disabled={busy}>
          {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          {t('Set password')}
        </button>
      </form>
    </section>
  );
}
