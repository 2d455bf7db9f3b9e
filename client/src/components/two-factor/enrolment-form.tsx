import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TwoFactorEnrolment } from '@sitewalk/proto';
import { tk } from '../../lib/i18n-keys';
import { Spinner } from '../spinner';
import { TwoFactorCodeField } from './code-field';
import { useCodeForm } from './use-code-form';

interface Props {
  enrolment: TwoFactorEnrolment;
  /** Sends the first code; a thrown error's message is shown above the field. */
  onConfirm: (code: string) => Promise<void>;
  submitLabel: string;
  /** A way back (Cancel in the profile, Back to sign in on the sign-in page). */
  secondary?: ReactNode;
  small?: boolean;
}

/**
 * Setting up an authenticator app (profile and sign-in): the QR code, the key
 * as text for an app that cannot scan, and the first code that proves the app
 * has it.
 */
export function TwoFactorEnrolmentForm({ enrolment, onConfirm, submitLabel, secondary, small = false }: Props) {
  const { t } = useTranslation();
  const form = useCodeForm(onConfirm, tk('Enter the 6-digit code from your authenticator app.'));

  return (
    <form onSubmit={(e) => void form.submit(e)} noValidate aria-label={t('Set up two-factor sign-in')}>
      <ol className="small ps-3">
        <li>{t('Scan this QR code with your authenticator app, or type the key below into it.')}</li>
        <li>{t('Enter the 6-digit code the app shows to turn two-factor sign-in on.')}</li>
      </ol>
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <img src={enrolment.qr_svg} alt={t('QR code for your authenticator app')} width={176} height={176} className="bg-white rounded p-1" />
        <div className="text-break">
          <div className="small text-body-secondary">{t('Key')}</div>
          <code dir="ltr" className="fs-6" data-testid="two-factor-secret">
            {enrolment.secret}
          </code>
        </div>
      </div>
      {form.error && (
        <div className="alert alert-danger" role="alert">
          {t(form.error)}
        </div>
      )}
      <TwoFactorCodeField
        value={form.code}
        onChange={form.setCode}
        error={form.fieldError ? t(form.fieldError) : null}
      />
      <div className="d-flex flex-wrap align-items-center gap-2">
        <button type="submit" className={`btn btn-primary${small ? ' btn-sm' : ' w-100'}`} disabled={form.busy}>
          {form.busy ? <Spinner size="sm" hideText /> : null} {submitLabel}
        </button>
        {secondary}
      </div>
    </form>
  );
}
