import { Room, Sheet } from '../db/index.js';
import type { Db } from '../db/query-types.js';

/**
 * Every query of sheets (table `maps`) and of the rooms placed on them.
 * Rows are the Objection models `Sheet` and `Room`. The services hold the rules.
 */

export async function sheetById(k: Db, id: number): Promise<Sheet | undefined> {
  return await Sheet.query(k).findById(id);
}

/** Sheets of a project: PDF pages in order, then by creation. */
export function sheetsOfProject(k: Db, projectId: number) {
  return Sheet.query(k).where({ id_project: projectId }).orderBy([{ column: 'created_at' }, { column: 'id_upload' }, { column: 'page' }, { column: 'id' }]);
}

export async function insertSheet(k: Db, row: { id_project: number; name: string; page_label: string; status: Sheet['status'] }): Promise<Sheet> {
  return await Sheet.query(k).insertAndFetch(row);
}

export async function patchSheet(k: Db, id: number, patch: Partial<Pick<Sheet, 'name' | 'page_label' | 'status'>>): Promise<Sheet> {
  return await Sheet.query(k).patchAndFetchById(id, patch);
}

/** Deletes a sheet and takes it off the list of sheets its PDF upload made. */
export async function deleteSheetRow(k: Db, sheet: Pick<Sheet, 'id' | 'id_upload'>): Promise<void> {
  if (sheet.id_upload) await k('pdf_uploads').where({ id: sheet.id_upload }).update({ sheet_ids: k.raw('array_remove(sheet_ids, ?::integer)', [sheet.id]) });
  await Sheet.query(k).deleteById(sheet.id);
}

/** The rooms placed on a sheet, by visit and position; optionally of one visit or one cluster. */
export async function roomsOnSheet(k: Db, sheetId: number, filter: { id_visit?: number; osfm_cluster?: number }): Promise<Room[]> {
  const q = Room.query(k).where({ id_map: sheetId }).orderBy([{ column: 'id_visit' }, { column: 'position' }, { column: 'id' }]);
  if (filter.id_visit !== undefined) q.where({ id_visit: filter.id_visit });
  if (filter.osfm_cluster !== undefined) q.where({ osfm_cluster: filter.osfm_cluster });
  return await q;
}

/**
 * Of these rooms, those that may be placed on the sheet (already on it, or
 * of a visit of its project), locked for the rest of the transaction.
 */
export async function placeableRooms(k: Db, sheet: Pick<Sheet, 'id' | 'id_project'>, ids: number[]): Promise<Room[]> {
  return await Room.query(k)
    .whereIn('rooms.id', ids)
    .where((w) =>
      w.where('rooms.id_map', sheet.id).orWhereExists((v) => v.select(k.raw('1')).from('visits').whereRaw('visits.id = rooms.id_visit').andWhere('visits.id_project', sheet.id_project)),
    )
    .forUpdate();
}

/** Puts a room on a sheet at a position (and heading, when given). */
export async function placeRoom(k: Db, roomId: number, place: Pick<Room, 'id_map' | 'x' | 'y'> & { heading?: number | null }): Promise<void> {
  await Room.query(k).patch(place).where({ id: roomId });
}

export async function roomsByIds(k: Db, ids: number[]): Promise<Room[]> {
  return await Room.query(k).whereIn('id', ids).orderBy('id');
}

/** Of these sheets, those of the project, by id. */
export async function sheetsOfProjectAmong(k: Db, projectId: number, ids: number[]): Promise<Sheet[]> {
  return await Sheet.query(k).whereIn('id', ids).where({ id_project: projectId }).orderBy('id');
}

/** Deletes the sheets made from an upload; the ones that went, with their storage folders. */
export async function deleteSheetsOfUpload(k: Db, uploadId: number): Promise<Pick<Sheet, 'id' | 'folder'>[]> {
  const sheets = await Sheet.query(k).where({ id_upload: uploadId }).select('id', 'folder');
  await Sheet.query(k).delete().where({ id_upload: uploadId });
  return sheets;
}

/** The ready sheets made from an upload, in page order. */
export async function readySheetsOfUpload(k: Db, uploadId: number): Promise<Pick<Sheet, 'id' | 'page'>[]> {
  return await Sheet.query(k).where({ id_upload: uploadId, status: 'ready' }).orderBy('page').select('id', 'page');
}

/**
 * The sheet of one page of an upload, marked processing: added, or found again when a rerun or a retry
 * made it before (one row per upload and page). Returns its id.
 */
export async function upsertProcessingSheet(
  k: Db,
  row: Pick<Sheet, 'id_project' | 'id_upload' | 'page' | 'name' | 'page_label' | 'created_at'>,
): Promise<number> {
  const [got] = await k('maps')
    .insert({ ...row, status: 'processing' })
    .onConflict(['id_upload', 'page'])
    .merge({ status: 'processing', updated_at: k.fn.now() })
    .returning(['id']);
  return got.id;
}

/** Marks a sheet ready with its drawn images; false when the sheet is gone (deleted meanwhile). */
export async function markSheetReady(
  k: Db,
  id: number,
  images: Pick<Sheet, 'width' | 'height' | 'dpi' | 'tile_size' | 'max_zoom' | 'folder' | 'thumbnail'>,
): Promise<boolean> {
  return !!(await Sheet.query(k).patch({ status: 'ready', ...images }).where({ id }));
}

/** Reads and locks a sheet for the rest of the transaction; undefined once it is gone. */
export async function lockSheet(k: Db, id: number): Promise<Sheet | undefined> {
  return await Sheet.query(k).findById(id).forUpdate();
}

/** Scales the positions of the rooms and snags placed on a sheet, so each keeps its spot on a drawing of another size. */
export async function scalePlacedOnSheet(k: Db, sheetId: number, scale: { x: number; y: number }): Promise<void> {
  for (const table of ['rooms', 'annotations']) {
    await k(table)
      .where({ id_map: sheetId })
      .whereNotNull('x')
      .whereNotNull('y')
      .update({ x: k.raw('x * ?', [scale.x]), y: k.raw('y * ?', [scale.y]) });
  }
}

/** An empty sheet whose plan was being drawn goes back to empty (a sheet with a plan keeps it). */
export async function emptySheetIfProcessing(k: Db, id: number): Promise<void> {
  await Sheet.query(k).patch({ status: 'empty' }).where({ id, status: 'processing' });
}

/** Of these sheets, the state, size and folder of each one's tiles. */
export function sheetTilesOf(k: Db, ids: number[]): Promise<Pick<Sheet, 'id' | 'status' | 'folder' | 'width' | 'height' | 'tile_size' | 'max_zoom'>[]> {
  return k('maps').whereIn('id', ids).select('id', 'status', 'folder', 'width', 'height', 'tile_size', 'max_zoom');
}
