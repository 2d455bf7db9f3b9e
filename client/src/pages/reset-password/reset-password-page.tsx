import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@sitewalk/proto';
import { apiRequest } from '../../lib/api-client';
import { AuthCard } from '../../components/auth-card';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Spinner } from '../../components/spinner';
import { newPasswordRules } from '../../components/edit-form/account-rules';
import { useRulesForm } from '../../components/edit-form/use-rules-form';
import { tk } from '../../lib/i18n-keys';
import { useResetTokenQuery } from './use-reset-token-query';

type Values = { password: string; confirm: string };

const EMPTY: Values = { password: '', confirm: '' };
const rules = newPasswordRules<Values>();

/** /reset-password?token=…: the page the recovery e-mail links to. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const check = useResetTokenQuery(token);
  const checkError = !token ? tk('The reset link is not valid.') : check.isError ? check.error.message || MESSAGES.tokenValidationFailed : null;

  return (
    <AuthCard title={tk('Choose a new password')}>
      {!check.data && !checkError && <Spinner />}
      {checkError && (
        <>
          <div className="alert alert-danger" role="alert">
            {t(checkError)}
          </div>
          <Link to="/recover">{t('Ask for a new link')}</Link>
        </>
      )}
      {check.data && !checkError && <ResetPasswordForm token={token} />}
    </AuthCard>
  );
}

/** The new password, typed twice, under proto's rules. */
function ResetPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { form, values, errors, set } = useRulesForm(rules, EMPTY);
  const [error, setError] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async ({ password }) => {
    setError(null);
    try {
      const { message } = await apiRequest<null>({ url: '/password/reset', method: 'POST', data: { token, password } }, MESSAGES.resetFailed);
      navigate('/login', { replace: true, state: { message: message || tk('Your password has been changed. Sign in with your new password.') } });
    } catch (err) {
      setError((err as Error).message || MESSAGES.resetFailed);
    }
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('Choose a new password')}>
      {error && (
        <div className="alert alert-danger" role="alert">
          {t(error)}
        </div>
      )}
      <NewPasswordFields password={values.password} confirm={values.confirm} onChange={set} errors={errors} label={t('New password')} confirmLabel={t('Confirm new password')} autoFocus />
      <button type="submit" className="btn btn-primary w-100" disabled={busy}>
        {busy ? <Spinner size="sm" hideText /> : null} {t('Reset password')}
      </button>
      <p className="mt-3 small mb-0">
        <Link to="/login">{t('Back to sign in')}</Link>
      </p>
    </form>
  );
}
