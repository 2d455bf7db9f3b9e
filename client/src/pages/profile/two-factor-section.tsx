import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RecoveryCodesResponse, TwoFactorEnrolment } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';
import { TwoFactorCodeField } from '../../components/two-factor/code-field';
import { TwoFactorEnrolmentForm } from '../../components/two-factor/enrolment-form';
import { RecoveryCodesPanel } from '../../components/two-factor/recovery-codes';
import { twoFactorKey, useTwoFactorQuery } from '../../components/two-factor/use-two-factor-query';
import { useFailureToast } from '../../lib/use-failure-toast';

type Step = { kind: 'idle' } | { kind: 'enrolling'; enrolment: TwoFactorEnrolment } | { kind: 'codes'; codes: string[] } | { kind: 'disabling' };

/**
 * The profile's "Two-factor sign-in" card (issue 24): set it up with a QR
 * code (or the secret typed in) and a first code, see the ten recovery codes
 * once, and turn it off with the password and a code (only while the site
 * does not require it). Shown when the site requires it, or while it is on
 * for the account.
 */
export function TwoFactorSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useTwoFactorQuery(null);
  const status = query.data ?? null;
  useFailureToast(query.error);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const load = () => queryClient.invalidateQueries({ queryKey: twoFactorKey(null) });

  const reset = (next: Step) => {
    setStep(next);
    setCode('');
    setPassword('');
    setError(null);
  };

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const start = () =>
    run(async () => {
      const enrolment = await api.post<TwoFactorEnrolment>('/two-factor/setup', {}, tk('Could not start the two-factor setup.'));
      reset({ kind: 'enrolling', enrolment });
    });

  const confirm = async (firstCode: string) => {
    const { recovery_codes } = await api.post<RecoveryCodesResponse>('/two-factor/confirm', { code: firstCode }, tk('Could not turn two-factor sign-in on.'));
    reset({ kind: 'codes', codes: recovery_codes });
    formToast('success', t('Two-factor sign-in is on.'));
    await load();
  };

  const disable = (e: FormEvent) => {
    e.preventDefault();
    if (!password || !code.trim()) return setError(tk('Enter your password and a code from your authenticator app (or a recovery code).'));
    void run(async () => {
      await api.post('/two-factor/disable', { password, code: code.trim() }, tk('Could not turn two-factor sign-in off.'));
      reset({ kind: 'idle' });
      formToast('success', t('Two-factor sign-in is off.'));
      await load();
    });
  };

  if (!status || (!status.available && !status.enabled && step.kind === 'idle')) return null;

  const errorBox = error && (
    <div className="alert alert-danger" role="alert">
      {t(error)}
    </div>
  );

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="profile-two-factor-heading" data-testid="two-factor-card">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h3 id="profile-two-factor-heading" className="h6 mb-0 me-auto">
          {t('Two-factor sign-in')}
        </h3>
        <span className={`badge ${status.enabled ? 'text-bg-success' : 'text-bg-secondary'}`}>{status.enabled ? t('On') : t('Off')}</span>
      </div>
      <div className="card-body">
        {step.kind === 'idle' && !status.enabled && (
          <>
            {/* Shown only while the site requires it (the card is hidden otherwise): this session began before it did. */}
            <p className="small mb-2" data-testid="two-factor-required">
              {t('Your administrator requires two-step verification for every account. Set it up now, or your next sign-in will ask you to.')}
            </p>
            <p className="small text-body-secondary">{t('After your password, sign in with a code from an authenticator app on your phone, so a stolen password alone does not open your account.')}</p>
            {errorBox}
            <button type="button" className="btn btn-primary btn-sm" onClick={() => void start()} disabled={busy}>
              {busy ? <Spinner size="sm" hideText /> : null} {t('Set up two-factor sign-in')}
            </button>
          </>
        )}

        {step.kind === 'enrolling' && (
          <TwoFactorEnrolmentForm
            enrolment={step.enrolment}
            onConfirm={confirm}
            submitLabel={t('Turn on')}
            small
            secondary={
              <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => reset({ kind: 'idle' })}>
                {t('Cancel')}
              </button>
            }
          />
        )}

        {step.kind === 'codes' && <RecoveryCodesPanel codes={step.codes} onDone={() => reset({ kind: 'idle' })} small />}

        {step.kind === 'idle' && status.enabled && (
          <>
            <p className="small mb-2">{t('Signing in asks for a code from your authenticator app after your password.')}</p>
            <p className="small text-body-secondary">{t('Recovery codes left: {left}', { left: status.recovery_codes_left })}</p>
            {status.available ? (
              <p className="small text-body-secondary mb-0">{t('Your administrator requires two-step verification for every account, so it cannot be turned off.')}</p>
            ) : (
              <button type="button" className="btn btn-outline-danger btn-sm" onClick={() => reset({ kind: 'disabling' })}>
                {t('Turn off two-factor sign-in')}
              </button>
            )}
          </>
        )}

        {step.kind === 'disabling' && (
          <form onSubmit={disable} noValidate aria-label={t('Turn off two-factor sign-in')}>
            <p className="small">{t('To turn it off, confirm with your password and a code from your authenticator app (or a recovery code).')}</p>
            {errorBox}
            <TextField label={t('Password')} type="password" value={password} onChange={setPassword} autoComplete="current-password" required />
            <TwoFactorCodeField value={code} onChange={setCode} kind="app-or-recovery" />
            <div className="d-flex flex-wrap gap-2">
              <button type="submit" className="btn btn-danger btn-sm" disabled={busy}>
                {busy ? <Spinner size="sm" hideText /> : null} {t('Turn off')}
              </button>
              <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => reset({ kind: 'idle' })} disabled={busy}>
                {t('Cancel')}
              </button>
            </div>
          </form>
        )}
      </div>
    </section>
  );
}
