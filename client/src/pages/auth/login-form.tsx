import { useMemo, useState } from 'react';
import type { TwoFactorChallengeResponse, User } from '@sitewalk/proto';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@sitewalk/proto';
import { TwoFactorRequired, useAuthStore } from '../../stores/auth.store';
import { ApiError } from '../../lib/api-client';
import { CaptchaWidget, useFormCaptcha } from '../../components/captcha-widget';
import { allRules, rulesWhen } from '../../components/edit-form/edit-form-model';
import { captchaRules, signInRules } from '../../components/edit-form/account-rules';
import { useRulesForm } from '../../components/edit-form/use-rules-form';
import { TwoFactorStep } from './two-factor-step';
import { TwoFactorEnrolmentStep } from './two-factor-enrolment-step';
import { useSettings } from '../../stores/settings.store';
import { settleLanguageAfterSignIn } from '../../lib/account-language';
import { SocialButtons } from './social-buttons';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';

type Values = { username: string; password: string; /** The captcha's solution, empty until solved. */ captcha: string };

const credentialRules = signInRules<Values>();

export function LoginForm({ flash, initialUsername }: { flash?: string; initialUsername?: string }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const login = useAuthStore((s) => s.login);
  // The captcha: always when the site asks for it, or once the server asked this address for it (HTTP 428).
  const [captchaAsked, setCaptchaAsked] = useState(false);
  const showCaptcha = !!settings.captcha_login || captchaAsked;
  const rules = useMemo(() => allRules<Values>(credentialRules, rulesWhen(() => showCaptcha, captchaRules())), [showCaptcha]);
  const { form, values, errors, set } = useRulesForm(rules, { username: initialUsername ?? '', password: '', captcha: '' });
  const captcha = useFormCaptcha(form);
  const [remember, setRemember] = useState(false);
  const busy = form.formState.isSubmitting;
  const [error, setError] = useState<string | null>(null);
  const [twoFactor, setTwoFactor] = useState<TwoFactorChallengeResponse | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const afterSignIn = (user: User) => settleLanguageAfterSignIn(user);

  const submit = form.handleSubmit(async (v) => {
    setError(null);
    setNotice(null);
    try {
      afterSignIn(await login({ username: v.username.trim(), password: v.password, remember_me: remember, altcha: v.captcha || undefined }));
    } catch (err) {
      captcha.renew();
      if (err instanceof TwoFactorRequired) {
        setTwoFactor(err.challenge);
        return;
      }
      if (err instanceof ApiError && err.status === 428) setCaptchaAsked(true);
      setError((err as Error).message || MESSAGES.loginFailed);
    }
  });

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
          form.setValue('password', '');
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
        value={values.username}
        onChange={(v) => set('username', v)}
        error={errors.username && t(errors.username)}
        autoComplete="username"
        autoFocus
        required
      />
      <TextField
        label={t('Password')}
        type="password"
        value={values.password}
        onChange={(v) => set('password', v)}
        error={errors.password && t(errors.password)}
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
        <CaptchaWidget resetKey={captcha.resetKey} error={errors.captcha} onChange={captcha.onChange} />
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
