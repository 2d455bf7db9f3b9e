import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dropdown, ProgressBar } from 'react-bootstrap';
import { ANNOTATION_EXPORT_FORMATS, type AnnotationExport, type AnnotationExportFormat } from '@sitewalk/proto';
import { api, errorMessage } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { onServerEvent } from '../../realtime/socket';
import { applyExportEvent, exportRequest, isFinished, type ExportState, type SnagListFilters } from './export-request';
import { MENU_INSIDE_SCREEN } from '../../lib/menu-popper';

const FORMAT_LABELS: Record<AnnotationExportFormat, string> = {
  pdf: tk('PDF report'),
  csv: tk('CSV spreadsheet'),
  bcf: tk('BCF for BIM tools'),
};
const START_FAILED = tk('The export could not be started.');
const EXPORT_FAILED = tk('The export failed.');
/** Live events carry the progress; the status is also read now and then, in case the live connection is away. */
const POLL_MS = 4000;

const fromApi = (e: AnnotationExport): ExportState => ({ id: e.id, format: e.format, status: e.status, percent: e.percent, message: e.message, download_url: e.download_url });

/**
 * The Export menu of the snag list: makes a PDF report, a CSV or a BCF file
 * of the snags under the list's filters in the background, shows its
 * progress, and offers the download when it is ready (the link is asked for
 * afresh on each click: it works for minutes only).
 */
export function SnagExportButton({ filters }: { filters: SnagListFilters }) {
  const { t } = useTranslation();
  const [job, setJob] = useState<ExportState | null>(null);
  const [starting, setStarting] = useState(false);
  const [fetching, setFetching] = useState(false);
  const told = useRef<number | null>(null);

  const start = async (format: AnnotationExportFormat) => {
    setStarting(true);
    try {
      setJob(fromApi(await api.post<AnnotationExport>('/annotation-exports', exportRequest(format, filters), START_FAILED)));
    } catch (err) {
      showToast('error', t(errorMessage(err, START_FAILED)));
    } finally {
      setStarting(false);
    }
  };

  const id = job?.id ?? null;
  const running = !!job && !isFinished(job);
  useEffect(() => {
    if (id === null || !running) return;
    let live = true;
    const off = onServerEvent('job:progress', (e) => setJob((s) => (s ? applyExportEvent(s, e) : s)));
    const timer = setInterval(() => {
      api.get<AnnotationExport>(`/annotation-exports/${id}`, EXPORT_FAILED).then(
        (e) => live && setJob((s) => (s && s.id === e.id && !isFinished(s) ? fromApi(e) : s)),
        (err: unknown) => console.warn(err),
      );
    }, POLL_MS);
    return () => {
      live = false;
      off();
      clearInterval(timer);
    };
  }, [id, running]);

  useEffect(() => {
    if (!job || !isFinished(job) || told.current === job.id) return;
    told.current = job.id;
    if (job.status === 'completed') showToast('success', t('Your export is ready.'));
    else showToast('error', t(job.message || EXPORT_FAILED));
  }, [job, t]);

  const download = async () => {
    if (!job) return;
    setFetching(true);
    try {
      const fresh = await api.get<AnnotationExport>(`/annotation-exports/${job.id}`, EXPORT_FAILED);
      if (!fresh.download_url) throw new Error(t(EXPORT_FAILED));
      // The answer is an attachment: the browser saves it and stays on the list.
      window.location.assign(fresh.download_url);
    } catch (err) {
      showToast('error', t(errorMessage(err, EXPORT_FAILED)));
    } finally {
      setFetching(false);
    }
  };

  return (
    <div className="d-flex flex-wrap align-items-center gap-2" data-testid="snag-export">
      <Dropdown>
        <Dropdown.Toggle variant="outline-secondary" size="sm" disabled={starting || running} data-testid="snag-export-toggle">
          {starting ? <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" /> : <i className="bi bi-download me-1" aria-hidden="true" />}
          {t('Export')}
        </Dropdown.Toggle>
        <Dropdown.Menu popperConfig={MENU_INSIDE_SCREEN}>
          {ANNOTATION_EXPORT_FORMATS.map((f) => (
            <Dropdown.Item key={f} as="button" type="button" onClick={() => void start(f)} data-testid={`snag-export-${f}`}>
              {t(FORMAT_LABELS[f])}
            </Dropdown.Item>
          ))}
        </Dropdown.Menu>
      </Dropdown>
      {job && running && (
        <div className="flex-grow-1" style={{ minWidth: '8rem', maxWidth: '16rem' }}>
          <ProgressBar now={job.percent} label={`${job.percent}%`} animated aria-label={t('Export progress')} data-testid="snag-export-progress" />
          <span className="visually-hidden" role="status">
            {t('Preparing the export…')} {job.percent}%
          </span>
        </div>
      )}
      {job?.status === 'completed' && (
        <>
          <button type="button" className="btn btn-sm btn-success" onClick={() => void download()} disabled={fetching} data-testid="snag-export-download">
            <i className="bi bi-file-earmark-arrow-down me-1" aria-hidden="true" />
            {t('Download {format}', { format: t(FORMAT_LABELS[job.format]) })}
          </button>
          <button type="button" className="btn btn-sm btn-link p-0" onClick={() => setJob(null)} aria-label={t('Close')} data-testid="snag-export-close">
            <i className="bi bi-x-lg" aria-hidden="true" />
          </button>
        </>
      )}
      {job?.status === 'failed' && (
        <span className="small text-danger" role="alert">
          {t(job.message || EXPORT_FAILED)}
        </span>
      )}
    </div>
  );
}
