import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type ActivateAccountRequest, type ActivateAccountResponse, type InvitationCheckResponse } from '@sitewalk/proto';
import { api, apiRequest } from '../../lib/api-client';
import { AuthCard } from '../../components/auth-card';
import { TextField } from '../../components/text-field';
import { NewPasswordFields, type NewPasswordField } from '../../components/new-password-fields';
import { Spinner } from '../../components/spinner';
import { checkPassword, checkSamePassword, checkUsername, noErrors } from '../../lib/form-rules';
import { tk } from '../../lib/i18n-keys';

/**
 * /activate?token=…: an invited user chooses username and password; a user
 * who registered confirms the e-mail link. Then on to sign in.
 */
export default function ActivatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [check, setCheck] = useState<InvitationCheckResponse | null>(null);
  const [checkError, setCheckError] = useState<string | null>(null);
  const [username, setUsername] = useState('');
  const [newPassword, setNewPassword] = useState({ password: '', confirm: '' });
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    if (!token) {
      setCheckError(tk('The activation link is not valid.'));
      return;
    }
    api.get<InvitationCheckResponse>('/check-invitation-token', MESSAGES.invitationTokenFailed, { params: { token } }).then(
      (r) => {
        if (!live) return;
        setCheck(r);
        setUsername(r.username);
      },
      (err: unknown) => live && setCheckError((err as Error).message || MESSAGES.invitationTokenFailed),
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
    if (!check) return;
    const body: ActivateAccountRequest = { token };
    if (check.needs_credentials) {
      const { password, confirm } = newPassword;
      const errs = { username: checkUsername(username), password: checkPassword(password), confirm: checkSamePassword(password, confirm) };
      setErrors(errs);
      if (!noErrors(errs)) return;
      body.username = username.trim();
      body.password = password;
    }
    setBusy(true);
    setError(null);
    try {
      const { data, message } = await apiRequest<ActivateAccountResponse>({ url: '/activate-account', method: 'POST', data: body }, MESSAGES.activateFailed);
      navigate('/login', { replace: true, state: { message: message || tk('Your account is active. You can sign in now.'), username: data.username } });
    } catch (err) {
      setError((err as Error).message || MESSAGES.activateFailed);
      setBusy(false);
    }
  };

  return (
    <AuthCard title={tk('Activate your account')}>
      {!check && !checkError && <Spinner />}
      {checkError && (
        <>
          <div className="alert alert-danger" role="alert">
            {t(checkError)}
          </div>
          <Link to="/login">{t('Back to sign in')}</Link>
        </>
      )}
      {check && (
        <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('Activate your account')}>
          <p className="text-body-secondary">
            {check.needs_credentials
              ? t('You were invited to {site} as {email}. Choose your username and password.', { email: check.email })
              : t('Confirm your e-mail address {email} to activate your account.', { email: check.email })}
          </p>
          {error && (
            <div className="alert alert-danger" role="alert">
              {t(error)}
            </div>
          )}
          {check.needs_credentials && (
            <>
              <TextField label={t('Username')} value={username} onChange={(v) => { setUsername(v); setErrors((x) => ({ ...x, username: null })); }} error={errors.username && t(errors.username)} autoComplete="username" required />
              <NewPasswordFields {...newPassword} onChange={changePassword} errors={errors} label={t('Password')} confirmLabel={t('Confirm password')} />
            </>
          )}
          <button type="submit" className="btn btn-primary w-100" disabled={busy}>
            {busy ? <Spinner size="sm" hideText /> : null} {t('Activate account')}
          </button>
        </form>
      )}
    </AuthCard>
  );
}
