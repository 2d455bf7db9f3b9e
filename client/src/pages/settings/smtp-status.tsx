import { useTranslation } from 'react-i18next';

export type SmtpCheck = 'verified' | 'checking' | 'failed' | 'unverified';

interface Props {
  check: SmtpCheck;
  /** The reason the last check gave (from its notification), when it failed. */
  reason?: string | null;
  refreshing: boolean;
  onRefresh(): void;
}

const LOOK: Record<SmtpCheck, { cls: string; icon: string }> = {
  verified: { cls: 'success', icon: 'bi-check-circle-fill' },
  checking: { cls: 'info', icon: 'bi-hourglass-split' },
  failed: { cls: 'danger', icon: 'bi-x-circle-fill' },
  unverified: { cls: 'warning', icon: 'bi-exclamation-triangle-fill' },
};

/**
 * Whether SiteWalk can send e-mail (smtp_valid). The server checks the mail
 * server in the background after every change of its settings, stores the
 * outcome and notifies the administrators; this panel says so and can ask
 * for the stored outcome again.
 */
export function SmtpStatus({ check, reason, refreshing, onRefresh }: Props) {
  const { t } = useTranslation();
  const look = LOOK[check];
  const title = {
    verified: t('Mail server verified'),
    checking: t('Checking the mail server…'),
    failed: t('The mail server check failed'),
    unverified: t('Mail server not verified'),
  }[check];
  const detail = {
    verified: t('{site} can send e-mail: password recovery and e-mail notifications are on.'),
    checking: t('{site} is connecting to the mail server with the saved settings. You will get a notification with the result.'),
    failed: t('Password recovery and e-mail notifications stay off until the mail server works.'),
    unverified: t('Password recovery and e-mail notifications stay off until the mail server works. Save the mail server settings to check them.'),
  }[check];
  return (
    <div className={`alert alert-${look.cls} d-flex flex-wrap align-items-start gap-2 mb-4`} role="status" aria-live="polite" data-testid="smtp-status" data-state={check}>
      <i className={`bi ${look.icon} fs-5 lh-1 mt-1`} aria-hidden="true" />
      <div className="flex-grow-1 min-w-0">
        <div className="fw-semibold">{title}</div>
        {/* A failed check's own reason already says what is off. */}
        {check === 'failed' && reason ? <div className="small text-break">{reason}</div> : <div className="small">{detail}</div>}
        <div className="small mt-2 text-body-secondary">
          {t('After a change of the mail server settings is saved, {site} checks the server in the background, records whether it works and notifies the administrators.')}
        </div>
      </div>
      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={onRefresh} disabled={refreshing}>
        {refreshing ? <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" /> : <i className="bi bi-arrow-clockwise me-1" aria-hidden="true" />}
        {t('Refresh status')}
      </button>
    </div>
  );
}
