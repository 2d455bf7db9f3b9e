import { z } from 'zod';
import { annotationListQuerySchema } from './annotations.js';

/**
 * Exports of the snag list (issue 9): a PDF report, CSV or BCF 2.1, made in
 * the background by the 'annotations.export' job and then downloaded through
 * a short-lived link that only the person who asked gets.
 *
 *   POST /annotation-exports               → 202 AnnotationExport   body AnnotationExportRequest: the format and the
 *                                                                    filters of GET /annotations (no page: every match,
 *                                                                    up to ANNOTATION_EXPORT.maxSnags)
 *   GET  /annotation-exports/{id}          → AnnotationExport       the requester's own export (anyone else: 404); once
 *                                                                    completed it carries `download_url`, signed for
 *                                                                    ANNOTATION_EXPORT.linkSeconds
 *   GET  /annotation-exports/{id}/download?exp&sig → the file (Content-Disposition: attachment). The link itself
 *                                                                    authorises; a signed-in caller other than the
 *                                                                    requester, a wrong or expired link → 404.
 *
 * Progress arrives over Socket.IO as 'job:progress' to the requester's room
 * only, with job 'annotations.export', subject {kind: 'annotation-export',
 * id}, state, percent and message ('Drawing 3 of 12', 'Ready', or the reason
 * of a failure); on 'completed' read GET /annotation-exports/{id} for the link.
 * Finished exports are kept ANNOTATION_EXPORT.keepHours, then removed.
 */

export const ANNOTATION_EXPORT_FORMATS = ['pdf', 'csv', 'bcf'] as const;
export type AnnotationExportFormat = (typeof ANNOTATION_EXPORT_FORMATS)[number];

export const ANNOTATION_EXPORT_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type AnnotationExportStatus = (typeof ANNOTATION_EXPORT_STATUSES)[number];

export const ANNOTATION_EXPORT = {
  /** The most snags one export holds (a PDF page each). */
  maxSnags: 1000,
  /** How long a download link works. */
  linkSeconds: 10 * 60,
  /** How long a finished export's file is kept. */
  keepHours: 24,
  /** Exports one user may have queued or running at once. */
  maxRunning: 3,
} as const;

/** What each format's file is. */
export const ANNOTATION_EXPORT_FILES: Record<AnnotationExportFormat, { ext: string; mime: string }> = {
  pdf: { ext: 'pdf', mime: 'application/pdf' },
  csv: { ext: 'csv', mime: 'text/csv; charset=utf-8' },
  bcf: { ext: 'bcfzip', mime: 'application/zip' },
};

/** The filters of GET /annotations, without paging or sorting of pages. */
export const annotationExportFiltersSchema = annotationListQuerySchema.omit({ page: true, per_page: true });
export type AnnotationExportFilters = z.output<typeof annotationExportFiltersSchema>;

export const annotationExportRequestSchema = annotationExportFiltersSchema
  .extend({
    format: z.enum(ANNOTATION_EXPORT_FORMATS, { message: `format must be one of ${ANNOTATION_EXPORT_FORMATS.join(', ')}.` }),
  })
  .strict();
export type AnnotationExportRequest = z.input<typeof annotationExportRequestSchema>;

export const annotationExportDownloadQuerySchema = z
  .object({
    exp: z.string().regex(/^\d{9,12}$/, 'The download link is not valid.'),
    sig: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'The download link is not valid.'),
  })
  .strict();

export interface AnnotationExport {
  id: number;
  format: AnnotationExportFormat;
  status: AnnotationExportStatus;
  /** 0..100 */
  percent: number;
  /** Where it stands in words, or why it failed. */
  message: string;
  /** How many snags it holds (known once it starts). */
  total: number | null;
  /** The name the file downloads as. */
  file_name: string | null;
  size_bytes: number | null;
  /** Only when completed: a link for the requester, valid ANNOTATION_EXPORT.linkSeconds. */
  download_url: string | null;
  /** ISO time after which the file is gone. */
  expires_at: string | null;
  created_at: string;
  finished_at: string | null;
}

/** The subject kind of the export's 'job:progress' events. */
export const ANNOTATION_EXPORT_SUBJECT = 'annotation-export' as const;
