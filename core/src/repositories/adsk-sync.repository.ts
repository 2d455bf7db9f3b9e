import type { Knex } from 'knex';
import type { AdskSyncStatus } from '@sitewalk/proto';
import { PdfUpload } from '../db/index.js';
import type { Db } from '../db/query-types.js';

/**
 * Every query of Autodesk syncs: the run rows (`adsk_sync_runs`), the links
 * of Autodesk projects to SiteWalk projects (`adsk_project_links`) and the
 * imports of file versions and views (`adsk_imports`). The sync service and
 * job hold the rules.
 */

export interface SyncRunRow {
  id: number;
  id_user: number;
  kind: 'hub' | 'project';
  hub_id: string | null;
  adsk_project_id: string | null;
  id_project: number | null;
  status: AdskSyncStatus;
  percent: number;
  message: string;
  project_ids: number[];
  files_imported: number;
  files_skipped: number;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

type SyncTarget = { kind: 'hub'; hub_id: string } | { kind: 'project'; adsk_project_id: string };

/** Serialises the work of one key within a transaction (two quick clicks, two runs of the same project). */
export async function lockFor(trx: Knex.Transaction, key: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [key]);
}

/** The user's queued or running sync of this hub or Autodesk project. */
export async function activeSyncRun(k: Db, userId: number, target: SyncTarget): Promise<SyncRunRow | undefined> {
  const q = k('adsk_sync_runs').where({ id_user: userId, kind: target.kind }).whereIn('status', ['queued', 'running']);
  if (target.kind === 'hub') q.where({ hub_id: target.hub_id });
  else q.where({ adsk_project_id: target.adsk_project_id });
  return q.first();
}

export async function insertSyncRun(k: Db, row: Pick<SyncRunRow, 'id_user' | 'kind' | 'hub_id' | 'adsk_project_id' | 'id_project' | 'status' | 'message'>): Promise<SyncRunRow> {
  const [inserted] = await k('adsk_sync_runs').insert(row).returning('*');
  return inserted;
}

/** A run never queued goes (its start failed). */
export async function deleteQueuedSyncRun(k: Db, id: number): Promise<void> {
  await k('adsk_sync_runs').where({ id, status: 'queued' }).delete();
}

/** The user's queued or running runs that have not moved since `before`. */
export function quietOpenSyncRuns(k: Db, userId: number, before: Date): Promise<SyncRunRow[]> {
  return k('adsk_sync_runs').where({ id_user: userId }).whereIn('status', ['queued', 'running']).where('updated_at', '<', before);
}

/** Marks a still open run failed with `message` (a run that ended meanwhile is left as it is). */
export async function failOpenSyncRun(k: Db, id: number, message: string): Promise<void> {
  await k('adsk_sync_runs').where({ id }).whereIn('status', ['queued', 'running']).update({ status: 'failed', error: message, message, updated_at: k.fn.now() });
}

export function syncRunById(k: Db, id: number, userId?: number): Promise<SyncRunRow | undefined> {
  return k('adsk_sync_runs').where(userId === undefined ? { id } : { id, id_user: userId }).first();
}

export function recentSyncRunRows(k: Db, userId: number, limit: number): Promise<SyncRunRow[]> {
  return k('adsk_sync_runs').where({ id_user: userId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
}

/** Writes a run's progress or end; answers the run as stored. */
export async function patchSyncRun(k: Db, id: number, patch: Partial<Omit<SyncRunRow, 'id' | 'id_user' | 'created_at' | 'updated_at'>>): Promise<SyncRunRow | undefined> {
  const [row] = await k('adsk_sync_runs').where({ id }).update({ ...patch, updated_at: k.fn.now() }).returning('*');
  return row;
}

/** The Autodesk project other than `adskProjectId` this SiteWalk project is linked to, if any. */
export async function projectLinkedToAnother(k: Db, projectId: number, adskProjectId: string | null): Promise<boolean> {
  return !!(await k('adsk_project_links').where({ id_project: projectId }).whereNot({ adsk_project_id: adskProjectId }).first('id'));
}

/** The SiteWalk project this user brought this Autodesk project into (other than `except`), if any. */
export async function linkedProjectOf(k: Db, userId: number, adskProjectId: string | null, except?: number): Promise<number | undefined> {
  const q = k('adsk_project_links').where({ id_user: userId, adsk_project_id: adskProjectId });
  if (except !== undefined) q.whereNot({ id_project: except });
  return (await q.first('id_project'))?.id_project;
}

/** The SiteWalk projects of these Autodesk projects for this user. */
export function projectLinksOf(k: Db, userId: number, adskProjectIds: string[]): Promise<{ adsk_project_id: string; id_project: number }[]> {
  return k('adsk_project_links').where({ id_user: userId }).whereIn('adsk_project_id', adskProjectIds).select('adsk_project_id', 'id_project');
}

export async function setLinkHub(k: Db, projectId: number, hubId: string): Promise<void> {
  await k('adsk_project_links').where({ id_project: projectId }).update({ hub_id: hubId, updated_at: k.fn.now() });
}

export async function insertProjectLink(k: Db, row: { id_project: number; id_user: number; hub_id: string; adsk_project_id: string }): Promise<void> {
  await k('adsk_project_links').insert(row);
}

/** An import already recorded for this version (or view) in the project. */
export function importOf(k: Db, projectId: number, versionId: string, viewGuid: string): Promise<{ id: number; id_upload: number | null } | undefined> {
  return k('adsk_imports').where({ id_project: projectId, version_id: versionId, view_guid: viewGuid }).first('id', 'id_upload');
}

/** Records an import once: undefined when the same version (or view) is already imported in the project. */
export async function insertImportOnce(k: Db, row: { id_project: number; item_id: string; version_id: string; view_guid: string; name: string }): Promise<{ id: number } | undefined> {
  const [imp] = await k('adsk_imports').insert(row).onConflict(['id_project', 'version_id', 'view_guid']).ignore().returning('id');
  return imp;
}

export async function setImportUpload(k: Db, importId: number, uploadId: number): Promise<void> {
  await k('adsk_imports').where({ id: importId }).update({ id_upload: uploadId });
}

/** Which of these versions this user's linked projects have imported. */
export async function importedVersions(k: Db, userId: number, versionIds: string[]): Promise<Set<string>> {
  const rows: { version_id: string }[] = await k('adsk_imports')
    .join('adsk_project_links', 'adsk_project_links.id_project', 'adsk_imports.id_project')
    .where('adsk_project_links.id_user', userId)
    .whereIn('adsk_imports.version_id', versionIds)
    .select('adsk_imports.version_id');
  return new Set(rows.map((r) => r.version_id));
}

/** The status of an import's PDF upload. */
export async function uploadStatus(k: Db, uploadId: number): Promise<PdfUpload['status'] | undefined> {
  return (await PdfUpload.query(k).findById(uploadId).select('id', 'status'))?.status;
}
