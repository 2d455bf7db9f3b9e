import path from 'node:path';
import sharp from 'sharp';
import type { z } from 'zod';
import { ROOM_IMAGE, normaliseYaw, type Poi as PoiDto, type Room as RoomDto, type roomUpdateSchema } from '@sitewalk/proto';
import { type Room, db } from '../db/index.js';
import { deleteRoomRow, insertRoom, nextRoomPosition, patchRoom, poiFileKeys, poisOfRoom, roomById } from '../repositories/rooms.repository.js';
import { sheetById } from '../repositories/sheets.repository.js';
import { lockVisit, touchVisit } from '../repositories/visits.repository.js';
import { HttpError, badRequest, payloadTooLarge, unprocessable } from '../errors.js';
import { detectType, type UploadedFile } from '../uploaded-file.js';
import { enqueue } from '../queue/index.js';
import { newKey, putFile, remove } from '../storage/index.js';
import { logger } from '../logger.js';
import { roomDtos, roomFolder, toPoiDto, visitFolder } from './rooms-dto.js';
import { checkProjectAddition } from './plan-limits.service.js';
import { removeQuietly, requireRoom, requireVisit, roomJobId, settleLostRooms } from './visits.service.js';
import type { Actor } from './actor.js';

export const ROOM_MIMES = ['image/jpeg', 'image/png', 'image/webp'] as const;

const UNREADABLE = 'The photo could not be read. It may be damaged; try another file.';

/** A file name fit for showing back (never used as a storage name). */
const displayName = (name: string | null) => (path.basename(name ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'photo.jpg').slice(0, 255);
/** The room's default name: the file name without its extension. */
const nameFromFile = (name: string) => name.replace(/\.[a-z0-9]{1,5}$/i, '').trim().slice(0, 200) || 'Room';

/**
 * Checks a 360 photo before it is stored: its type by its bytes, then its
 * size from the header alone (nothing is decoded here): at most
 * ROOM_IMAGE.maxPixels, equirectangular (twice as wide as high, within 1 %)
 * and at least ROOM_IMAGE.minWidth wide.
 */
export async function checkPanorama(file: UploadedFile): Promise<{ ext: string; width: number; height: number }> {
  const { ext } = await detectType(file, ROOM_MIMES, 'a JPEG, PNG or WebP photo');
  let meta: sharp.Metadata;
  try {
    meta = await sharp(file.filepath, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(UNREADABLE);
  }
  const { width, height } = meta;
  if (!width || !height) throw badRequest(UNREADABLE);
  if (width * height > ROOM_IMAGE.maxPixels || width > ROOM_IMAGE.maxWidth) {
    throw payloadTooLarge(
      `The photo is too large: ${width} × ${height} pixels. The largest 360 photo accepted is 16384 × 8192 (134 megapixels); reduce it and upload it again.`,
    );
  }
  if (Math.abs(width / height - 2) > 2 * ROOM_IMAGE.ratioTolerance) {
    throw unprocessable(
      `This photo is ${width} × ${height} pixels, so it is not a 360 photo. A 360 photo (equirectangular) is exactly twice as wide as it is high; export it from the camera's app as an equirectangular JPEG.`,
    );
  }
  if (width < ROOM_IMAGE.minWidth) {
    throw unprocessable(`This 360 photo is only ${width} × ${height} pixels. Upload one at least ${ROOM_IMAGE.minWidth} × ${ROOM_IMAGE.minWidth / 2}.`);
  }
  return { ext, width, height };
}

/**
 * POST /rooms: stores the photo under a server-chosen name, adds the room at
 * the end of the visit (status queued) and queues its tiling.
 */
export async function acceptRoomUpload(user: Actor, fields: { id_visit: number; name?: string }, file: UploadedFile): Promise<RoomDto> {
  const { visit } = await requireVisit(user, fields.id_visit, 'upload');
  const image = await checkPanorama(file);
  const original = displayName(file.originalFilename);
  await checkProjectAddition(db(), user, visit.id_project, { storage_bytes: file.size });
  const key = newKey(`${visitFolder(visit.id_project, visit.id)}/originals`, image.ext);
  await putFile(key, file.filepath);
  let room: Room;
  try {
    room = await db().transaction(async (trx) => {
      // The visit may have gone while the file was read; its lock also orders concurrent uploads.
      if (!(await lockVisit(trx, visit.id))) throw new HttpError(404, 'Visit not found.');
      await checkProjectAddition(trx, user, visit.id_project, { storage_bytes: file.size });
      const inserted = await insertRoom(trx, {
        id_visit: visit.id,
        id_user: user.id,
        name: fields.name ?? nameFromFile(original),
        position: await nextRoomPosition(trx, visit.id),
        status: 'queued',
        original_name: original,
        size_bytes: file.size,
        width: image.width,
        height: image.height,
        file_key: key,
      });
      await touchVisit(trx, visit.id);
      return inserted;
    });
  } catch (err) {
    await remove(key);
    throw err;
  }
  try {
    await enqueue('room.tiles', { id_room: room.id, id_user: user.id }, { jobId: roomJobId(room.id) });
  } catch (err) {
    logger.error({ err, room_id: room.id }, 'could not queue the room tiling job');
    await deleteRoomRow(db(), room.id);
    await remove(key);
    throw new HttpError(503, 'The photo could not be queued for processing. Please try again in a moment.');
  }
  return (await roomDtos([room]))[0];
}

export async function getRoom(user: Actor, roomId: number): Promise<RoomDto> {
  await requireRoom(user, roomId, 'read');
  await settleLostRooms({ id: roomId });
  return (await roomDtos([(await roomById(db(), roomId))!]))[0];
}

/** PUT /rooms/{id}: name, and the sheet placement (a sheet of the visit's project, inside its image). */
export async function updateRoom(user: Actor, roomId: number, patch: z.output<typeof roomUpdateSchema>): Promise<RoomDto> {
  return db().transaction(async (trx) => {
    const { room, visit } = await requireRoom(user, roomId, 'edit-sheets', trx);
    const change: Partial<Room> = {};
    if (patch.name !== undefined) change.name = patch.name;
    let mapId = room.id_map;
    if (patch.id_map !== undefined) {
      mapId = patch.id_map;
      change.id_map = mapId;
      if (mapId === null) Object.assign(change, { x: null, y: null, heading: null });
    }
    const placing = patch.x !== undefined || patch.heading !== undefined;
    if (placing && mapId === null) throw badRequest('Choose the sheet (id_map) the room is placed on.');
    if (mapId !== null && (patch.id_map !== undefined || placing)) {
      const map = await sheetById(trx, mapId);
      if (!map || map.id_project !== visit.id_project) throw badRequest('This sheet is not in the visit\'s project.');
      if (patch.x != null && patch.y != null && map.width && map.height && (patch.x < 0 || patch.y < 0 || patch.x > map.width || patch.y > map.height)) {
        throw badRequest(`The room is outside the sheet: positions go from 0,0 to ${map.width},${map.height}.`);
      }
    }
    if (patch.x !== undefined) Object.assign(change, { x: patch.x, y: patch.y ?? null });
    if (patch.heading !== undefined) change.heading = patch.heading === null ? null : normaliseYaw(patch.heading);
    await patchRoom(trx, room.id, change);
    return (await roomDtos([(await roomById(trx, room.id))!], trx))[0];
  });
}

/** DELETE /rooms/{id}: the room, its hotspots (both ways) and points of interest; then its files. */
export async function deleteRoom(user: Actor, roomId: number): Promise<{ id: number; id_visit: number }> {
  const { keys, visitId } = await db().transaction(async (trx) => {
    const { room, visit } = await requireRoom(user, roomId, 'edit-sheets', trx);
    const poiFiles = await poiFileKeys(trx, room.id);
    await deleteRoomRow(trx, room.id);
    await touchVisit(trx, visit.id);
    return { keys: [room.file_key, roomFolder(visit.id_project, visit.id, room.id), ...poiFiles], visitId: visit.id };
  });
  await removeQuietly(keys);
  return { id: roomId, id_visit: visitId };
}

/** GET /rooms/{id}/pois: the room's points of interest, oldest first. */
export async function roomPois(user: Actor, roomId: number): Promise<PoiDto[]> {
  const { room } = await requireRoom(user, roomId, 'read');
  return (await poisOfRoom(db(), room.id)).map(toPoiDto);
}
