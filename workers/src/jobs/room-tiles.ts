import crypto from 'node:crypto';
import { UnrecoverableError, type Job } from 'bullmq';
import { projectRoom, userRoom, type JobOf, type JobProgressEvent, type RoomStatus, type RoomTilesProgressDetail } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { patchRoom, roomExists, tilingSubject } from '@sitewalk/core/repositories/rooms.repository.js';
import { remove, withLocalFile, withLocalFolder } from '@sitewalk/core/storage';
import { emitTo } from '@sitewalk/core/realtime';
import { logger } from '@sitewalk/core/logger.js';
import { roomFolder } from '@sitewalk/core/services/rooms-dto.js';
import { PanoramaRejected, writePanorama } from '../adapters/panorama-tiles.js';

export interface RoomTilesResult {
  status: 'done' | 'skipped';
  reason?: string;
  tiles?: number;
}

const JOB = 'room.tiles';
const UNEXPECTED = 'The photo could not be prepared for the viewer because of an error on our side. Delete the room and upload the photo again later.';

interface Audience {
  projectId: number;
  visitId: number;
  users: number[];
}

/** Tells the uploader's and the owner's browsers, and everyone watching the project, where the room stands. */
function report(room: { id: number }, to: Audience, state: JobProgressEvent['state'], percent: number, message: string, status: RoomStatus) {
  const detail: RoomTilesProgressDetail = { id_visit: to.visitId, id_room: room.id, status };
  const event: JobProgressEvent = {
    job: JOB,
    subject: { kind: 'room', id: room.id },
    project_id: to.projectId,
    state,
    percent: Math.max(0, Math.min(100, Math.round(percent))),
    message,
    detail: { ...detail },
  };
  for (const userId of new Set(to.users)) emitTo(userRoom(userId), 'job:progress', event);
  emitTo(projectRoom(to.projectId), 'job:progress', event);
}

/**
 * room.tiles: turns a room's uploaded 360 photo into the tile pyramid, base
 * panorama and thumbnail the viewer loads (adapters/panorama-tiles.ts), and
 * marks the room ready. Each run writes a fresh folder and switches the room
 * to it only at the end, so a viewer never sees half a pyramid. Idempotent: a
 * ready room is left as it is; a retry after a crash starts over cleanly. A
 * photo that cannot be a panorama (damaged, not 2:1) fails the room at once
 * with the reason; other errors are retried, and the last one fails the room.
 */
export async function roomTiles(data: JobOf<'room.tiles'>, job: Job<JobOf<'room.tiles'>>): Promise<RoomTilesResult> {
  const log = logger.child({ job: JOB, room_id: data.id_room });
  const room = await tilingSubject(db(), data.id_room);
  if (!room || !room.id_visit) return { status: 'skipped', reason: 'the room no longer exists' };
  if (room.status === 'ready' && room.folder) return { status: 'skipped', reason: 'the room is already ready' };
  if (room.status === 'failed') return { status: 'skipped', reason: 'the room already failed' };
  if (room.id_project === null) return { status: 'skipped', reason: 'the visit no longer exists' };
  const to: Audience = {
    projectId: room.id_project,
    visitId: room.id_visit,
    users: [data.id_user ?? room.id_user, room.id_owner].filter((u): u is number => !!u),
  };
  const folders = roomFolder(room.id_project, room.id_visit, room.id);
  const generation = `${folders}/${crypto.randomBytes(6).toString('hex')}`;
  try {
    if (!room.file_key) throw new PanoramaRejected('The photo is no longer stored. Delete the room and upload the photo again.');
    // Files of an earlier run that crashed belong to no ready room.
    if (!room.folder) await remove(folders);
    const started = performance.now();
    // The room is marked as being processed while libvips already cuts: the cut is the job's
    // whole work and does not wait for the database.
    const marking = patchRoom(db(), room.id, { status: 'processing', error: null }).then(() => report(room, to, 'active', 5, 'Cutting tiles', 'processing'));
    // On local disk libvips writes straight into the new generation's folder; on S3 into a scratch
    // folder uploaded when the cut is done. Nobody is shown it until the room's row names it.
    const photoKey = room.file_key;
    const cutting = withLocalFile(photoKey, (photo) => withLocalFolder(generation, (dir) => writePanorama(photo, dir)));
    const [cut, marked] = await Promise.allSettled([cutting, marking]);
    // Both settle first, so a failure recorded below is never overwritten by a late "processing".
    if (cut.status === 'rejected') throw cut.reason;
    if (marked.status === 'rejected') throw marked.reason;
    const images = cut.value;
    const cutMs = performance.now() - started;
    await job.updateProgress({ percent: 90 });
    const updated = await patchRoom(db(), room.id, { status: 'ready', error: null, folder: generation, tile_size: images.tileSize, levels: images.levels, pano_width: images.width });
    if (!updated) {
      // The room (or its visit or project) was deleted while it was tiled: keep it deleted.
      await remove(folders);
      return { status: 'skipped', reason: 'the room was deleted while it was processed' };
    }
    if (room.folder && room.folder !== generation) await remove(room.folder);
    report(room, to, 'completed', 100, 'Ready', 'ready');
    log.info({ tiles: images.tiles, width: images.width, cut_ms: Math.round(cutMs), total_ms: Math.round(performance.now() - started) }, 'room tiles made');
    return { status: 'done', tiles: images.tiles };
  } catch (err) {
    const refused = err instanceof PanoramaRejected;
    const lastAttempt = refused || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    // This attempt's files; with no earlier ready generation, the room's folder too (nothing else is in it).
    await remove(room.folder ? generation : folders).catch(() => undefined);
    if (!(await roomExists(db(), room.id))) {
      await remove(folders).catch(() => undefined);
      return { status: 'skipped', reason: 'the room was deleted while it was processed' };
    }
    if (!lastAttempt) {
      log.warn({ err, attempt: job.attemptsMade + 1 }, 'room tiling failed; it will be retried');
      throw err;
    }
    const reason = refused ? (err as Error).message : UNEXPECTED;
    if (!refused) log.error({ err }, 'room tiling failed for good');
    await patchRoom(db(), room.id, { status: 'failed', error: reason });
    report(room, to, 'failed', 0, reason, 'failed');
    throw refused ? new UnrecoverableError(reason) : err;
  }
}
