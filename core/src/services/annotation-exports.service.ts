import crypto from 'node:crypto';
import {
  ANNOTATION_EXPORT,
  ANNOTATION_EXPORT_FILES,
  ANNOTATION_EXPORT_SUBJECT,
  userRoom,
  type AnnotationExport,
  type AnnotationExportFilters,
  type AnnotationExportFormat,
  type AnnotationExportStatus,
  type JobProgressEvent,
} from '@sitewalk/proto';
import { db } from '../db/index.js';
import { HttpError, notFound, tooManyRequests } from '../errors.js';
import { enqueue, queue } from '../queue/index.js';
import { emitTo } from '../realtime/emitter.js';
import { hmac, safeEqual } from '../secrets.js';
import { remove } from '../storage/index.js';
import { logger } from '../logger.js';
import type { Actor } from './actor.js';
import {
  countRunningExports,
  deleteExportRow,
  exportRow,
  exportsFinishedBefore,
  failUnfinishedExport,
  insertExport,
  type AnnotationExportRow,
} from '../repositories/annotation-exports.repository.js';

export type { AnnotationExportRow };


/** The BullMQ job id of an export: queueing it twice keeps one job. */
export const exportJobId = (id: number) => `annotation-export-${id}`;

/** Where a finished export's file lives. */
export const exportFolder = (userId: number) => `exports/${userId}`;

/** The job:progress event of an export, to its requester only. */
export function reportExport(row: Pick<AnnotationExportRow, 'id' | 'id_user' | 'format'>, state: JobProgressEvent['state'], percent: number, message: string): void {
  const event: JobProgressEvent = {
    job: 'annotations.export',
    subject: { kind: ANNOTATION_EXPORT_SUBJECT, id: row.id },
    state,
    percent: Math.max(0, Math.min(100, Math.round(percent))),
    message,
    detail: { format: row.format },
  };
  emitTo(userRoom(row.id_user), 'job:progress', event);
}

/**
 * A download link for the requester: it names the export, its owner and an
 * expiry, signed with the server's secret, so it works for
 * ANNOTATION_EXPORT.linkSeconds in a plain browser download (no bearer
 * header) and for nothing else.
 */
export function downloadLink(row: Pick<AnnotationExportRow, 'id' | 'id_user'>, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + ANNOTATION_EXPORT.linkSeconds;
  return `/api/annotation-exports/${row.id}/download?exp=${exp}&sig=${hmac(`annotation-export|${row.id}|${row.id_user}|${exp}`)}`;
}

const expiresAt = (finished: Date | null) => (finished ? new Date(finished.getTime() + ANNOTATION_EXPORT.keepHours * 3600_000) : null);

export function exportDto(row: AnnotationExportRow): AnnotationExport {
  const done = row.status === 'completed' && !!row.file_key;
  return {
    id: row.id,
    format: row.format,
    status: row.status,
    percent: row.percent,
    message: row.message,
    total: row.total,
    file_name: row.file_name,
    size_bytes: row.size_bytes == null ? null : Number(row.size_bytes),
    download_url: done ? downloadLink(row) : null,
    expires_at: expiresAt(row.finished_at)?.toISOString() ?? null,
    created_at: new Date(row.created_at).toISOString(),
    finished_at: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
}

/**
 * Starts an export for the user: records it with its filters and queues the
 * job. At most ANNOTATION_EXPORT.maxRunning per user at once; the user's old
 * exports are cleared on the way.
 */
export async function startExport(user: Actor, format: AnnotationExportFormat, filters: AnnotationExportFilters): Promise<AnnotationExport> {
  await sweepExports({ userId: user.id }).catch((err) => logger.warn({ err, user_id: user.id }, 'could not clear old exports'));
  if ((await countRunningExports(db(), user.id)) >= ANNOTATION_EXPORT.maxRunning) {
    throw tooManyRequests(`You already have ${ANNOTATION_EXPORT.maxRunning} exports being made. Wait for one to finish, then try again.`, 30);
  }
  const row = await insertExport(db(), user.id, format, filters);
  try {
    await enqueue('annotations.export', { id_export: row.id }, { jobId: exportJobId(row.id) });
  } catch (err) {
    logger.error({ err, export_id: row.id }, 'could not queue the export');
    await deleteExportRow(db(), row.id);
    throw new HttpError(503, 'The export could not be started. Please try again in a moment.');
  }
  reportExport(row, 'queued', 0, 'Waiting to start');
  return exportDto(row);
}

export const LOST_EXPORT_MESSAGE = 'Making this export stopped unexpectedly. Please start it again.';
/** How long an export may go without news before its job is looked up. */
const QUIET_MS = 60_000;

/**
 * An export still queued or running whose job is gone or failed for good
 * (its worker was killed more often than BullMQ retries) would show a
 * progress bar for ever: it is marked failed when read.
 */
async function settleIfLost(row: AnnotationExportRow): Promise<AnnotationExportRow> {
  if ((row.status !== 'queued' && row.status !== 'processing') || new Date(row.updated_at).getTime() > Date.now() - QUIET_MS) return row;
  const job = await queue('exports').getJob(exportJobId(row.id));
  const state = job ? await job.getState() : 'missing';
  if (state !== 'failed' && state !== 'missing' && state !== 'unknown') return row;
  const settled = await failUnfinishedExport(db(), row.id, LOST_EXPORT_MESSAGE);
  return settled ?? row;
}

/** The user's own export; anyone else's is a 404. */
export async function getExport(user: Actor, id: number): Promise<AnnotationExport> {
  const row = await exportRow(db(), id, user.id);
  if (!row) throw notFound('This export does not exist.');
  // Best effort: with Redis away the export shows as last recorded.
  return exportDto(await settleIfLost(row).catch(() => row));
}

/**
 * The export a download link opens, once its signature, expiry and owner
 * check out and its file is there; null otherwise (the route answers 404,
 * never saying which part was wrong). `callerId`, when the request is signed
 * in, must be the requester too.
 */
export async function exportForDownload(id: number, exp: string, sig: string, callerId?: number): Promise<AnnotationExportRow | null> {
  if (Number(exp) * 1000 < Date.now()) return null;
  const row = await exportRow(db(), id);
  if (!row || row.status !== 'completed' || !row.file_key) return null;
  if (callerId !== undefined && callerId !== row.id_user) return null;
  if (!safeEqual(hmac(`annotation-export|${row.id}|${row.id_user}|${exp}`), sig)) return null;
  const expires = expiresAt(row.finished_at);
  if (expires && expires.getTime() < Date.now()) return null;
  return row;
}

/** The file name an export downloads as: snags-2026-11-26.pdf. */
export function exportFileName(format: AnnotationExportFormat, at: Date): string {
  return `snags-${at.toISOString().slice(0, 10)}-${crypto.randomBytes(2).toString('hex')}.${ANNOTATION_EXPORT_FILES[format].ext}`;
}

/**
 * Removes exports finished more than ANNOTATION_EXPORT.keepHours ago (their
 * files first), and failed ones as old; one user's, or everybody's for the
 * hourly sweep. Returns how many went.
 */
export async function sweepExports(opts: { userId?: number; now?: Date } = {}): Promise<number> {
  const cutoff = new Date((opts.now ?? new Date()).getTime() - ANNOTATION_EXPORT.keepHours * 3600_000);
  const old = await exportsFinishedBefore(db(), cutoff, opts.userId);
  for (const r of old) {
    await remove(r.file_key);
    await deleteExportRow(db(), r.id);
  }
  return old.length;
}
