import type { Hotspot, Poi as PoiDto, PoiFile, Room as RoomDto, RoomPanorama } from '@sitewalk/proto';
import { Poi, Room, db } from '../db/index.js';
import { signedFolderUrl, signedUrl } from '../storage/index.js';
import { iso, type Db } from '../db/query-types.js';
import { hotspotRows, poiCountRows, roomsOfVisit } from '../repositories/rooms.repository.js';

/** Where everything of a visit lives in storage; deleting the folder deletes the visit's files. */
export const visitFolder = (projectId: number, visitId: number) => `projects/${projectId}/visits/${visitId}`;
/** The folder holding every tiles generation of a room. */
export const roomFolder = (projectId: number, visitId: number, roomId: number) => `${visitFolder(projectId, visitId)}/rooms/${roomId}`;

/** File names the room.tiles worker writes inside a room's tiles generation folder. */
export const ROOM_FILES = {
  base: 'base.jpg',
  thumbnail: 'thumb.jpg',
  tiles: 'tiles',
  tileExt: 'jpeg',
} as const;

/** How to show a ready room in Photo Sphere Viewer (visits.ts); null until it is ready. */
export function roomPanorama(r: Room): RoomPanorama | null {
  if (r.status !== 'ready' || !r.folder || !r.levels?.length || !r.tile_size || !r.pano_width) return null;
  return {
    width: r.pano_width,
    base_url: signedUrl(`${r.folder}/${ROOM_FILES.base}`)!,
    tile_size: r.tile_size,
    levels: r.levels,
    // One signature covers every tile of the room; PSV fills in level, col and row.
    tile_url_template: signedFolderUrl(`${r.folder}/${ROOM_FILES.tiles}`).replace('{path}', `{level}/{col}_{row}.${ROOM_FILES.tileExt}`),
  };
}

export const roomThumbnailUrl = (r: Room): string | null => (r.status === 'ready' && r.folder ? signedUrl(`${r.folder}/${ROOM_FILES.thumbnail}`) : null);

/** The hotspots leaving each of the rooms, with their targets' names. */
export async function hotspotsOf(roomIds: number[], k: Db = db()): Promise<Map<number, Hotspot[]>> {
  const out = new Map<number, Hotspot[]>();
  if (!roomIds.length) return out;
  for (const r of await hotspotRows(k, roomIds)) {
    if (!out.has(r.id_room)) out.set(r.id_room, []);
    out.get(r.id_room)!.push({ id: r.id, id_room: r.id_room, id_room_target: r.id_room_target, target_name: r.target_name, yaw: r.yaw, pitch: r.pitch });
  }
  return out;
}

/** How many points of interest each room has. */
export async function poiCounts(roomIds: number[], k: Db = db()): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!roomIds.length) return out;
  for (const r of await poiCountRows(k, roomIds)) out.set(r.id_room, Number(r.n));
  return out;
}

export function toRoomDto(r: Room, hotspots: Hotspot[], poisCount: number): RoomDto {
  return {
    id: r.id,
    id_visit: r.id_visit!,
    name: r.name,
    position: r.position,
    status: r.status,
    error: r.error,
    original_name: r.original_name,
    size_bytes: Number(r.size_bytes),
    width: r.width ?? 0,
    height: r.height ?? 0,
    id_map: r.id_map,
    x: r.x,
    y: r.y,
    heading: r.heading,
    thumbnail_url: roomThumbnailUrl(r),
    panorama: roomPanorama(r),
    hotspots,
    pois_count: poisCount,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** Rooms with their hotspots and point-of-interest counts, in the order given. */
export async function roomDtos(rooms: Room[], k: Db = db()): Promise<RoomDto[]> {
  const ids = rooms.map((r) => r.id);
  const [spots, counts] = await Promise.all([hotspotsOf(ids, k), poiCounts(ids, k)]);
  return rooms.map((r) => toRoomDto(r, spots.get(r.id) ?? [], counts.get(r.id) ?? 0));
}

/** The rooms of a visit in visit order. */
export const visitRooms = (visitId: number, k: Db = db()) => roomsOfVisit(k, visitId);

const IMAGE_MIMES = new Set(['image/jpeg', 'image/png', 'image/webp']);

export function toPoiDto(p: Poi): PoiDto {
  const file: PoiFile | null =
    p.file_key && p.file_mime
      ? {
          name: p.file_name ?? 'file',
          mime: p.file_mime,
          size_bytes: Number(p.file_size ?? 0),
          kind: IMAGE_MIMES.has(p.file_mime) ? 'image' : 'document',
          url: signedUrl(p.file_key)!,
        }
      : null;
  return {
    id: p.id,
    id_room: p.id_room,
    title: p.title,
    text: p.text,
    link: p.link,
    yaw: p.yaw,
    pitch: p.pitch,
    file,
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
  };
}
