import type { RoomStatus } from '@sitewalk/proto';
import { Poi, Room, RoomHotspot } from '../db/index.js';
import type { Db } from '../db/query-types.js';

/**
 * Every query of rooms (the 360 photos of a visit), their hotspots and the
 * counts and files of their points of interest. Rows are the Objection
 * model `Room`. The services hold the rules.
 */

export async function roomById(k: Db, id: number): Promise<Room | undefined> {
  return await Room.query(k).findById(id);
}

/** The rooms of a visit in visit order. */
export const roomsOfVisit = (k: Db, visitId: number) => Room.query(k).where({ id_visit: visitId }).orderBy([{ column: 'position' }, { column: 'id' }]);

/** The position after the visit's last room (0 for its first). */
export async function nextRoomPosition(k: Db, visitId: number): Promise<number> {
  const last = await k('rooms').where({ id_visit: visitId }).max<{ max: number | null }>('position as max').first();
  return last?.max == null ? 0 : last.max + 1;
}

export async function insertRoom(k: Db, row: Partial<Room>): Promise<Room> {
  return await Room.query(k).insertAndFetch(row);
}

/** Changes a room's fields; how many rows changed (0 once the room is gone). */
export async function patchRoom(k: Db, id: number, change: Partial<Room>): Promise<number> {
  return await Room.query(k).patch(change).where({ id });
}

/** Whether the room is still there (not deleted, with its visit or project, meanwhile). */
export async function roomExists(k: Db, id: number): Promise<boolean> {
  return !!(await Room.query(k).findById(id).select('id'));
}

/** What the tiling job needs of a room, its visit and the visit's project's owner, read in one round trip. */
export interface TilingSubject {
  id: number;
  id_visit: number | null;
  id_user: number | null;
  status: RoomStatus;
  folder: string | null;
  file_key: string | null;
  /** Null when the visit is gone. */
  id_project: number | null;
  id_owner: number | null;
}

export function tilingSubject(k: Db, roomId: number): Promise<TilingSubject | undefined> {
  return k('rooms as r')
    .leftJoin('visits as v', 'v.id', 'r.id_visit')
    .leftJoin('projects as p', 'p.id', 'v.id_project')
    .where('r.id', roomId)
    .first('r.id', 'r.id_visit', 'r.id_user', 'r.status', 'r.folder', 'r.file_key', 'v.id_project', 'p.id_owner');
}

/** Deletes a room; its hotspots (both ways) and points of interest go with it. */
export async function deleteRoomRow(k: Db, id: number): Promise<void> {
  await Room.query(k).deleteById(id);
}

/** The room's hotspots with their targets' names, by target order. */
export interface HotspotRow {
  id: number;
  id_room: number;
  id_room_target: number;
  yaw: number;
  pitch: number;
  target_name: string;
}

export function hotspotRows(k: Db, roomIds: number[]): Promise<HotspotRow[]> {
  return k('room_hotspots as h')
    .join('rooms as t', 't.id', 'h.id_room_target')
    .whereIn('h.id_room', roomIds)
    .orderBy([{ column: 't.position' }, { column: 't.id' }])
    .select('h.id', 'h.id_room', 'h.id_room_target', 'h.yaw', 'h.pitch', 't.name as target_name');
}

/** How many points of interest each of these rooms has (rooms without any are left out). */
export function poiCountRows(k: Db, roomIds: number[]): Promise<{ id_room: number; n: number }[]> {
  return k('pois').whereIn('id_room', roomIds).groupBy('id_room').select('id_room', k.raw('count(*)::int as n'));
}

/** The room's points of interest, oldest first. */
export async function poisOfRoom(k: Db, roomId: number): Promise<Poi[]> {
  return await Poi.query(k).where({ id_room: roomId }).orderBy('id');
}

/** The storage keys of the files attached to the points of interest of these rooms. */
export async function poiFileKeysOfRooms(k: Db, roomIds: number[]): Promise<string[]> {
  return (await Poi.query(k).whereIn('id_room', roomIds).whereNotNull('file_key').select('file_key')).map((p) => p.file_key!);
}

/** The storage keys of the files attached to the room's points of interest. */
export const poiFileKeys = (k: Db, roomId: number): Promise<string[]> => poiFileKeysOfRooms(k, [roomId]);

/** The rooms made from a video, with their photos' keys. */
export async function roomsOfVideo(k: Db, videoId: number): Promise<Pick<Room, 'id' | 'file_key'>[]> {
  return await Room.query(k).where('id_video', videoId).select('id', 'file_key');
}

/** The rooms of a visit still queued or processing whose last news is older than `before`. */
export async function quietUnfinishedRooms(k: Db, where: { id_visit?: number; id?: number }, before: Date): Promise<Room[]> {
  return await Room.query(k).where(where).whereIn('status', ['queued', 'processing']).where('updated_at', '<', before);
}

/** Marks a room failed with this message, unless it finished meanwhile. */
export async function failUnfinishedRoom(k: Db, id: number, error: string): Promise<void> {
  await Room.query(k).patch({ status: 'failed', error }).where({ id }).whereIn('status', ['queued', 'processing']);
}

/** The ids of a visit's rooms, locked for the rest of the transaction. */
export async function lockRoomIdsOfVisit(k: Db, visitId: number): Promise<number[]> {
  return (await Room.query(k).where({ id_visit: visitId }).forUpdate().select('id')).map((r) => r.id);
}

/** Of these rooms, those of the visit. */
export async function roomsOfVisitAmong(k: Db, visitId: number, ids: number[]): Promise<Room[]> {
  return await Room.query(k).whereIn('id', ids).where({ id_visit: visitId });
}

/** Links a room to a target room at a direction; linking the pair again moves the link. */
export async function upsertHotspot(k: Db, link: { id_room: number; id_room_target: number; yaw: number; pitch: number }): Promise<void> {
  await k('room_hotspots')
    .insert(link)
    .onConflict(['id_room', 'id_room_target'])
    .merge({ yaw: link.yaw, pitch: link.pitch, updated_at: k.fn.now() });
}

/** Removes the room's link to one target, or every link leaving it; how many went. */
export async function deleteHotspots(k: Db, roomId: number, targetId?: number): Promise<number> {
  const q = RoomHotspot.query(k).delete().where({ id_room: roomId });
  if (targetId) q.where({ id_room_target: targetId });
  return await q;
}

export async function poiById(k: Db, id: number): Promise<Poi | undefined> {
  return await Poi.query(k).findById(id);
}

export async function insertPoi(k: Db, row: Partial<Poi>): Promise<Poi> {
  return await Poi.query(k).insertAndFetch(row);
}

export async function patchPoi(k: Db, id: number, change: Partial<Poi>): Promise<Poi> {
  return await Poi.query(k).patchAndFetchById(id, change);
}

export async function deletePoiRow(k: Db, id: number): Promise<void> {
  await Poi.query(k).deleteById(id);
}

/** Reads and locks a point of interest for the rest of the transaction. */
export async function lockPoi(k: Db, id: number): Promise<Poi | undefined> {
  return await Poi.query(k).findById(id).forUpdate();
}

/** Where a room made from a video keyframe stands on its sheet, and the cluster that placed it. */
export type VideoRoomPlace = Pick<Room, 'x' | 'y' | 'heading'> & { id_map: number; osfm_cluster: number };

/** The rooms made from a video, by the keyframe each was made from, with their photos' keys and states. */
export async function videoRoomsByKeyframe(k: Db, videoId: number): Promise<{ id: number; video_keyframe: number; file_key: string | null; status: string }[]> {
  return await k('rooms').where({ id_video: videoId }).select('id', 'video_keyframe', 'file_key', 'status');
}

/** The names of a visit's rooms. */
export async function roomNamesOfVisit(k: Db, visitId: number): Promise<string[]> {
  return await k('rooms').where({ id_visit: visitId }).pluck('name');
}

/** Moves a room made from a video; with a new photo, queues it to be tiled again. */
export async function updateVideoRoom(
  k: Db,
  id: number,
  change: VideoRoomPlace & Partial<Pick<Room, 'status' | 'error' | 'file_key' | 'size_bytes' | 'width' | 'height'>>,
): Promise<void> {
  await k('rooms').where({ id }).update({ ...change, updated_at: k.fn.now() });
}

/** Adds the room of a video keyframe; returns its id. */
export async function insertVideoRoom(
  k: Db,
  row: VideoRoomPlace &
    Pick<Room, 'id_user' | 'name' | 'position' | 'status' | 'original_name' | 'size_bytes' | 'width' | 'height' | 'file_key'> & { id_visit: number; id_video: number; video_keyframe: number },
): Promise<number> {
  const [got] = await k('rooms')
    .insert({ ...row, updated_at: k.fn.now() })
    .returning('id');
  return got.id;
}

/** Of these rooms, those a cluster placed, with their photos' keys. */
export async function roomsOfClusterAmong(k: Db, ids: number[], cluster: number): Promise<Pick<Room, 'id' | 'file_key'>[]> {
  return await k('rooms').whereIn('id', ids).where({ osfm_cluster: cluster }).select('id', 'file_key');
}

/** Deletes these rooms; their hotspots and points of interest go with them. */
export async function deleteRoomRows(k: Db, ids: number[]): Promise<void> {
  await k('rooms').whereIn('id', ids).delete();
}

/** Removes the links between these rooms (those to or from other rooms stay). */
export async function deleteHotspotsAmong(k: Db, ids: number[]): Promise<void> {
  await k('room_hotspots').whereIn('id_room', ids).whereIn('id_room_target', ids).delete();
}

/** Of these rooms, where each sits on its sheet and its photo's state and files. */
export function roomPlacesAndFiles(k: Db, ids: number[]): Promise<Pick<Room, 'id' | 'id_map' | 'x' | 'y' | 'heading' | 'status' | 'file_key' | 'folder'>[]> {
  return k('rooms').whereIn('id', ids).select('id', 'id_map', 'x', 'y', 'heading', 'status', 'file_key', 'folder');
}
