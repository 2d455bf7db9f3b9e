import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, PROFILE_FIELDS, type ProfileField, type RegisterRequest, type RegisterResponse } from '@sitewalk/proto';
import { apiRequest } from '../../lib/api-client';
import { useSettings } from '../../stores/settings.store';
import { useUiStore } from '../../stores/ui.store';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';
import { CaptchaWidget, useFormCaptcha } from '../../components/captcha-widget';
import { NewPasswordFields } from '../../components/new-password-fields';
import { allRules, rulesWhen } from '../../components/edit-form/edit-form-model';
import { captchaRules, emailRules, newPasswordRules, profileRules, usernameRules } from '../../components/edit-form/account-rules';
import { useRulesForm } from '../../components/edit-form/use-rules-form';
import { PROFILE_FIELD_AUTOCOMPLETE, PROFILE_FIELD_LABELS, isMandatory } from '../../lib/profile-field-labels';
import { tk } from '../../lib/i18n-keys';

type Values = Record<ProfileField, string> & { username: string; email: string; password: string; confirm: string; /** The captcha's solution, empty until solved. */ captcha: string };

const EMPTY: Values = { ...(Object.fromEntries(PROFILE_FIELDS.map((f) => [f, ''])) as Record<ProfileField, string>), username: '', email: '', password: '', confirm: '', captcha: '' };

/** The fields the settings make mandatory are asked here (and the first and last names when shown), so a new account is complete at once. */
const signUpFields = (settings: Partial<Record<string, unknown>>): ProfileField[] =>
  PROFILE_FIELDS.filter((f) => isMandatory(f, settings) || f === 'first_name' || (f === 'last_name' && settings.last_name_enable === true));

export function RegisterForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const settings = useSettings();
  const language = useUiStore((s) => s.language);
  const extra = useMemo(() => signUpFields(settings), [settings]);
  const rules = useMemo(
    () =>
      allRules<Values>(
        usernameRules(),
        emailRules(),
        profileRules(extra, extra.filter((f) => isMandatory(f, settings))),
        newPasswordRules(),
        rulesWhen(() => settings.captcha_register === true, captchaRules()),
      ),
    [extra, settings],
  );
  const { form, values, errors, set } = useRulesForm(rules, EMPTY);
  const busy = form.formState.isSubmitting;
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const captcha = useFormCaptcha(form);

  const submit = form.handleSubmit(async (v) => {
    setError(null);
    const body: RegisterRequest = { username: v.username.trim(), email: v.email.trim(), password: v.password, language, altcha: v.captcha || undefined };
    for (const f of extra) if (v[f].trim()) body[f] = v[f].trim();
    try {
      const { data, message } = await apiRequest<RegisterResponse>({ url: '/register', method: 'POST', data: body }, MESSAGES.registrationFailed);
      if (data.validate_email) setDone(message || tk('Your account is created. Open the link we sent to your e-mail to activate it.'));
      else navigate('/login', { replace: true, state: { message: message || tk('Your account is created. You can sign in now.'), username: body.username } });
    } catch (err) {
      setError((err as Error).message || MESSAGES.registrationFailed);
      captcha.renew();
    }
  });

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
      <TextField label={t('Username')} value={values.username} onChange={(v) => set('username', v)} error={errors.username && t(errors.username)} autoComplete="username" required autoFocus />
      <TextField label={t('E-mail')} type="email" value={values.email} onChange={(v) => set('email', v)} error={errors.email && t(errors.email)} autoComplete="email" required />
      {extra.map((f) => (
        <TextField
          key={f}
          label={t(PROFILE_FIELD_LABELS[f])}
          value={values[f]}
          onChange={(v) => set(f, v)}
          error={errors[f] && t(errors[f])}
          autoComplete={PROFILE_FIELD_AUTOCOMPLETE[f]}
          required={isMandatory(f, settings)}
        />
      ))}
      <NewPasswordFields password={values.password} confirm={values.confirm} onChange={set} errors={errors} label={t('Password')} confirmLabel={t('Confirm password')} />
      {settings.captcha_register && (
        <CaptchaWidget resetKey={captcha.resetKey} error={errors.captcha} onChange={captcha.onChange} />
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
