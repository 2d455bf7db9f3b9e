import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, PROFILE_FIELDS, type ProfileField, type RegisterRequest, type RegisterResponse } from '@sitewalk/proto';
import { apiRequest } from '../../lib/api-client';
import { useSettings } from '../../stores/settings.store';
import { useUiStore } from '../../stores/ui.store';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';
import { CAPTCHA_MISSING, CaptchaWidget } from '../../components/captcha-widget';
import { checkEmail, checkFirstName, checkPassword, checkRequired, checkSamePassword, checkUsername, noErrors } from '../../lib/form-rules';
import { PROFILE_FIELD_AUTOCOMPLETE, PROFILE_FIELD_LABELS } from '../../lib/profile-field-labels';
import { tk } from '../../lib/i18n-keys';

type Values = { username: string; email: string; password: string; confirm: string } & Partial<Record<ProfileField, string>>;

export function RegisterForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const settings = useSettings();
  const language = useUiStore((s) => s.language);
  // The fields the settings make mandatory are asked here, so a new account is complete at once.
  const extra = PROFILE_FIELDS.filter((f) => settings[`${f}_mandatory`] === true || f === 'first_name' || (f === 'last_name' && settings.last_name_enable));
  const [values, setValues] = useState<Values>({ username: '', email: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);

  const set = (k: keyof Values) => (v: string) => {
    setValues((s) => ({ ...s, [k]: v }));
    setErrors((e) => ({ ...e, [k]: null }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: Record<string, string | null> = {
      username: checkUsername(values.username),
      email: checkEmail(values.email),
      password: checkPassword(values.password),
      confirm: checkSamePassword(values.password, values.confirm),
    };
    for (const f of extra) {
      const mandatory = settings[`${f}_mandatory`] === true;
      if (f === 'first_name' && mandatory) errs[f] = checkFirstName(values[f] ?? '');
      else if (mandatory) errs[f] = checkRequired(values[f] ?? '');
    }
    if (settings.captcha_register && !captcha) errs.captcha = CAPTCHA_MISSING;
    setErrors(errs);
    if (!noErrors(errs)) return;
    setBusy(true);
    setError(null);
    const body: RegisterRequest = { username: values.username.trim(), email: values.email.trim(), password: values.password, language, altcha: captcha ?? undefined };
    for (const f of extra) if (values[f]?.trim()) body[f] = values[f]?.trim();
    try {
      const { data, message } = await apiRequest<RegisterResponse>({ url: '/register', method: 'POST', data: body }, MESSAGES.registrationFailed);
      if (data.validate_email) setDone(message || tk('Your account is created. Open the link we sent to your e-mail to activate it.'));
      else navigate('/login', { replace: true, state: { message: message || tk('Your account is created. You can sign in now.'), username: body.username } });
    } catch (err) {
      setError((err as Error).message || MESSAGES.registrationFailed);
      // A captcha answer works once: a new one for the next attempt.
      if (captcha) {
        setCaptcha(null);
        setCaptchaKey((k) => k + 1);
      }
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <div>
        <div className="alert alert-success" role="status">
          {t(done)}
        </div>
        <Link to="/login">{t('Back to sign in')}</Link>
      </div>
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('Create an account')}>
      {error && (
        <div className="alert alert-danger" role="alert">
          {t(error)}
        </div>
      )}
      <TextField label={t('Username')} value={values.username} onChange={set('username')} error={errors.username && t(errors.username)} autoComplete="username" required autoFocus />
      <TextField label={t('E-mail')} type="email" value={values.email} onChange={set('email')} error={errors.email && t(errors.email)} autoComplete="email" required />
      {extra.map((f) => (
        <TextField
          key={f}
          label={t(PROFILE_FIELD_LABELS[f])}
          value={values[f] ?? ''}
          onChange={set(f)}
          error={errors[f] && t(errors[f] as string)}
          autoComplete={PROFILE_FIELD_AUTOCOMPLETE[f]}
          required={settings[`${f}_mandatory`] === true}
        />
      ))}
      <TextField label={t('Password')} type="password" value={values.password} onChange={set('password')} error={errors.password && t(errors.password)} autoComplete="new-password" required hint={t('At least 8 characters.')} />
      <TextField label={t('Confirm password')} type="password" value={values.confirm} onChange={set('confirm')} error={errors.confirm && t(errors.confirm)} autoComplete="new-password" required />
      {settings.captcha_register && (
        <CaptchaWidget
          resetKey={captchaKey}
          error={errors.captcha}
          onChange={(p) => {
            setCaptcha(p);
            if (p) setErrors((e) => ({ ...e, captcha: null }));
          }}
        />
      )}
      <button type="submit" className="btn btn-primary w-100" disabled={busy}>
        {busy ? <Spinner size="sm" hideText /> : null} {t('Create account')}
      </button>
      <p className="mt-3 small mb-0">
        {t('Already have an account?')} <Link to="/login">{t('Sign in')}</Link>
      </p>
    </form>
  );
}
