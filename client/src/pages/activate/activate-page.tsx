import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type ActivateAccountRequest, type ActivateAccountResponse, type InvitationCheckResponse } from '@sitewalk/proto';
import { apiRequest } from '../../lib/api-client';
import { AuthCard } from '../../components/auth-card';
import { TextField } from '../../components/text-field';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Spinner } from '../../components/spinner';
import { allRules, rulesWhen } from '../../components/edit-form/edit-form-model';
import { newPasswordRules, usernameRules } from '../../components/edit-form/account-rules';
import { useRulesForm } from '../../components/edit-form/use-rules-form';
import { tk } from '../../lib/i18n-keys';
import { useInvitationCheckQuery } from './use-invitation-check-query';

type Values = { username: string; password: string; confirm: string };

/**
 * /activate?token=…: an invited user chooses username and password; a user
 * who registered confirms the e-mail link. Then on to sign in.
 */
export default function ActivatePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const check = useInvitationCheckQuery(token);
  const checkError = !token ? tk('The activation link is not valid.') : check.isError ? check.error.message || MESSAGES.invitationTokenFailed : null;

  return (
    <AuthCard title={tk('Activate your account')}>
      {!check.data && !checkError && <Spinner />}
      {checkError && (
        <>
          <div className="alert alert-danger" role="alert">
            {t(checkError)}
          </div>
          <Link to="/login">{t('Back to sign in')}</Link>
        </>
      )}
      {check.data && !checkError && <ActivateForm token={token} check={check.data} />}
    </AuthCard>
  );
}

/** Username and password for an invitation (proto's rules), or a plain confirmation of the e-mail link. */
function ActivateForm({ token, check }: { token: string; check: InvitationCheckResponse }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const rules = useMemo(() => rulesWhen<Values>(() => check.needs_credentials, allRules(usernameRules(), newPasswordRules())), [check.needs_credentials]);
  const { form, values, errors, set } = useRulesForm(rules, { username: check.username, password: '', confirm: '' });
  const [error, setError] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async (v) => {
    const body: ActivateAccountRequest = { token };
    if (check.needs_credentials) {
      body.username = v.username.trim();
      body.password = v.password;
    }
    setError(null);
    try {
      const { data, message } = await apiRequest<ActivateAccountResponse>({ url: '/activate-account', method: 'POST', data: body }, MESSAGES.activateFailed);
      navigate('/login', { replace: true, state: { message: message || tk('Your account is active. You can sign in now.'), username: data.username } });
    } catch (err) {
      setError((err as Error).message || MESSAGES.activateFailed);
    }
  });

  return (
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
          <TextField label={t('Username')} value={values.username} onChange={(v) => set('username', v)} error={errors.username && t(errors.username)} autoComplete="username" required />
          <NewPasswordFields password={values.password} confirm={values.confirm} onChange={set} errors={errors} label={t('Password')} confirmLabel={t('Confirm password')} />
        </>
      )}
      <button type="submit" className="btn btn-primary w-100" disabled={busy}>
        {busy ? <Spinner size="sm" hideText /> : null} {t('Activate account')}
      </button>
    </form>
  );
}
