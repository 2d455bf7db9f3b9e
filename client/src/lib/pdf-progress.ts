import type { JobProgressEvent, PdfProgressDetail, PdfUpload, PdfUploadStatus } from '@sitewalk/proto';

/**
 * Where each PDF plan upload of a project stands, merged from the project's
 * answer (GET /projects/{id} → pdf_uploads, after a reload) and the live
 * 'job:progress' events of the sheet.from-pdf job. Events carry the absolute
 * state, so one that arrives twice (user room and project room) changes
 * nothing, and a late event never takes a finished upload back. Pure.
 */

export const PDF_JOB = 'sheet.from-pdf';

export interface UploadProgress {
  id: number;
  name: string;
  status: PdfUploadStatus;
  pagesDone: number;
  pagesTotal: number | null;
  /** 0..100 */
  percent: number;
  /** 'Page 2 of 5', or the reason of a failure. */
  message: string;
  error: string | null;
  sheetIds: number[];
}

export type UploadsById = Readonly<Record<number, UploadProgress>>;

const TERMINAL: ReadonlySet<PdfUploadStatus> = new Set(['done', 'failed']);

const STATUS_OF_STATE: Record<JobProgressEvent['state'], PdfUploadStatus> = {
  queued: 'queued',
  active: 'processing',
  completed: 'done',
  failed: 'failed',
};

const percentOf = (done: number, total: number | null, status: PdfUploadStatus) =>
  status === 'done' ? 100 : total ? Math.round((done / total) * 100) : 0;

export function fromUpload(u: PdfUpload): UploadProgress {
  return {
    id: u.id,
    name: u.original_name,
    status: u.status,
    pagesDone: u.pages_done,
    pagesTotal: u.pages_total,
    percent: percentOf(u.pages_done, u.pages_total, u.status),
    message: u.status === 'failed' ? (u.error ?? '') : '',
    error: u.status === 'failed' ? (u.error ?? '') : null,
    sheetIds: u.sheet_ids,
  };
}

/** The uploads of a project answer, by id. */
export const uploadsFrom = (list: readonly PdfUpload[]): UploadsById => Object.fromEntries(list.map((u) => [u.id, fromUpload(u)]));

/** Whether an event is a PDF-sheet progress report for this project. */
export const isPdfEventFor = (e: JobProgressEvent, projectId: number) =>
  e.job === PDF_JOB && e.subject?.kind === 'pdf-upload' && e.project_id === projectId;

const detailOf = (e: JobProgressEvent): Partial<PdfProgressDetail> => (e.detail ?? {}) as Partial<PdfProgressDetail>;

/** The uploads after one event (the same object when the event changes nothing). */
export function applyProgressEvent(uploads: UploadsById, e: JobProgressEvent, fallbackName = ''): UploadsById {
  const id = e.subject.id;
  const before = uploads[id];
  const status = STATUS_OF_STATE[e.state];
  if (before && TERMINAL.has(before.status) && !TERMINAL.has(status)) return uploads;
  const d = detailOf(e);
  const sheetIds = Array.isArray(d.sheet_ids) ? d.sheet_ids : (before?.sheetIds ?? []);
  const next: UploadProgress = {
    id,
    name: before?.name ?? fallbackName,
    status,
    pagesDone: typeof d.pages_done === 'number' ? d.pages_done : (before?.pagesDone ?? 0),
    pagesTotal: d.pages_total !== undefined ? d.pages_total : (before?.pagesTotal ?? null),
    percent: Math.max(0, Math.min(100, Math.round(e.percent))),
    message: e.message,
    error: status === 'failed' ? e.message : null,
    sheetIds,
  };
  if (before && sameProgress(before, next)) return uploads;
  return { ...uploads, [id]: next };
}

const sameProgress = (a: UploadProgress, b: UploadProgress) =>
  a.status === b.status &&
  a.pagesDone === b.pagesDone &&
  a.pagesTotal === b.pagesTotal &&
  a.percent === b.percent &&
  a.message === b.message &&
  a.sheetIds.length === b.sheetIds.length &&
  a.sheetIds.every((x, i) => x === b.sheetIds[i]);

/** Sheets an event reports as made that the page does not show yet. */
export function sheetsToFetch(e: JobProgressEvent, shown: ReadonlySet<number>): number[] {
  const d = detailOf(e);
  const ids = new Set<number>([...(Array.isArray(d.sheet_ids) ? d.sheet_ids : []), ...(typeof d.id_map === 'number' ? [d.id_map] : [])]);
  return [...ids].filter((id) => !shown.has(id)).sort((a, b) => a - b);
}

/**
 * The uploads a project page shows, newest first: all but the hidden ones.
 * `initiallyHidden` gives what to hide after a load: finished uploads, except
 * a failure of the newest one (its reason is still news to the user).
 */
export function visibleUploads(uploads: UploadsById, hidden: ReadonlySet<number>): UploadProgress[] {
  return Object.values(uploads)
    .filter((u) => !hidden.has(u.id))
    .sort((a, b) => b.id - a.id);
}

export function initiallyHidden(uploads: UploadsById): Set<number> {
  const newest = Math.max(0, ...Object.keys(uploads).map(Number));
  return new Set(
    Object.values(uploads)
      .filter((u) => TERMINAL.has(u.status) && !(u.status === 'failed' && u.id === newest))
      .map((u) => u.id),
  );
}

export const isFinished = (u: UploadProgress) => TERMINAL.has(u.status);
