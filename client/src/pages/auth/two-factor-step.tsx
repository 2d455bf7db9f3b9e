import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type TwoFactorChallengeResponse, type User } from '@sitewalk/proto';
import { useAuthStore } from '../../stores/auth.store';
import { ApiError } from '../../lib/api-client';
import { TwoFactorCodeField } from '../../components/two-factor/code-field';
import { useCodeForm } from '../../components/two-factor/use-code-form';
import { Spinner } from '../../components/spinner';
import { tk } from '../../lib/i18n-keys';

interface Props {
  challenge: TwoFactorChallengeResponse;
  rememberMe: boolean;
  onSignedIn: (user: User) => void;
  /** Back to the password step, with a sentence to show there (the challenge expired). */
  onRestart: (message?: string) => void;
}

/**
 * The second step of signing in to an account with two-factor on: the code
 * from the authenticator app, or one of the recovery codes.
 */
export function TwoFactorStep({ challenge, rememberMe, onSignedIn, onRestart }: Props) {
  const { t } = useTranslation();
  const loginWithCode = useAuthStore((s) => s.loginWithCode);
  const [recovery, setRecovery] = useState(false);
  const form = useCodeForm(
    async (code) => {
      try {
        onSignedIn(await loginWithCode({ challenge: challenge.challenge, code }, rememberMe));
      } catch (err) {
        const message = (err as Error).message || MESSAGES.loginFailed;
        // The challenge lived five minutes, or was spent: the password step again.
        if (err instanceof ApiError && err.status === 401 && !message.startsWith('That code')) return onRestart(message);
        throw err;
      }
    },
    recovery ? tk('Enter one of your recovery codes.') : tk('Enter the 6-digit code from your authenticator app.'),
    MESSAGES.loginFailed,
  );

  return (
    <form onSubmit={(e) => void form.submit(e)} noValidate aria-label={t('Two-factor sign-in')}>
      <h2 className="h6">{t('Two-factor sign-in')}</h2>
      <p className="text-body-secondary small">
        {recovery ? t('Enter one of the recovery codes you kept when you turned two-factor sign-in on. Each code works once.') : t('Open your authenticator app and enter the 6-digit code it shows for this site.')}
      </p>
      {form.error && (
        <div className="alert alert-danger" role="alert">
          {t(form.error)}
        </div>
      )}
      <TwoFactorCodeField
        key={recovery ? 'recovery' : 'app'}
        kind={recovery ? 'recovery' : 'app'}
        value={form.code}
        onChange={form.setCode}
        error={form.fieldError ? t(form.fieldError) : null}
        autoFocus
      />
      <button type="submit" className="btn btn-primary w-100" disabled={form.busy}>
        {form.busy ? <Spinner size="sm" hideText /> : null} {t('Verify')}
      </button>
      <div className="d-flex flex-wrap justify-content-between gap-2 mt-3 small">
        <button
          type="button"
          className="btn btn-link p-0 small"
          onClick={() => {
            setRecovery(!recovery);
            form.reset();
          }}
        >
          {recovery ? t('Use the code from my app') : t('Use a recovery code')}
        </button>
        <button type="button" className="btn btn-link p-0 small" onClick={() => onRestart()}>
          {t('Back to sign in')}
        </button>
      </div>
    </form>
  );
}
