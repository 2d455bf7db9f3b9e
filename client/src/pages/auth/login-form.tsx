import { useState, type FormEvent } from 'react';
import type { TwoFactorChallengeResponse, User } from '@sitewalk/proto';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@sitewalk/proto';
import { TwoFactorRequired, useAuthStore } from '../../stores/auth.store';
import { ApiError } from '../../lib/api-client';
import { CAPTCHA_MISSING, CaptchaWidget } from '../../components/captcha-widget';
import { TwoFactorStep } from './two-factor-step';
import { TwoFactorEnrolmentStep } from './two-factor-enrolment-step';
import { useSettings } from '../../stores/settings.store';
import { settleLanguageAfterSignIn } from '../../lib/account-language';
import { SocialButtons } from './social-buttons';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';
import { tk } from '../../lib/i18n-keys';

export function LoginForm({ flash, initialUsername }: { flash?: string; initialUsername?: string }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const login = useAuthStore((s) => s.login);
  const [username, setUsername] = useState(initialUsername ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ username?: string | null; password?: string | null; captcha?: string | null }>({});
  // The captcha: always when the site asks for it, or once the server asked this address for it (HTTP 428).
  const [captchaAsked, setCaptchaAsked] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [twoFactor, setTwoFactor] = useState<TwoFactorChallengeResponse | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const showCaptcha = !!settings.captcha_login || captchaAsked;

  const afterSignIn = (user: User) => settleLanguageAfterSignIn(user);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs = {
      username: username.trim() ? null : tk('Enter your username or e-mail.'),
      password: password ? null : tk('Enter your password.'),
    };
    const captchaError = showCaptcha && !captcha ? CAPTCHA_MISSING : null;
    setFieldErrors({ ...errs, captcha: captchaError });
    if (errs.username || errs.password || captchaError) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      afterSignIn(await login({ username: username.trim(), password, remember_me: remember, altcha: captcha ?? undefined }));
    } catch (err) {
      setBusy(false);
      // A captcha answer works once: a new one for the next attempt.
      if (captcha) {
        setCaptcha(null);
        setCaptchaKey((k) => k + 1);
      }
      if (err instanceof TwoFactorRequired) {
        setTwoFactor(err.challenge);
        return;
      }
      if (err instanceof ApiError && err.status === 428) setCaptchaAsked(true);
      setError((err as Error).message || MESSAGES.loginFailed);
    }
  };

  if (twoFactor) {
    // The site requires a second factor: set it up when the account has none, or give its code.
    const Step = twoFactor.enrolment_required ? TwoFactorEnrolmentStep : TwoFactorStep;
    return (
      <Step
        challenge={twoFactor}
        rememberMe={remember}
        onSignedIn={afterSignIn}
        onRestart={(message) => {
          setTwoFactor(null);
          setPassword('');
          setNotice(message ?? null);
        }}
      />
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('Sign in')}>
      {flash && (
        <div className="alert alert-success" role="status">
          {t(flash)}
        </div>
      )}
      {error && (
        <div className="alert alert-danger" role="alert">
          {t(error)}
        </div>
      )}
      {notice && (
        <div className="alert alert-warning" role="status">
          {t(notice)}
        </div>
      )}
      <TextField
        label={t('Username or e-mail')}
        value={username}
        onChange={(v) => {
          setUsername(v);
          setFieldErrors((f) => ({ ...f, username: null }));
        }}
        error={fieldErrors.username ? t(fieldErrors.username) : null}
        autoComplete="username"
        autoFocus
        required
      />
      <TextField
        label={t('Password')}
        type="password"
        value={password}
        onChange={(v) => {
          setPassword(v);
          setFieldErrors((f) => ({ ...f, password: null }));
        }}
        error={fieldErrors.password ? t(fieldErrors.password) : null}
        autoComplete="current-password"
        required
      />
      <div className="form-check mb-3">
        <input id="login-remember" type="checkbox" className="form-check-input" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        <label htmlFor="login-remember" className="form-check-label">
          {t('Remember me')}
        </label>
      </div>
      {showCaptcha && (
        <CaptchaWidget
          resetKey={captchaKey}
          error={fieldErrors.captcha}
          onChange={(p) => {
            setCaptcha(p);
            if (p) setFieldErrors((f) => ({ ...f, captcha: null }));
          }}
        />
      )}
      <button type="submit" className="btn btn-primary w-100" disabled={busy}>
        {busy ? <Spinner size="sm" hideText /> : null} {t('Sign in')}
      </button>
      <SocialButtons
        remember={remember}
        onTwoFactor={(challenge, rememberMe) => {
          setRemember(rememberMe);
          setTwoFactor(challenge);
        }}
      />
      <div className="d-flex flex-wrap justify-content-between gap-2 mt-3 small">
        {settings.smtp_valid && <Link to="/recover">{t('Forgot your password?')}</Link>}
        {settings.enable_registration && <Link to="/register">{t('Create an account')}</Link>}
      </div>
    </form>
  );
}
