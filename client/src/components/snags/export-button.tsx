import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dropdown, ProgressBar } from 'react-bootstrap';
import { ANNOTATION_EXPORT_FORMATS, type AnnotationExport, type AnnotationExportFormat } from '@sitewalk/proto';
import { api, errorMessage } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { onServerEvent } from '../../realtime/socket';
import { applyExportEvent, exportRequest, isFinished, newerExportState, type ExportState, type SnagListFilters } from './export-request';
import { MENU_INSIDE_SCREEN } from '../../lib/menu-popper';

const FORMAT_LABELS: Record<AnnotationExportFormat, string> = {
  pdf: tk('PDF report'),
  csv: tk('CSV spreadsheet'),
  bcf: tk('BCF for BIM tools'),
};
const START_FAILED = tk('The export could not be started.');
const EXPORT_FAILED = tk('The export failed.');
/** Live events carry the progress; the status is also read now and then (even in a hidden tab), in case the live connection is away. */
const POLL_MS = 4000;

const fromApi = (e: AnnotationExport): ExportState => ({ id: e.id, format: e.format, status: e.status, percent: e.percent, message: e.message, download_url: e.download_url });

const exportKey = (id: number | null) => ['annotation-exports', id] as const;

/** One export as the server has it (GET /annotation-exports/{id}). */
const exportQuery = (id: number | null) =>
  queryOptions({
    queryKey: exportKey(id),
    enabled: id !== null,
    queryFn: ({ signal }) => api.get<AnnotationExport>(`/annotation-exports/${id}`, EXPORT_FAILED, { signal }).then(fromApi),
    // A finished export stays finished: a read that left before the end, answered after it, takes nothing back.
    structuralSharing: (before: unknown, next: unknown) => newerExportState(before as ExportState | undefined, next as ExportState),
  });

/**
 * The Export menu of the snag list: makes a PDF report, a CSV or a BCF file
 * of the snags under the list's filters in the background, shows its
 * progress, and offers the download when it is ready (the link is asked for
 * afresh on each click: it works for minutes only).
 */
export function SnagExportButton({ filters }: { filters: SnagListFilters }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [jobId, setJobId] = useState<number | null>(null);
  const jobQuery = useQuery({
    ...exportQuery(jobId),
    // The answer of the start is the first state: the status is read only after a while.
    staleTime: POLL_MS,
    refetchInterval: (q) => (q.state.data && !isFinished(q.state.data) ? POLL_MS : false),
    refetchIntervalInBackground: true,
  });
  const job = jobId === null ? null : (jobQuery.data ?? null);
  const [starting, setStarting] = useState(false);
  const [fetching, setFetching] = useState(false);
  const told = useRef<number | null>(null);
  useEffect(() => void (jobQuery.error && console.warn(jobQuery.error)), [jobQuery.error]);

  const start = async (format: AnnotationExportFormat) => {
    setStarting(true);
    try {
      const started = fromApi(await api.post<AnnotationExport>('/annotation-exports', exportRequest(format, filters), START_FAILED));
      queryClient.setQueryData(exportKey(started.id), started);
      setJobId(started.id);
    } catch (err) {
      showToast('error', t(errorMessage(err, START_FAILED)));
    } finally {
      setStarting(false);
    }
  };

  const running = !!job && !isFinished(job);
  useEffect(() => {
    if (jobId === null || !running) return;
    return onServerEvent('job:progress', (e) => queryClient.setQueryData<ExportState>(exportKey(jobId), (s) => s && applyExportEvent(s, e)));
  }, [queryClient, jobId, running]);

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
      const fresh = await queryClient.fetchQuery({ ...exportQuery(job.id), staleTime: 0 });
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
          <button type="button" className="btn btn-sm btn-link p-0" onClick={() => setJobId(null)} aria-label={t('Close')} data-testid="snag-export-close">
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
