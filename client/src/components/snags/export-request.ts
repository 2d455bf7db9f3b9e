import type { AnnotationExport, AnnotationExportFormat, AnnotationExportRequest, JobProgressEvent } from '@sitewalk/proto';
import { ANNOTATION_EXPORT_SUBJECT } from '@sitewalk/proto';

/** The snag list's filters as its screen keeps them (empty string or empty list: no filter). */
export interface SnagListFilters {
  id_project?: string | number;
  status?: readonly string[];
  priority?: string;
  assignee?: string;
  due?: string;
  search?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

/** POST /annotation-exports: the chosen format and the list's filters, empty ones left out. */
export function exportRequest(format: AnnotationExportFormat, f: SnagListFilters): AnnotationExportRequest {
  const body: Record<string, unknown> = { format };
  if (f.id_project) body.id_project = Number(f.id_project);
  if (f.status?.length) body.status = [...f.status];
  if (f.priority) body.priority = [f.priority];
  if (f.assignee) body.assignee = /^\d+$/.test(f.assignee) ? Number(f.assignee) : f.assignee;
  if (f.due) body.due = f.due;
  if (f.search?.trim()) body.search = f.search.trim();
  if (f.sort) body.sort = f.sort;
  if (f.order) body.order = f.order;
  return body as AnnotationExportRequest;
}

/** An export as the button follows it: the API's answer, moved on by live events. */
export type ExportState = Pick<AnnotationExport, 'id' | 'format' | 'status' | 'percent' | 'message' | 'download_url'>;

/**
 * Applies a 'job:progress' event to the export it is about (others change
 * nothing). Events carry the absolute state; a late 'active' never undoes a
 * finished export.
 */
export function applyExportEvent(s: ExportState, e: JobProgressEvent): ExportState {
  if (e.subject.kind !== ANNOTATION_EXPORT_SUBJECT || e.subject.id !== s.id) return s;
  if (s.status === 'completed' || s.status === 'failed') return s;
  const status = e.state === 'active' ? 'processing' : e.state;
  return { ...s, status, percent: Math.max(status === 'processing' ? s.percent : 0, e.percent), message: e.message };
}

export const isFinished = (s: Pick<ExportState, 'status'>) => s.status === 'completed' || s.status === 'failed';

/**
 * The state to keep when the server's answer about an export arrives: the
 * answer, unless the export had finished and the answer (a read that left
 * before the end) says it still runs. A finished answer always wins, for its
 * fresh download link.
 */
export const newerExportState = (before: ExportState | undefined, answer: ExportState): ExportState =>
  before && isFinished(before) && !isFinished(answer) ? before : answer;
