import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type ResetTokenCheckResponse } from '@sitewalk/proto';
import { api, apiRequest } from '../../lib/api-client';
import { AuthCard } from '../../components/auth-card';
import { NewPasswordFields, type NewPasswordField } from '../../components/new-password-fields';
import { Spinner } from '../../components/spinner';
import { checkPassword, checkSamePassword, noErrors } from '../../lib/form-rules';
import { tk } from '../../lib/i18n-keys';

/** /reset-password?token=…: the page the recovery e-mail links to. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [valid, setValid] = useState(false);
  const [checkError, setCheckError] = useState<string | null>(null);
  const [newPassword, setNewPassword] = useState({ password: '', confirm: '' });
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    if (!token) {
      setCheckError(tk('The reset link is not valid.'));
      return;
    }
    api.get<ResetTokenCheckResponse>('/password/check-token', MESSAGES.tokenValidationFailed, { params: { token } }).then(
      () => live && setValid(true),
      (err: unknown) => live && setCheckError((err as Error).message || MESSAGES.tokenValidationFailed),
    );
    return () => {
      live = false;
    };
  }, [token]);

  const changePassword = (field: NewPasswordField, value: string) => {
    setNewPassword((p) => ({ ...p, [field]: value }));
    setErrors((x) => ({ ...x, [field]: null }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { password, confirm } = newPassword;
    const errs = { password: checkPassword(password), confirm: checkSamePassword(password, confirm) };
    setErrors(errs);
    if (!noErrors(errs)) return;
    setBusy(true);
    setError(null);
    try {
      const { message } = await apiRequest<null>({ url: '/password/reset', method: 'POST', data: { token, password } }, MESSAGES.resetFailed);
      navigate('/login', { replace: true, state: { message: message || tk('Your password has been changed. Sign in with your new password.') } });
    } catch (err) {
      setError((err as Error).message || MESSAGES.resetFailed);
      setBusy(false);
    }
  };

  return (
    <AuthCard title={tk('Choose a new password')}>
      {!valid && !checkError && <Spinner />}
      {checkError && (
        <>
          <div className="alert alert-danger" role="alert">
            {t(checkError)}
          </div>
          <Link to="/recover">{t('Ask for a new link')}</Link>
        </>
      )}
      {valid && (
        <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('Choose a new password')}>
          {error && (
            <div className="alert alert-danger" role="alert">
              {t(error)}
            </div>
          )}
          <NewPasswordFields {...newPassword} onChange={changePassword} errors={errors} label={t('New password')} confirmLabel={t('Confirm new password')} autoFocus />
          <button type="submit" className="btn btn-primary w-100" disabled={busy}>
            {busy ? <Spinner size="sm" hideText /> : null} {t('Reset password')}
          </button>
          <p className="mt-3 small mb-0">
            <Link to="/login">{t('Back to sign in')}</Link>
          </p>
        </form>
      )}
    </AuthCard>
  );
}
