import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@sitewalk/proto';
import { apiRequest } from '../../lib/api-client';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';
import { recoverRules } from '../../components/edit-form/account-rules';
import { useRulesForm } from '../../components/edit-form/use-rules-form';
import { tk } from '../../lib/i18n-keys';

type Values = { login: string };

const rules = recoverRules<Values>();

export function RecoverForm() {
  const { t } = useTranslation();
  const { form, values, errors, set } = useRulesForm(rules, { login: '' });
  const busy = form.formState.isSubmitting;
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  const submit = form.handleSubmit(async (v) => {
    setError(null);
    try {
      const { message } = await apiRequest<null>({ url: '/password/email', method: 'POST', data: { username_f: v.login.trim() } }, MESSAGES.recoveryFailed);
      setSent(message || tk('If an account matches, a link to reset its password has been sent to its e-mail address.'));
    } catch (err) {
      setError((err as Error).message || MESSAGES.recoveryFailed);
    }
  });

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('Recover your password')}>
      {sent ? (
        <div className="alert alert-success" role="status">
          {t(sent)}
        </div>
      ) : (
        <p className="text-body-secondary">{t('Enter your username or e-mail and we will send you a link to choose a new password.')}</p>
      )}
      {error && (
        <div className="alert alert-danger" role="alert">
          {t(error)}
        </div>
      )}
      {!sent && (
        <>
          <TextField
            label={t('Username or e-mail')}
            value={values.login}
            onChange={(v) => set('login', v)}
            error={errors.login && t(errors.login)}
            autoComplete="username"
            autoFocus
            required
          />
          <button type="submit" className="btn btn-primary w-100" disabled={busy}>
            {busy ? <Spinner size="sm" hideText /> : null} {t('Send reset link')}
          </button>
        </>
      )}
      <p className="mt-3 small mb-0">
        <Link to="/login">{t('Back to sign in')}</Link>
      </p>
    </form>
  );
}
