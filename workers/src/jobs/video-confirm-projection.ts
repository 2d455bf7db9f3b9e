import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import sharp from 'sharp';
import { normaliseYaw, type VideoPosition } from '@sitewalk/proto';
import { db, type Sheet } from '@sitewalk/core/db';
import { pdfUploadById } from '@sitewalk/core/repositories/pdf-uploads.repository.js';
import { sheetById } from '@sitewalk/core/repositories/sheets.repository.js';
import { lockVisit, touchVisit } from '@sitewalk/core/repositories/visits.repository.js';
import {
  deleteHotspotsAmong,
  deleteRoomRows,
  insertVideoRoom,
  nextRoomPosition,
  roomNamesOfVisit,
  roomsOfClusterAmong,
  updateVideoRoom,
  upsertHotspot,
  videoRoomsByKeyframe,
} from '@sitewalk/core/repositories/rooms.repository.js';
import { enqueue, queue } from '@sitewalk/core/queue';
import { putBuffer, readBuffer, remove, withLocalFile } from '@sitewalk/core/storage';
import { logger } from '@sitewalk/core/logger.js';
import { roomFolder, visitFolder } from '@sitewalk/core/services/rooms-dto.js';
import { roomJobId } from '@sitewalk/core/services/visits.service.js';
import type { StoredProjection } from '@sitewalk/core/services/video-run.service.js';
import type { Handler } from '../registry.js';
import { ProjectionFailed } from '@sitewalk/core/tools/errors.js';
import { runVideoStep, tellOwner } from './video-step.js';
import { areaRoomNames, videoClock, type PlanLabel } from '../video/room-names.js';
import { pageAreaLabels } from '../adapters/pdf-labels.js';

/** How far from a label of the plan a room still counts as standing in its area: a share of the sheet's diagonal (a few metres on a floor plan). */
const AREA_REACH_SHARE = 0.04;

/**
 * The room names of the sheet's plan, when it was drawn from a PDF page
 * that is still stored and still is the sheet's drawing (same size); none
 * otherwise. A plan without texts, or one that cannot be read, only means
 * rooms are named by their time in the video.
 */
async function sheetAreaLabels(map: Sheet): Promise<PlanLabel[]> {
  if (!map.id_upload || !map.page || !map.dpi || !map.width || !map.height) return [];
  try {
    const upload = await pdfUploadById(db(), map.id_upload);
    if (!upload?.file_key) return [];
    const page = await withLocalFile(upload.file_key, (file) => pageAreaLabels(file, map.page!, map.dpi!));
    if (Math.abs(Math.ceil(page.width) - map.width) > 2 || Math.abs(Math.ceil(page.height) - map.height) > 2) return [];
    return page.labels;
  } catch (err) {
    logger.warn({ err, id_map: map.id }, 'could not read the room names of the plan; rooms are named by their time in the video');
    return [];
  }
}

/** Hotspots sit a little below the horizon, where the floor towards the next room is. */
const HOTSPOT_PITCH = -0.3;

const pad = (i: number) => String(i).padStart(4, '0');
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** Bearing from a to b on the sheet (y down), radians clockwise from up. */
const bearing = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.atan2(b.x - a.x, -(b.y - a.y));

/** Where, inside room `from`, the link towards room `to` is shown: the direction the camera moved, relative to the panorama's centre. */
export const hotspotYaw = (from: VideoPosition, to: VideoPosition) => normaliseYaw(bearing(from, to) - from.heading);

interface PlannedRoom {
  pos: VideoPosition;
  time: number;
  key: string;
  data: Buffer;
  hash: string;
  width: number;
  height: number;
}

/**
 * video.confirm-projection: one room per keyframe of the cluster (the 360
 * frame as the room's photo, tiled by room.tiles like an uploaded photo),
 * placed on the sheet with its heading, consecutive rooms linked both ways
 * by hotspots in the direction the camera moved, then a notification.
 * Rooms are keyed by (video, keyframe): confirming again moves them and
 * replaces their links, never duplicates them, and a photo that did not
 * change is not tiled again.
 */
export const videoConfirmProjection: Handler<'video.confirm-projection'> = (data, job) => {
  let placed = { count: 0, sheet: '' };
  return runVideoStep(
    'confirm-projection',
    data,
    job,
    async ({ video, run, progress }) => {
      const projection = (run.artifacts.projections ?? []).find((p) => p.osfm_cluster === data.osfm_cluster && p.id_map === data.id_map);
      if (!projection) throw new ProjectionFailed('This cluster has not been laid on that sheet; project the points first.');
      const map = await sheetById(db(), data.id_map);
      if (!map || map.id_project !== video.id_project) throw new ProjectionFailed('The sheet is gone; choose another sheet.');
      const edits = new Map(data.positions.map((p) => [p.keyframe, p]));
      const positions = projection.positions.map((p) => {
        const e = edits.get(p.keyframe);
        return e ? { keyframe: p.keyframe, x: e.x, y: e.y, heading: normaliseYaw(e.heading ?? p.heading) } : p;
      });
      const frames = new Map((run.artifacts.keyframes ?? []).map((k) => [k.index, k]));
      const folder = visitFolder(video.id_project, video.id_visit);

      progress(5, 'Preparing the room photos');
      const planned: PlannedRoom[] = [];
      for (const [i, pos] of positions.entries()) {
        const frame = frames.get(pos.keyframe);
        if (!frame) throw new ProjectionFailed(`Keyframe ${pos.keyframe} has no image; process the video again.`);
        const buf = await readBuffer(frame.image_key);
        const meta = await sharp(buf).metadata();
        planned.push({ pos, time: frame.time, key: `${folder}/originals/video-${video.id}-kf${pad(pos.keyframe)}.jpg`, data: buf, hash: sha(buf), width: meta.width ?? video.width, height: meta.height ?? video.height });
        progress(5 + (45 * (i + 1)) / positions.length, `Preparing the room photos (${i + 1} of ${positions.length})`);
      }

      const labels = await sheetAreaLabels(map);
      const reach = AREA_REACH_SHARE * Math.hypot(map.width ?? 0, map.height ?? 0);
      progress(50, 'Placing the rooms on the sheet');
      const k = db();
      const { ids, toTile, gone } = await k.transaction(async (trx) => {
        // The visit's lock orders this with uploads and other confirmations (room positions in the visit).
        const visit = await lockVisit(trx, video.id_visit);
        if (!visit) throw new ProjectionFailed('The visit was deleted.');
        const existing = await videoRoomsByKeyframe(trx, video.id);
        const byKeyframe = new Map(existing.map((r) => [r.video_keyframe, r]));
        let position = await nextRoomPosition(trx, video.id_visit);
        // New rooms are named by the area of the plan they stand in, else by their time in the video, never
        // as another room of the visit; rooms made before keep their names.
        const fresh = planned.filter((p) => !byKeyframe.has(p.pos.keyframe));
        const taken = await roomNamesOfVisit(trx, video.id_visit);
        const names = areaRoomNames(fresh.map((p) => ({ x: p.pos.x, y: p.pos.y, time: p.time })), labels, reach, taken);
        const freshNames = new Map(names.map((name, i) => [fresh[i], name]));
        const ids: number[] = [];
        const toTile: { id: number }[] = [];
        for (const p of planned) {
          const place = { id_map: map.id, x: p.pos.x, y: p.pos.y, heading: p.pos.heading, osfm_cluster: data.osfm_cluster };
          const have = byKeyframe.get(p.pos.keyframe);
          if (have) {
            const same = have.file_key === p.key && (await readBuffer(p.key).then(sha, () => '')) === p.hash && have.status !== 'failed';
            await updateVideoRoom(trx, have.id, same ? place : { ...place, status: 'queued', error: null, file_key: p.key, size_bytes: p.data.length, width: p.width, height: p.height });
            ids.push(have.id);
            if (!same) toTile.push({ id: have.id });
          } else {
            const id = await insertVideoRoom(trx, {
              ...place,
              id_visit: video.id_visit,
              id_user: data.id_user ?? video.id_user,
              id_video: video.id,
              video_keyframe: p.pos.keyframe,
              name: freshNames.get(p)!,
              position: position++,
              status: 'queued',
              original_name: `${video.original_name} @ ${videoClock(p.time, 1)}`.slice(0, 255),
              size_bytes: p.data.length,
              width: p.width,
              height: p.height,
              file_key: p.key,
            });
            ids.push(id);
            toTile.push({ id });
          }
        }
        // Rooms this cluster made before for keyframes it no longer has.
        const keep = new Set(planned.map((p) => p.pos.keyframe));
        const stale = existing.filter((r) => !keep.has(r.video_keyframe) && !ids.includes(r.id));
        const staleOfCluster = stale.length ? await roomsOfClusterAmong(trx, stale.map((r) => r.id), data.osfm_cluster) : [];
        if (staleOfCluster.length) await deleteRoomRows(trx, staleOfCluster.map((r) => r.id));
        // The links between these rooms are made again: consecutive rooms, both ways.
        await deleteHotspotsAmong(trx, ids);
        for (let i = 1; i < planned.length; i++) {
          const a = planned[i - 1].pos;
          const b = planned[i].pos;
          for (const [from, to, fromPos, toPos] of [[ids[i - 1], ids[i], a, b], [ids[i], ids[i - 1], b, a]] as const) {
            await upsertHotspot(trx, { id_room: from, id_room_target: to, yaw: hotspotYaw(fromPos, toPos), pitch: HOTSPOT_PITCH });
          }
        }
        // Photos are written inside the transaction's span: a failure before commit leaves new files only (named by keyframe, overwritten next time).
        for (const p of planned) await putBuffer(p.key, p.data);
        await touchVisit(trx, video.id_visit);
        return { ids, toTile, gone: staleOfCluster };
      });
      for (const r of gone) await remove(roomFolder(video.id_project, video.id_visit, r.id)).catch(() => undefined);

      progress(80, 'Queuing the rooms for the viewer');
      for (const t of toTile) {
        // The rooms' own job id (the visits service looks a room's job up by it); a finished job of an earlier photo
        // would make the new one a no-op, so it goes first. A photo that did not change is not in toTile.
        const old = await queue('rooms').getJob(roomJobId(t.id));
        if (old && ['completed', 'failed'].includes(await old.getState())) await old.remove();
        await enqueue('room.tiles', { id_room: t.id, id_user: data.id_user }, { jobId: roomJobId(t.id) });
      }
      logger.info({ video_id: video.id, rooms: ids.length, tiled: toTile.length, removed: gone.length }, 'video projection confirmed');
      placed = { count: ids.length, sheet: map.name };
      const confirmed: StoredProjection = { ...projection, positions, confirmed_at: new Date().toISOString(), room_ids: ids };
      return {
        type: 'done',
        step: 'confirm-projection',
        message: `${ids.length} rooms placed on "${map.name}"`,
        artifacts: { projections: (run.artifacts.projections ?? []).map((p) => (p === projection ? confirmed : p)) },
        detail: { osfm_cluster: data.osfm_cluster, id_map: map.id },
      };
    },
    (video, run) =>
      tellOwner(video, run, `${placed.count} rooms from the walk-through video were placed on "${placed.sheet}" and linked in walking order.`, 'success', 'Rooms placed from the video', `confirm-${data.osfm_cluster}-${data.id_map}-${Date.now()}`),
  );
};
