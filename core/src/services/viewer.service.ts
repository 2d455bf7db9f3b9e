import type { ViewerRoom, ViewerRoomPois, ViewerSheet, ViewerVisit } from '@sitewalk/proto';
import { type Sheet, type Visit, db } from '../db/index.js';
import { visitOfActiveProjectByCode } from '../repositories/visits.repository.js';
import { projectById } from '../repositories/projects.repository.js';
import { poiById, poisOfRoom, roomsOfVisitAmong } from '../repositories/rooms.repository.js';
import { sheetsOfProjectAmong } from '../repositories/sheets.repository.js';
import { forbidden, notFound } from '../errors.js';
import { signedFolderUrl, signedUrl } from '../storage/index.js';
import { projectAccess, canEditSheets } from './access.service.js';
import { getSettings } from './settings.service.js';
import { hotspotsOf, poiCounts, roomPanorama, roomThumbnailUrl, toPoiDto, visitRooms } from './rooms-dto.js';
import { TILE_EXT } from './sheets.service.js';
import type { Actor } from './actor.js';
import { addressInList } from '../address-list.js';

export const VIEWER_MAINTENANCE_MESSAGE = 'The visit viewer is down for maintenance. Please try again later.';

/** Whether the public viewer is in maintenance for this address (maintenance_viewer on, and not the maintenance_ip). */
export async function viewerInMaintenance(ip: string): Promise<boolean> {
  const s = await getSettings();
  if (!s.maintenance_viewer) return false;
  return !addressInList(ip, String(s.maintenance_ip ?? ''));
}

const UNKNOWN_CODE = 'No visit has this code. Check the link you were given.';

/** The visit of a code; a visit of a deactivated project is not shown to the public. */
async function visitByCode(code: string): Promise<Visit> {
  const visit = await visitOfActiveProjectByCode(db(), code.trim().toLowerCase());
  if (!visit) throw notFound(UNKNOWN_CODE);
  return visit;
}

function viewerSheet(m: Sheet): ViewerSheet | null {
  if (m.status !== 'ready' || !m.folder || !m.width || !m.height || !m.tile_size || m.max_zoom == null) return null;
  return {
    id: m.id,
    name: m.name,
    width: m.width,
    height: m.height,
    tile_size: m.tile_size,
    max_zoom: m.max_zoom,
    tile_url_template: signedFolderUrl(`${m.folder}/tiles`).replace('{path}', `{z}/{y}/{x}.${TILE_EXT}`),
    thumbnail_url: signedUrl(m.thumbnail),
  };
}

/** GET /viewer-visit: the visit as anyone holding its code sees it; ready rooms only. */
export async function viewerVisit(code: string, poiId?: number): Promise<ViewerVisit> {
  const visit = await visitByCode(code);
  const project = await projectById(db(), visit.id_project);
  const rooms = (await visitRooms(visit.id)).filter((r) => r.status === 'ready' && roomPanorama(r));
  const ids = rooms.map((r) => r.id);
  const ready = new Set(ids);
  const [spots, counts] = await Promise.all([hotspotsOf(ids), poiCounts(ids)]);
  let poi = null;
  if (poiId !== undefined) {
    const found = await poiById(db(), poiId);
    if (!found || !ready.has(found.id_room)) throw notFound('This point of interest is not in the visit.');
    poi = toPoiDto(found);
  }
  const mapIds = new Set<number>();
  if (visit.id_map) mapIds.add(visit.id_map);
  for (const r of rooms) if (r.id_map) mapIds.add(r.id_map);
  const sheets = mapIds.size ? await sheetsOfProjectAmong(db(), visit.id_project, [...mapIds]) : [];
  sheets.sort((a, b) => Number(b.id === visit.id_map) - Number(a.id === visit.id_map));
  const maps = sheets.map(viewerSheet).filter((m): m is ViewerSheet => !!m);
  const shown = new Set(maps.map((m) => m.id));
  return {
    code: visit.code,
    name: visit.name,
    description: visit.description,
    date: visit.date,
    project_name: project?.name ?? '',
    start_room: poi ? poi.id_room : (rooms[0]?.id ?? null),
    poi,
    rooms: rooms.map(
      (r): ViewerRoom => ({
        id: r.id,
        name: r.name,
        position: r.position,
        // A room on a sheet the viewer cannot show is shown without a place.
        id_map: r.id_map && shown.has(r.id_map) ? r.id_map : null,
        x: r.id_map && shown.has(r.id_map) ? r.x : null,
        y: r.id_map && shown.has(r.id_map) ? r.y : null,
        heading: r.heading,
        thumbnail_url: roomThumbnailUrl(r)!,
        panorama: roomPanorama(r)!,
        hotspots: (spots.get(r.id) ?? [])
          .filter((h) => ready.has(h.id_room_target))
          .map((h) => ({ id_room_target: h.id_room_target, target_name: h.target_name, yaw: h.yaw, pitch: h.pitch })),
        pois_count: counts.get(r.id) ?? 0,
      }),
    ),
    maps,
  };
}

/**
 * The start room's low-resolution sphere for a viewer address, so the served
 * page can name it and the browser fetch it while the visit is still being
 * asked for (api/src/http/viewer-page.ts). The same room the viewer opens:
 * the point of interest's room, else the asked room when the visit shows it,
 * else the first (client/src/pages/viewer/viewer-preload.ts, startRoomId).
 * Null when there is nothing to show; errors are the caller's to ignore.
 */
export async function viewerStartPanorama(code: string, askedRoom: number | null, poiId: number | null): Promise<{ id: number; base_url: string } | null> {
  const visit = await visitByCode(code);
  const rooms = (await visitRooms(visit.id)).filter((r) => r.status === 'ready' && roomPanorama(r));
  let id: number | undefined = rooms[0]?.id;
  if (poiId) id = (await poiById(db(), poiId))?.id_room;
  else if (askedRoom && rooms.some((r) => r.id === askedRoom)) id = askedRoom;
  const room = rooms.find((r) => r.id === id);
  return room ? { id: room.id, base_url: roomPanorama(room)!.base_url } : null;
}

/**
 * GET /viewer-room-pois: the points of interest of a room of the visit.
 * edit_room is honoured only for a signed-in user who may edit the visit.
 */
export async function viewerRoomPois(code: string, roomId: number, editRoom: boolean, user: Actor | null): Promise<ViewerRoomPois> {
  const visit = await visitByCode(code);
  const [room] = await roomsOfVisitAmong(db(), visit.id, [roomId]);
  if (!room || (room.status !== 'ready' && !editRoom)) throw notFound('This room is not in the visit.');
  let canEdit = false;
  if (editRoom) {
    // 403, not 401: the public viewer must not send a visitor to the sign-in page.
    if (!user) throw forbidden('Sign in to edit the points of interest of this room.');
    const access = await projectAccess(user, visit.id_project, db());
    if (!access || !canEditSheets(access)) throw forbidden('You may not edit the points of interest of this room.');
    canEdit = true;
  }
  const pois = await poisOfRoom(db(), room.id);
  return { id_room: room.id, can_edit: canEdit, pois: pois.map(toPoiDto) };
}
