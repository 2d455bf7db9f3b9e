import path from 'node:path';
import sharp from 'sharp';
import type { z } from 'zod';
import { POI_FILE, UPLOAD_LIMITS, normaliseYaw, type Poi as PoiDto, type poiUpdateSchema } from '@sitewalk/proto';
import { type Poi, db } from '../db/index.js';
import { deletePoiRow, insertPoi, lockPoi, patchPoi } from '../repositories/rooms.repository.js';
import { badRequest, notFound, payloadTooLarge } from '../errors.js';
import { detectType, type UploadedFile } from '../uploaded-file.js';
import { newKey, putFile, remove } from '../storage/index.js';
import { toPoiDto, visitFolder } from './rooms-dto.js';
import { checkProjectAddition } from './plan-limits.service.js';
import { removeQuietly, requirePoi, requireRoom } from './visits.service.js';
import type { Actor } from './actor.js';
import { imageSizeWithinLimit } from '../image-size.js';

/** POST /pois: a point of interest in a room. */
export async function createPoi(
  user: Actor,
  input: { id_room: number; title: string; text?: string; link?: string; yaw: number; pitch: number },
): Promise<PoiDto> {
  return db().transaction(async (trx) => {
    let room;
    try {
      ({ room } = await requireRoom(user, input.id_room, 'edit-sheets', trx));
    } catch (err) {
      // The room is named in the body, not the address: say which thing is missing.
      if ((err as { status?: number }).status === 404) throw notFound('Room not found.');
      throw err;
    }
    const poi = await insertPoi(trx, {
      id_room: room.id,
      id_user: user.id,
      title: input.title,
      text: input.text ?? '',
      link: input.link ?? '',
      yaw: normaliseYaw(input.yaw),
      pitch: input.pitch,
    });
    return toPoiDto(poi);
  });
}

/** PUT /pois/{id}: the changed fields. */
export async function updatePoi(user: Actor, poiId: number, patch: z.output<typeof poiUpdateSchema>): Promise<PoiDto> {
  return db().transaction(async (trx) => {
    const { poi } = await requirePoi(user, poiId, 'edit-sheets', trx);
    const change: Partial<Poi> = { ...(patch as Partial<Poi>) };
    if (patch.yaw !== undefined) change.yaw = normaliseYaw(patch.yaw);
    return toPoiDto(await patchPoi(trx, poi.id, change));
  });
}

/** DELETE /pois/{id}: the point of interest, then its file. */
export async function deletePoi(user: Actor, poiId: number): Promise<{ id: number; id_room: number }> {
  const poi = await db().transaction(async (trx) => {
    const { poi } = await requirePoi(user, poiId, 'edit-sheets', trx);
    await deletePoiRow(trx, poi.id);
    return poi;
  });
  await removeQuietly([poi.file_key]);
  return { id: poi.id, id_room: poi.id_room };
}

const displayName = (name: string | null, ext: string) =>
  (path.basename(name ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim() || `file.${ext}`).slice(0, 255);

/** POST /pois/{id}/file: attaches an image or a PDF, checked by its bytes; replaces any earlier one. */
export async function attachPoiFile(user: Actor, poiId: number, file: UploadedFile): Promise<PoiDto> {
  const { visit, poi: before } = await requirePoi(user, poiId, 'edit-sheets');
  const { ext, mime } = await detectType(file, POI_FILE.types, 'an image (JPEG, PNG or WebP) or a PDF');
  if (mime.startsWith('image/')) {
    await imageSizeWithinLimit(file.filepath, () => badRequest('The image could not be read. It may be damaged; try another file.'));
  }
  const grows = (current: { file_size: number | string | null } | undefined) => file.size - Number(current?.file_size ?? 0);
  await checkProjectAddition(db(), user, visit.id_project, { storage_bytes: grows(before) });
  const key = newKey(`${visitFolder(visit.id_project, visit.id)}/pois`, ext);
  await putFile(key, file.filepath);
  let previous: string | null = null;
  try {
    const updated = await db().transaction(async (trx) => {
      const { poi } = await requirePoi(user, poiId, 'edit-sheets', trx);
      const current = await lockPoi(trx, poi.id);
      previous = current?.file_key ?? null;
      await checkProjectAddition(trx, user, visit.id_project, { storage_bytes: grows(current) });
      return patchPoi(trx, poi.id, { file_key: key, file_name: displayName(file.originalFilename, ext), file_mime: mime, file_size: file.size });
    });
    await removeQuietly([previous]);
    return toPoiDto(updated);
  } catch (err) {
    await remove(key);
    throw err;
  }
}

/** DELETE /pois/{id}/file: removes the attached file (nothing to do when there is none). */
export async function detachPoiFile(user: Actor, poiId: number): Promise<PoiDto> {
  const { updated, previous } = await db().transaction(async (trx) => {
    const { poi } = await requirePoi(user, poiId, 'edit-sheets', trx);
    const current = (await lockPoi(trx, poi.id))!;
    if (!current.file_key) return { updated: current, previous: null };
    return {
      updated: await patchPoi(trx, poi.id, { file_key: null, file_name: null, file_mime: null, file_size: null }),
      previous: current.file_key,
    };
  });
  await removeQuietly([previous]);
  return toPoiDto(updated);
}
