import { ProgressBar } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import type { UploadProgress } from '../../lib/pdf-progress';

export interface SendingPdf {
  name: string;
  /** 0..100 of the bytes sent. */
  percent: number;
}

interface Props {
  sending: SendingPdf | null;
  sendError: string | null;
  uploads: UploadProgress[];
  onDismiss(id: number): void;
  onDismissSendError(): void;
}

/**
 * Where PDF plans stand: the upload of the file (bytes), then the pages the
 * worker turns into sheets, live, and a clear reason when one fails.
 */
export function PdfUploadPanel({ sending, sendError, uploads, onDismiss, onDismissSendError }: Props) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(v, i18n.language);
  return (
    <div className="d-flex flex-column gap-2 mb-3" aria-live="polite" data-testid="pdf-progress">
      {sending && (
        <div className="border rounded p-2" data-testid="pdf-sending">
          <div className="small mb-1">{t('Uploading {name}', { name: sending.name })}</div>
          <ProgressBar now={sending.percent} label={`${n(sending.percent)}%`} aria-label={t('Uploading {name}', { name: sending.name })} animated />
        </div>
      )}
      {sendError && (
        <div className="alert alert-danger d-flex align-items-start gap-2 mb-0" role="alert">
          <i className="bi bi-exclamation-triangle-fill" aria-hidden="true" />
          <span className="me-auto">{t(sendError)}</span>
          <button type="button" className="btn-close" aria-label={t('Close')} onClick={onDismissSendError} />
        </div>
      )}
      {uploads.map((u) => {
        if (u.status === 'failed') {
          return (
            <div key={u.id} className="alert alert-danger d-flex align-items-start gap-2 mb-0" role="alert" data-testid="pdf-failed">
              <i className="bi bi-exclamation-triangle-fill" aria-hidden="true" />
              <div className="me-auto">
                <div className="fw-semibold">{t('{name} could not be turned into sheets', { name: u.name })}</div>
                <div>{t(u.error || 'Failed to upload PDF')}</div>
              </div>
              <button type="button" className="btn-close" aria-label={t('Close')} onClick={() => onDismiss(u.id)} />
            </div>
          );
        }
        if (u.status === 'done') {
          return (
            <div key={u.id} className="alert alert-success d-flex align-items-start gap-2 mb-0" role="status" data-testid="pdf-done">
              <i className="bi bi-check-circle-fill" aria-hidden="true" />
              <span className="me-auto">{t('{name}: {n} sheets made', { count: u.sheetIds.length, name: u.name, n: n(u.sheetIds.length) })}</span>
              <button type="button" className="btn-close" aria-label={t('Close')} onClick={() => onDismiss(u.id)} />
            </div>
          );
        }
        const text =
          u.status === 'queued'
            ? t('Waiting for its turn…')
            : u.pagesTotal
              ? t('Page {done} of {total} made into a sheet', { done: n(u.pagesDone), total: n(u.pagesTotal) })
              : t('Reading the PDF…');
        return (
          <div key={u.id} className="border rounded p-2" data-testid="pdf-processing">
            <div className="d-flex justify-content-between small mb-1 gap-2">
              <span className="text-truncate">{t('Making sheets from {name}', { name: u.name })}</span>
              <span data-testid="pdf-processing-text">{text}</span>
            </div>
            <ProgressBar now={u.percent} label={`${n(u.percent)}%`} variant="success" striped animated aria-label={t('Making sheets from {name}', { name: u.name })} />
          </div>
        );
      })}
    </div>
  );
}
