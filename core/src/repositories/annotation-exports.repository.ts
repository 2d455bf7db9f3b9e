import type { AnnotationExportFilters, AnnotationExportFormat, AnnotationExportStatus } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';

/** Every query of snag-list exports (`annotation_exports`). The service holds the rules; the export job writes its progress. */

/** A row of annotation_exports: the state of one export, the one thing the screen and the link read. */
export interface AnnotationExportRow {
  id: number;
  id_user: number;
  format: AnnotationExportFormat;
  filters: AnnotationExportFilters;
  status: AnnotationExportStatus;
  percent: number;
  message: string;
  total: number | null;
  file_key: string | null;
  file_name: string | null;
  size_bytes: string | number | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const table = (k: Db) => k<AnnotationExportRow>('annotation_exports');

/** How many of the user's exports are queued or running. */
export async function countRunningExports(k: Db, userId: number): Promise<number> {
  const running = await table(k).where({ id_user: userId }).whereIn('status', ['queued', 'processing']).count<{ n: string }[]>({ n: '*' }).first();
  return Number(running?.n ?? 0);
}

/** Records a queued export with its filters. */
export async function insertExport(k: Db, userId: number, format: AnnotationExportFormat, filters: AnnotationExportFilters): Promise<AnnotationExportRow> {
  const [row] = await table(k)
    .insert({ id_user: userId, format, filters: JSON.stringify(filters) as unknown as AnnotationExportFilters, status: 'queued', percent: 0, message: 'Waiting to start' })
    .returning('*');
  return row as AnnotationExportRow;
}

export async function deleteExportRow(k: Db, id: number): Promise<void> {
  await table(k).where({ id }).delete();
}

/** Marks an export failed with this message unless it finished meanwhile; the row as it is then, or undefined when it had finished. */
export async function failUnfinishedExport(k: Db, id: number, message: string): Promise<AnnotationExportRow | undefined> {
  const [settled] = await table(k)
    .where({ id })
    .whereIn('status', ['queued', 'processing'])
    .update({ status: 'failed', message, finished_at: new Date(), updated_at: new Date() })
    .returning('*');
  return settled as AnnotationExportRow | undefined;
}

/** The export with this id (only if it is this user's, with `userId`). */
export async function exportRow(k: Db, id: number, userId?: number): Promise<AnnotationExportRow | undefined> {
  return (await table(k)
    .where({ id, ...(userId === undefined ? {} : { id_user: userId }) })
    .first()) as AnnotationExportRow | undefined;
}

/** Exports finished before `cutoff` (one user's, or everybody's), with their files. */
export function exportsFinishedBefore(k: Db, cutoff: Date, userId?: number): Promise<Pick<AnnotationExportRow, 'id' | 'file_key'>[]> {
  const q = table(k).where('finished_at', '<', cutoff).select('id', 'file_key');
  if (userId) q.where({ id_user: userId });
  return q;
}

/** Writes where the export job stands (status, percent, message, total). */
export async function patchExport(k: Db, id: number, patch: Partial<Pick<AnnotationExportRow, 'status' | 'percent' | 'message' | 'total' | 'finished_at' | 'updated_at'>>): Promise<void> {
  await table(k).where({ id }).update(patch);
}

/** Marks an export completed with its file unless it was settled meanwhile; the row as it is then, or undefined when it had been settled or removed. */
export async function completeUnfinishedExport(
  k: Db,
  id: number,
  done: Pick<AnnotationExportRow, 'file_key' | 'file_name' | 'size_bytes' | 'finished_at' | 'updated_at'>,
): Promise<AnnotationExportRow | undefined> {
  const [row] = await table(k)
    .where({ id })
    .whereIn('status', ['queued', 'processing'])
    .update({ status: 'completed', percent: 100, message: 'Ready', ...done })
    .returning('*');
  return row as AnnotationExportRow | undefined;
}
