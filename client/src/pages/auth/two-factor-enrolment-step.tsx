import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EnrolledLoginResponse, TwoFactorChallengeResponse, TwoFactorEnrolment, User } from '@sitewalk/proto';
import { useAuthStore } from '../../stores/auth.store';
import { api, ApiError } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';
import { Spinner } from '../../components/spinner';
import { TwoFactorEnrolmentForm } from '../../components/two-factor/enrolment-form';
import { RecoveryCodesPanel } from '../../components/two-factor/recovery-codes';

interface Props {
  challenge: TwoFactorChallengeResponse;
  rememberMe: boolean;
  onSignedIn: (user: User) => void;
  /** Back to the password step, with a sentence to show there (the challenge expired). */
  onRestart: (message?: string) => void;
}

/**
 * The site requires two-step verification and the account has none yet: it is
 * set up here, between the password and the session (as GitHub and Google
 * Workspace do). The session starts only after the recovery codes are seen.
 */
export function TwoFactorEnrolmentStep({ challenge, rememberMe, onSignedIn, onRestart }: Props) {
  const { t } = useTranslation();
  const adoptLogin = useAuthStore((s) => s.adoptLogin);
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [signedIn, setSignedIn] = useState<EnrolledLoginResponse | null>(null);
  // One setup per challenge (React may run the effect twice in development).
  const started = useRef(false);

  // The challenge lived five minutes, or was spent: the password step again.
  const restartWhenGone = (err: unknown) => {
    if (err instanceof ApiError && err.status === 401) onRestart((err as Error).message);
    throw err;
  };

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    api
      .post<TwoFactorEnrolment>('/login/two-factor/setup', { challenge: challenge.challenge }, tk('Could not start the two-factor setup.'), { skipAuthRefresh: true })
      .then(setEnrolment)
      .catch((err: Error) => onRestart(err.message));
  }, [challenge.challenge, onRestart]);

  const confirm = async (code: string) => {
    const data = await api
      .post<EnrolledLoginResponse>('/login/two-factor/enrol', { challenge: challenge.challenge, code }, tk('Could not turn two-factor sign-in on.'), { skipAuthRefresh: true })
      .catch(restartWhenGone);
    setSignedIn(data);
  };

  return (
    <section aria-labelledby="two-factor-enrol-heading" data-testid="two-factor-enrolment">
      <h2 id="two-factor-enrol-heading" className="h6">
        {t('Your administrator requires two-step verification')}
      </h2>
      {signedIn ? (
        <RecoveryCodesPanel
          codes={signedIn.recovery_codes}
          onDone={() => {
            onSignedIn(adoptLogin({ token: signedIn.token, user: signedIn.user, expiresAt: signedIn.expiresAt }, rememberMe));
          }}
        />
      ) : (
        <>
          <p className="text-body-secondary small">{t('Every account on this site signs in with a code from an authenticator app after the password. Set it up now to continue; it takes a minute.')}</p>
          {enrolment ? (
            <TwoFactorEnrolmentForm
              enrolment={enrolment}
              onConfirm={confirm}
              submitLabel={t('Turn on and continue')}
              secondary={
                <button type="button" className="btn btn-link p-0 small" onClick={() => onRestart()}>
                  {t('Back to sign in')}
                </button>
              }
            />
          ) : (
            <Spinner />
          )}
        </>
      )}
    </section>
  );
}
