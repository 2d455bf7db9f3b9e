import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@sitewalk/proto';
import { useProfileStore } from '../../stores/profile.store';
import { checkPassword, checkSamePassword, noErrors } from '../../lib/form-rules';
import { formToast } from '../../lib/toast';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';
import { NewPasswordFields } from '../../components/new-password-fields';
import { tk } from '../../lib/i18n-keys';

/** Change password: the current password is required for your own account. */
export function PasswordSection() {
  const { t } = useTranslation();
  const changePassword = useProfileStore((s) => s.changePassword);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = {
      current: current ? null : tk('Enter your current password.'),
      next: checkPassword(next),
      confirm: checkSamePassword(next, confirm),
    };
    setErrors(errs);
    if (!noErrors(errs)) return;
    setBusy(true);
    try {
      await changePassword({ current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setConfirm('');
      formToast('success', t('The password has been changed.'));
    } catch (err) {
      formToast('error', t((err as Error).message || MESSAGES.changePasswordFailed));
    } finally {
      setBusy(false);
    }
  };

  const clear = (k: string) => setErrors((x) => ({ ...x, [k]: null }));

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="password-heading">
      <div className="card-header bg-transparent">
        <h2 id="password-heading" className="h6 mb-0">
          {t('Change password')}
        </h2>
      </div>
      <form className="card-body" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="password-heading">
        <TextField label={t('Current password')} type="password" value={current} onChange={(v) => { setCurrent(v); clear('current'); }} error={errors.current && t(errors.current)} autoComplete="current-password" required />
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
              clear(field === 'password' ? 'next' : 'confirm');
            }}
          />
        </div>
        <button type="submit" className="btn btn-outline-primary" disabled={busy}>
          {busy ? <Spinner size="sm" hideText /> : null} {t('Change password')}
        </button>
      </form>
    </section>
  );
}
