import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import type { Knex } from 'knex';
import { JOB_POLICIES, UPLOAD_LIMITS, type AdskSyncRun } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { HttpError, conflict, notFound } from '../errors.js';
import { logger } from '../logger.js';
import { enqueue, queue } from '../queue/index.js';
import { newKey, putFile, remove, withScratch } from '../storage/index.js';
import { detectType } from '../uploaded-file.js';
import { requireProject } from '../services/access.service.js';
import { newProjectCode } from '../services/project-code.service.js';
import { pdfJobId } from '../services/pdf-uploads.service.js';
import { projectFolder } from '../services/sheets.service.js';
import { NOT_LINKED_MESSAGE, requireIntegration } from './link.service.js';
import { checkProjectAddition, checkProjectAllowed } from '../services/plan-limits.service.js';
import type { Actor } from '../services/actor.js';
import { adskLinkOf } from '../repositories/adsk-links.repository.js';
import { insertPdfUpload } from '../repositories/pdf-uploads.repository.js';
import { insertProject, touchProject } from '../repositories/projects.repository.js';
import {
  activeSyncRun,
  deleteQueuedSyncRun,
  failOpenSyncRun,
  importOf,
  insertImportOnce,
  insertProjectLink,
  insertSyncRun,
  linkedProjectOf,
  lockFor,
  projectLinkedToAnother,
  quietOpenSyncRuns,
  recentSyncRunRows,
  setImportUpload,
  setLinkHub,
  syncRunById,
  uploadStatus,
  type SyncRunRow,
} from '../repositories/adsk-sync.repository.js';

export type { SyncRunRow };

/**
 * Syncs of Autodesk hubs and projects into SiteWalk: the run rows the UI
 * reads, the project links (one SiteWalk project per Autodesk project and
 * user) and the imports (one per file version or 2D view), each import's PDF
 * handed to the `sheet.from-pdf` worker exactly as an uploaded PDF is.
 */

export const syncJobId = (runId: number) => `adsk-sync-${runId}`;

export function toSyncRunDto(r: SyncRunRow): AdskSyncRun {
  return {
    id: r.id,
    kind: r.kind,
    hub_id: r.hub_id,
    adsk_project_id: r.adsk_project_id,
    status: r.status,
    percent: Math.round(r.percent),
    message: r.message,
    project_ids: r.project_ids ?? [],
    files_imported: r.files_imported,
    files_skipped: r.files_skipped,
    error: r.error,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/**
 * POST /autodesk/sync-hub and /sync-project: records the run and queues it.
 * Asking again while the same sync is queued or running answers that run.
 */
export async function startSync(
  user: Actor,
  input: { kind: 'hub'; hub_id: string } | { kind: 'project'; adsk_project_id: string; hub_id?: string; project_id?: number | null },
): Promise<AdskSyncRun> {
  await requireIntegration();
  if (!(await adskLinkOf(db(), user.id))) throw new HttpError(409, NOT_LINKED_MESSAGE);
  const target = input.kind === 'hub' ? { hub_id: input.hub_id, adsk_project_id: null } : { hub_id: input.hub_id ?? null, adsk_project_id: input.adsk_project_id };
  const projectId = input.kind === 'project' ? (input.project_id ?? null) : null;
  if (projectId) {
    await requireProject(user, projectId, 'edit-sheets');
    if (await projectLinkedToAnother(db(), projectId, target.adsk_project_id)) throw conflict('This project is already linked to another Autodesk project.');
    const elsewhere = await linkedProjectOf(db(), user.id, target.adsk_project_id, projectId);
    if (elsewhere) throw conflict(`This Autodesk project is already brought into another project here (#${elsewhere}). Sync that one instead.`);
  }
  await settleLostRuns(user.id);
  const run: SyncRunRow = await db().transaction(async (trx) => {
    // One user's starts go one at a time, so two quick clicks find the same run.
    await lockFor(trx, `adsk-sync-start:${user.id}`);
    const active = await activeSyncRun(trx, user.id, input.kind === 'hub' ? { kind: 'hub', hub_id: input.hub_id } : { kind: 'project', adsk_project_id: input.adsk_project_id });
    if (active) return active;
    return insertSyncRun(trx, { id_user: user.id, kind: input.kind, ...target, id_project: projectId, status: 'queued', message: 'Waiting to start' });
  });
  try {
    await enqueue('adsk.sync', { run_id: run.id }, { jobId: syncJobId(run.id) });
  } catch (err) {
    logger.error({ err, run_id: run.id }, 'could not queue the Autodesk sync');
    await deleteQueuedSyncRun(db(), run.id);
    throw new HttpError(503, 'The sync could not be queued. Please try again in a moment.');
  }
  return toSyncRunDto(run);
}

export const LOST_RUN_MESSAGE = 'The sync stopped unexpectedly. Start it again: what was already brought in is kept.';

/**
 * A run still marked queued or running whose job is gone or failed (its
 * worker was killed more often than BullMQ takes a stalled job back, or
 * Redis lost the queue) is marked failed, so it neither shows a progress bar
 * for ever nor stands in for the next sync of the same hub or project.
 */
async function settleLostRuns(userId: number): Promise<void> {
  // Quiet for a minute: a run just recorded may not be queued yet, a running one reports every file.
  const open = await quietOpenSyncRuns(db(), userId, new Date(Date.now() - 60_000));
  for (const run of open) {
    const job = await queue(JOB_POLICIES['adsk.sync'].queue).getJob(syncJobId(run.id));
    const state = job ? await job.getState() : 'missing';
    if (state !== 'failed' && state !== 'missing' && state !== 'unknown') continue;
    await failOpenSyncRun(db(), run.id, LOST_RUN_MESSAGE);
    logger.warn({ run_id: run.id, job_state: state }, 'Autodesk sync settled as failed: its job ended without the worker recording it');
  }
}

/** GET /autodesk/sync-runs/{id}: a run of the user's (another user's is 404). */
export async function getSyncRun(user: Actor, runId: number): Promise<AdskSyncRun> {
  const row = await syncRunById(db(), runId, user.id);
  if (!row) throw notFound('This sync does not exist.');
  return toSyncRunDto(row);
}

/** GET /autodesk/sync-runs: the user's latest runs. */
export async function recentSyncRuns(user: Actor, limit = 10): Promise<AdskSyncRun[]> {
  // Best effort: with Redis away the list still shows, the runs as last recorded.
  await settleLostRuns(user.id).catch((err) => logger.warn({ err, user_id: user.id }, 'could not check the sync jobs'));
  const rows = await recentSyncRunRows(db(), user.id, limit);
  return rows.map(toSyncRunDto);
}

/**
 * The SiteWalk project of an Autodesk project for this user: the linked one,
 * the one the run names, or a new one named after it. Serialised per
 * (user, Autodesk project), so two runs never make two projects.
 */
export async function ensureLinkedProject(
  user: Actor,
  link: { hub_id: string; adsk_project_id: string; name: string; into?: number | null },
): Promise<number> {
  return db().transaction(async (trx) => {
    await lockFor(trx, `adsk-project:${user.id}:${link.adsk_project_id}`);
    const existing = await linkedProjectOf(trx, user.id, link.adsk_project_id);
    if (existing) {
      await setLinkHub(trx, existing, link.hub_id);
      return existing;
    }
    let projectId = link.into ?? null;
    if (projectId) await requireProject(user, projectId, 'edit-sheets', trx);
    else projectId = await createProjectFor(trx, user, link.name);
    await insertProjectLink(trx, { id_project: projectId, id_user: user.id, hub_id: link.hub_id, adsk_project_id: link.adsk_project_id });
    return projectId;
  });
}

/** A new SiteWalk project owned by the user, as POST /projects makes one (awaiting approval unless a super admin). */
async function createProjectFor(trx: Knex.Transaction, user: Actor, name: string): Promise<number> {
  await checkProjectAllowed(trx, user);
  const project = await insertProject(trx, {
    name: name.slice(0, 200) || 'Autodesk project',
    description: 'Brought in from Autodesk.',
    id_owner: user.id,
    project_code: await newProjectCode(trx),
    active: true,
    validated: user.super_admin,
    validated_at: user.super_admin ? new Date() : null,
    validated_by: user.super_admin ? user.id : null,
  });
  return project.id;
}

/** An import already recorded for this version (or view) in the project. */
export async function findImport(projectId: number, versionId: string, viewGuid = ''): Promise<{ id: number; id_upload: number | null } | undefined> {
  return importOf(db(), projectId, versionId, viewGuid);
}

/** Cuts a download off once it passes the PDF size limit. */
function sizeLimit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > max) cb(new HttpError(413, `The file is larger than ${Math.round(max / 1024 / 1024)} MB.`));
      else cb(null, chunk);
    },
  });
}

/**
 * Streams a downloaded PDF into storage and hands it to the sheet worker:
 * the pdf_uploads row and the import row are written together (a second
 * writer of the same import finds it and removes its copy), then the
 * sheet.from-pdf job is queued under the upload's job id (queueing again
 * keeps one job). Returns 'imported', or 'skipped' when it was there already.
 */
export async function importPdf(
  actor: Actor,
  projectId: number,
  entry: { item_id: string; version_id: string; view_guid?: string; name: string },
  download: () => Promise<Readable>,
): Promise<'imported' | 'skipped'> {
  const viewGuid = entry.view_guid ?? '';
  const already = await findImport(projectId, entry.version_id, viewGuid);
  if (already) {
    await requeueIfWaiting(already.id_upload);
    return 'skipped';
  }
  const key = newKey(`${projectFolder(projectId)}/pdf`, 'pdf');
  let size: number;
  try {
    // Checked on this machine's disk (a scratch folder, always removed) before it is stored.
    size = await withScratch(async (dir) => {
      const file = path.join(dir, 'download.pdf');
      await pipeline(await download(), sizeLimit(UPLOAD_LIMITS.pdfBytes), fs.createWriteStream(file));
      await detectType({ filepath: file, size: 0, originalFilename: entry.name, mimetype: null }, ['application/pdf'], 'a PDF');
      const { size } = await fsp.stat(file);
      await putFile(key, file);
      return size;
    });
  } catch (err) {
    await remove(key);
    throw err;
  }
  const uploadId = await db().transaction(async (trx) => {
    await checkProjectAddition(trx, actor, projectId, { storage_bytes: size });
    const imp = await insertImportOnce(trx, { id_project: projectId, item_id: entry.item_id, version_id: entry.version_id, view_guid: viewGuid, name: entry.name.slice(0, 255) });
    if (!imp) return null;
    const upload = await insertPdfUpload(trx, {
      id_project: projectId,
      id_user: actor.id,
      file_key: key,
      original_name: displayName(entry.name),
      size_bytes: size,
      status: 'queued',
    });
    await setImportUpload(trx, imp.id, upload.id);
    await touchProject(trx, projectId);
    return upload.id;
  }).catch(async (err) => {
    // Refused (the plan is full) or failed: the downloaded copy goes.
    await remove(key);
    throw err;
  });
  if (uploadId === null) {
    await remove(key);
    return 'skipped';
  }
  await enqueue('sheet.from-pdf', { upload_id: uploadId }, { jobId: pdfJobId(uploadId) });
  return 'imported';
}

const displayName = (name: string) => {
  const clean = name.replace(/[\u0000-\u001f\u007f/\\]/g, '').trim() || 'sheet';
  return (/\.pdf$/i.test(clean) ? clean : `${clean}.pdf`).slice(0, 255);
};

/** An import whose sheet job may have been lost between the commit and the enqueue (a killed worker): queue it again (same job id, so at most one). */
async function requeueIfWaiting(uploadId: number | null): Promise<void> {
  if (!uploadId) return;
  if ((await uploadStatus(db(), uploadId)) === 'queued') await enqueue('sheet.from-pdf', { upload_id: uploadId }, { jobId: pdfJobId(uploadId) });
}
