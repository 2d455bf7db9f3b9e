import path from 'node:path';
import { notice } from '@sitewalk/proto';
import { type PdfUpload, db } from '../db/index.js';
import {
  clearPdfFileKeys,
  deletePdfUploadRow,
  failPdfUpload,
  insertPdfUpload,
  lockPdfUpload,
  lockStoredPdfUploads,
  pdfUploadOfProject,
  quietUnfinishedUploads,
  recentPdfUploads,
} from '../repositories/pdf-uploads.repository.js';
import { deleteSheetsOfUpload } from '../repositories/sheets.repository.js';
import { ownerOfProject } from '../repositories/projects.repository.js';
import { conflict, HttpError, notFound } from '../errors.js';
import { detectType, type UploadedFile } from '../uploaded-file.js';
import { enqueue, queue } from '../queue/index.js';
import { newKey, putFile, remove } from '../storage/index.js';
import { logger } from '../logger.js';
import { notify } from './notifications.service.js';
import { requireProject } from './access.service.js';
import { mapFolder, projectFolder } from './sheets.service.js';
import { checkProjectAddition } from './plan-limits.service.js';
import type { Actor } from './actor.js';

/** The BullMQ job id of an upload: enqueueing it twice keeps one job (ids may not be bare integers). */
export const pdfJobId = (uploadId: number) => `pdf-upload-${uploadId}`;

/** A file name fit for showing back to the user (never used as a storage name). */
const displayName = (name: string | null) =>
  (path.basename(name ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'plan.pdf').slice(0, 255);

/**
 * Accepts a PDF plan set: checks it is a PDF by its bytes, stores it under a
 * server-chosen name, records the upload and queues the sheet.from-pdf job.
 * The sheets appear as the worker renders each page.
 */
export async function acceptPdfUpload(user: Actor, projectId: number, file: UploadedFile): Promise<PdfUpload> {
  await requireProject(user, projectId, 'upload');
  await detectType(file, ['application/pdf'], 'a PDF');
  await checkProjectAddition(db(), user, projectId, { storage_bytes: file.size });
  const key = newKey(`${projectFolder(projectId)}/pdf`, 'pdf');
  await putFile(key, file.filepath);
  let upload: PdfUpload;
  try {
    upload = await db().transaction(async (trx) => {
      await checkProjectAddition(trx, user, projectId, { storage_bytes: file.size });
      return insertPdfUpload(trx, {
        id_project: projectId,
        id_user: user.id,
        file_key: key,
        original_name: displayName(file.originalFilename),
        size_bytes: file.size,
        status: 'queued',
      });
    });
  } catch (err) {
    await remove(key);
    throw err;
  }
  try {
    await enqueue('sheet.from-pdf', { upload_id: upload.id }, { jobId: pdfJobId(upload.id) });
  } catch (err) {
    logger.error({ err, upload_id: upload.id }, 'could not queue the PDF job');
    await deletePdfUploadRow(db(), upload.id);
    await remove(key);
    throw new HttpError(503, 'The PDF could not be queued for processing. Please try again in a moment.');
  }
  return upload;
}

/** How long an upload may go without news before its job is looked up (covers the gap between the row and the enqueue). */
const QUIET_MS = 60_000;
export const LOST_UPLOAD_MESSAGE = 'Turning this PDF into sheets stopped unexpectedly. Please upload it again.';

/**
 * An upload still marked queued or processing whose job is gone or failed
 * (its worker was killed more often than BullMQ retries a stalled job, or
 * Redis lost the queue) would show a progress bar forever. It is marked
 * failed here, and the sheets it half made are removed, as the worker does
 * when it fails for good.
 */
async function settleLostUploads(projectId: number): Promise<void> {
  const stale = await quietUnfinishedUploads(db(), projectId, new Date(Date.now() - QUIET_MS));
  for (const upload of stale) {
    const job = await queue('sheets').getJob(pdfJobId(upload.id));
    const state = job ? await job.getState() : 'missing';
    if (state !== 'failed' && state !== 'missing' && state !== 'unknown') continue;
    const folders = await db().transaction(async (trx) => {
      const current = await lockPdfUpload(trx, upload.id);
      if (!current || (current.status !== 'queued' && current.status !== 'processing')) return [];
      const maps = await deleteSheetsOfUpload(trx, upload.id);
      await failPdfUpload(trx, upload.id, LOST_UPLOAD_MESSAGE);
      return maps.map((m) => m.folder ?? mapFolder(projectId, m.id));
    });
    for (const f of folders) await remove(f);
    logger.warn({ upload_id: upload.id, job_state: state }, 'PDF upload settled as failed: its job ended without the worker recording it');
    await notifyLostUpload(upload);
  }
}

/**
 * Tells the owner and the uploader, as the worker does when it fails for good;
 * the same notification key means whoever comes second adds nothing.
 */
async function notifyLostUpload(upload: PdfUpload): Promise<void> {
  const owner = await ownerOfProject(db(), upload.id_project);
  if (!owner) return;
  const recipients = new Set<number>([owner, ...(upload.id_user ? [upload.id_user] : [])]);
  for (const userId of recipients) {
    await notify(
      userId,
      { kind: 'sheets_ready', ...notice('sheetsFailed', { file: upload.original_name, reason: LOST_UPLOAD_MESSAGE }), type: 'error', link: `/project/${upload.id_project}` },
      { key: `sheets-failed-${upload.id}-u${userId}` },
    );
  }
}

/** The project's most recent uploads, newest first, with lost ones settled. */
export async function recentUploads(projectId: number, limit = 10): Promise<PdfUpload[]> {
  // Best effort: with Redis away the page still shows, the uploads as last recorded.
  await settleLostUploads(projectId).catch((err) => logger.warn({ err, project_id: projectId }, 'could not check PDF jobs'));
  return recentPdfUploads(db(), projectId, limit);
}

/**
 * Removes stored PDF files of the project (one upload, or all), keeping the
 * sheets made from them. A PDF still being turned into sheets is kept (409).
 */
export async function deleteStoredPdfs(user: Actor, projectId: number, uploadId?: number): Promise<{ removed: number }> {
  const keys = await db().transaction(async (trx) => {
    await requireProject(user, projectId, 'edit-sheets', trx);
    const rows = await lockStoredPdfUploads(trx, projectId, uploadId);
    if (uploadId && !rows.length) {
      const exists = await pdfUploadOfProject(trx, uploadId, projectId);
      if (!exists) throw notFound('This upload does not exist in this project.');
    }
    if (rows.some((r) => r.status === 'queued' || r.status === 'processing')) {
      throw conflict('This PDF is still being turned into sheets. Delete it once it is done.');
    }
    if (rows.length) await clearPdfFileKeys(trx, rows.map((r) => r.id));
    return rows.map((r) => r.file_key);
  });
  for (const k of keys) await remove(k);
  return { removed: keys.length };
}
