import type { Knex } from 'knex';
import type { MapDetail, MapRoom, MapSummary, PdfUpload as PdfUploadDto, RoomPositionsRequest } from '@sitewalk/proto';
import { PdfUpload, Room, SheetMap, db } from '../db/index.js';
import { badRequest, notFound } from '../errors.js';
import { remove, signedFolderUrl, signedUrl } from '../storage/index.js';
import { requireProject, type ProjectAccess, type ProjectNeed } from './access.service.js';
import { roomThumbnailUrl } from './rooms-dto.js';
import { normaliseYaw } from '@sitewalk/proto';

type Actor = { id: number; super_admin: boolean };
const iso = (d: Date | string) => new Date(d).toISOString();

/** Where a sheet's files live in storage; deleting the folder deletes the sheet's files. */
export const mapFolder = (projectId: number, mapId: number) => `projects/${projectId}/maps/${mapId}`;
/** Everything of a project in storage sits under this folder. */
export const projectFolder = (projectId: number) => `projects/${projectId}`;
/** Tile file extension written by the worker. */
export const TILE_EXT = 'jpg';

export function toMapSummary(m: SheetMap): MapSummary {
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

export function toMapDetail(m: SheetMap): MapDetail {
  const ready = m.status === 'ready' && !!m.folder;
  return {
    ...toMapSummary(m),
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

export function toMapRoom(r: Room): MapRoom {
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
export const projectMaps = (projectId: number, k: Knex | Knex.Transaction = db()) =>
  SheetMap.query(k).where({ id_project: projectId }).orderBy([{ column: 'created_at' }, { column: 'id_upload' }, { column: 'page' }, { column: 'id' }]);

/** A sheet and the access to its project; a sheet of a project the user cannot see is a 404. */
export async function requireMap(user: Actor, mapId: number, need: ProjectNeed, k: Knex | Knex.Transaction = db()): Promise<{ map: SheetMap; access: ProjectAccess }> {
  const map = await SheetMap.query(k).findById(mapId);
  if (!map) throw notFound('Sheet not found.');
  try {
    return { map, access: await requireProject(user, map.id_project, need, k) };
  } catch (err) {
    if ((err as { status?: number }).status === 404) throw notFound('Sheet not found.');
    throw err;
  }
}

/** POST /maps: an empty sheet, named by the user; a PDF upload fills sheets with plans. */
export async function createMap(user: Actor, input: { id_project: number; name: string; page_label?: string }): Promise<SheetMap> {
  return db().transaction(async (trx) => {
    await requireProject(user, input.id_project, 'edit-sheets', trx);
    await trx('projects').where({ id: input.id_project }).update({ updated_at: trx.fn.now() });
    return SheetMap.query(trx).insertAndFetch({
      id_project: input.id_project,
      name: input.name,
      page_label: input.page_label ?? '',
      status: 'empty',
    });
  });
}

export async function updateMap(user: Actor, mapId: number, patch: { name?: string; page_label?: string }): Promise<SheetMap> {
  const { map } = await requireMap(user, mapId, 'edit-sheets');
  return SheetMap.query().patchAndFetchById(map.id, patch);
}

/** Deletes a sheet; its files leave storage once the deletion is committed. */
export async function deleteMap(user: Actor, mapId: number): Promise<{ id: number; id_project: number }> {
  const folder = await db().transaction(async (trx) => {
    const { map } = await requireMap(user, mapId, 'edit-sheets', trx);
    if (map.id_upload) {
      await trx('pdf_uploads').where({ id: map.id_upload }).update({ sheet_ids: trx.raw('array_remove(sheet_ids, ?::integer)', [map.id]) });
    }
    await SheetMap.query(trx).deleteById(map.id);
    await trx('projects').where({ id: map.id_project }).update({ updated_at: trx.fn.now() });
    return { folder: map.folder ?? mapFolder(map.id_project, map.id), id_project: map.id_project };
  });
  await remove(folder.folder);
  return { id: mapId, id_project: folder.id_project };
}

export async function mapRooms(user: Actor, mapId: number, filter: { id_map?: number; id_visit?: number; osfm_cluster?: number }): Promise<MapRoom[]> {
  if (filter.id_map !== undefined && filter.id_map !== mapId) throw badRequest('id_map must be the sheet of the address.');
  const { map } = await requireMap(user, mapId, 'read');
  const q = Room.query().where({ id_map: map.id }).orderBy([{ column: 'id_visit' }, { column: 'position' }, { column: 'id' }]);
  if (filter.id_visit !== undefined) q.where({ id_visit: filter.id_visit });
  if (filter.osfm_cluster !== undefined) q.where({ osfm_cluster: filter.osfm_cluster });
  return (await q).map(toMapRoom);
}

/**
 * Stores where rooms sit on a sheet, all or none. A room may already be on
 * this sheet, or be a room of a visit of the sheet's project (it then moves
 * onto this sheet); a position must fall inside the sheet's image.
 */
export async function setRoomPositions(user: Actor, mapId: number, input: RoomPositionsRequest): Promise<MapRoom[]> {
  return db().transaction(async (trx) => {
    const { map } = await requireMap(user, mapId, 'edit-sheets', trx);
    const ids = input.rooms.map((r) => r.id);
    const found = await Room.query(trx)
      .whereIn('rooms.id', ids)
      .where((w) =>
        w.where('rooms.id_map', map.id).orWhereExists((v) => v.select(trx.raw('1')).from('visits').whereRaw('visits.id = rooms.id_visit').andWhere('visits.id_project', map.id_project)),
      )
      .forUpdate();
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
      await Room.query(trx).patch({ id_map: map.id, x: r.x, y: r.y, ...heading }).where({ id: r.id });
    }
    return (await Room.query(trx).whereIn('id', ids).orderBy('id')).map(toMapRoom);
  });
}
