import type { SheetDetail, SheetRoom, SheetSummary, PdfUpload as PdfUploadDto, RoomPositionsRequest } from '@sitewalk/proto';
import { PdfUpload, Room, Sheet, db } from '../db/index.js';
import { touchProject } from '../repositories/projects.repository.js';
import { deleteSheetRow, insertSheet, patchSheet, placeRoom, placeableRooms, roomsByIds, roomsOnSheet, sheetById, sheetsOfProject } from '../repositories/sheets.repository.js';
import { badRequest, notFound } from '../errors.js';
import { remove, signedFolderUrl, signedUrl } from '../storage/index.js';
import { requireProject, type ProjectAccess, type ProjectNeed } from './access.service.js';
import { roomThumbnailUrl } from './rooms-dto.js';
import { normaliseYaw } from '@sitewalk/proto';
import type { Actor } from './actor.js';
import { iso, type Db } from '../db/query-types.js';

/** Where a sheet's files live in storage; deleting the folder deletes the sheet's files. */
export const mapFolder = (projectId: number, mapId: number) => `projects/${projectId}/maps/${mapId}`;
/** Everything of a project in storage sits under this folder. */
export const projectFolder = (projectId: number) => `projects/${projectId}`;
/** Tile file extension written by the worker. */
export const TILE_EXT = 'jpg';

export function toSheetSummary(m: Sheet): SheetSummary {
  return {
    id: m.id,
    id_project: m.id_project,
    name: m.name,
    page_label: m.page_label,
    page: m.page,
    status: m.status,
    width: m.width,
    height: m.height,
    thumbnail_url: m.status === 'ready' ? signedUrl(m.thumbnail) : null,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
  };
}

export function toSheetDetail(m: Sheet): SheetDetail {
  const ready = m.status === 'ready' && !!m.folder;
  return {
    ...toSheetSummary(m),
    id_upload: m.id_upload,
    dpi: m.dpi,
    tile_size: ready ? m.tile_size : null,
    min_zoom: 0,
    max_zoom: ready ? m.max_zoom : null,
    // One signature covers the tiles folder; Leaflet fills in {z}/{y}/{x}.
    tile_url_template: ready ? signedFolderUrl(`${m.folder}/tiles`).replace('{path}', `{z}/{y}/{x}.${TILE_EXT}`) : null,
  };
}

export function toPdfUploadDto(u: PdfUpload): PdfUploadDto {
  return {
    id: u.id,
    id_project: u.id_project,
    original_name: u.original_name,
    size_bytes: Number(u.size_bytes),
    status: u.status,
    pages_total: u.pages_total,
    pages_done: u.pages_done,
    error: u.error,
    sheet_ids: u.sheet_ids ?? [],
    file_stored: !!u.file_key,
    created_at: iso(u.created_at),
    updated_at: iso(u.updated_at),
  };
}

export function toSheetRoom(r: Room): SheetRoom {
  return {
    id: r.id,
    id_map: r.id_map,
    id_visit: r.id_visit,
    name: r.name,
    x: r.x,
    y: r.y,
    heading: r.heading,
    status: r.status,
    thumbnail_url: roomThumbnailUrl(r),
    osfm_cluster: r.osfm_cluster,
  };
}

/** Sheets of a project: PDF pages in order, then by creation. */
export const projectSheets = (projectId: number, k: Db = db()) => sheetsOfProject(k, projectId);

/** A sheet and the access to its project; a sheet of a project the user cannot see is a 404. */
export async function requireSheet(user: Actor, mapId: number, need: ProjectNeed, k: Db = db()): Promise<{ map: Sheet; access: ProjectAccess }> {
  const map = await sheetById(k, mapId);
  if (!map) throw notFound('Sheet not found.');
  try {
    return { map, access: await requireProject(user, map.id_project, need, k) };
  } catch (err) {
    if ((err as { status?: number }).status === 404) throw notFound('Sheet not found.');
    throw err;
  }
}

/** POST /maps: an empty sheet, named by the user; a PDF upload fills sheets with plans. */
export async function createSheet(user: Actor, input: { id_project: number; name: string; page_label?: string }): Promise<Sheet> {
  return db().transaction(async (trx) => {
    await requireProject(user, input.id_project, 'edit-sheets', trx);
    await touchProject(trx, input.id_project);
    return insertSheet(trx, { id_project: input.id_project, name: input.name, page_label: input.page_label ?? '', status: 'empty' });
  });
}

export async function updateSheet(user: Actor, mapId: number, patch: { name?: string; page_label?: string }): Promise<Sheet> {
  const { map } = await requireSheet(user, mapId, 'edit-sheets');
  return patchSheet(db(), map.id, patch);
}

/** Deletes a sheet; its files leave storage once the deletion is committed. */
export async function deleteSheet(user: Actor, mapId: number): Promise<{ id: number; id_project: number }> {
  const folder = await db().transaction(async (trx) => {
    const { map } = await requireSheet(user, mapId, 'edit-sheets', trx);
    await deleteSheetRow(trx, map);
    await touchProject(trx, map.id_project);
    return { folder: map.folder ?? mapFolder(map.id_project, map.id), id_project: map.id_project };
  });
  await remove(folder.folder);
  return { id: mapId, id_project: folder.id_project };
}

export async function roomsOfSheet(user: Actor, mapId: number, filter: { id_map?: number; id_visit?: number; osfm_cluster?: number }): Promise<SheetRoom[]> {
  if (filter.id_map !== undefined && filter.id_map !== mapId) throw badRequest('id_map must be the sheet of the address.');
  const { map } = await requireSheet(user, mapId, 'read');
  return (await roomsOnSheet(db(), map.id, filter)).map(toSheetRoom);
}

/**
 * Stores where rooms sit on a sheet, all or none. A room may already be on
 * this sheet, or be a room of a visit of the sheet's project (it then moves
 * onto this sheet); a position must fall inside the sheet's image.
 */
export async function setRoomPositions(user: Actor, mapId: number, input: RoomPositionsRequest): Promise<SheetRoom[]> {
  return db().transaction(async (trx) => {
    const { map } = await requireSheet(user, mapId, 'edit-sheets', trx);
    const ids = input.rooms.map((r) => r.id);
    const found = await placeableRooms(trx, map, ids);
    const missing = ids.filter((id) => !found.some((r) => r.id === id));
    if (missing.length) {
      throw badRequest(`${missing.length === 1 ? 'Room' : 'Rooms'} ${missing.slice(0, 10).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in this sheet's project.`);
    }
    if (map.width && map.height) {
      const outside = input.rooms.filter((r) => r.x < 0 || r.y < 0 || r.x > map.width! || r.y > map.height!);
      if (outside.length) {
        throw badRequest(`Room ${outside[0].id} is outside the sheet: positions go from 0,0 to ${map.width},${map.height}.`);
      }
    }
    for (const r of input.rooms) {
      const heading = r.heading === undefined ? {} : { heading: r.heading === null ? null : normaliseYaw(r.heading) };
      await placeRoom(trx, r.id, { id_map: map.id, x: r.x, y: r.y, ...heading });
    }
    return (await roomsByIds(trx, ids)).map(toSheetRoom);
  });
}
