import type { Knex } from 'knex';
import crypto from 'node:crypto';
import path from 'node:path';
import type { z } from 'zod';
import {
  JOB_POLICIES,
  VIDEO_LIMITS,
  VIDEO_STEP_JOBS,
  type VideoDeleteResponse,
  type VideoDetail,
  type VideoStep,
  type confirmProjectionSchema,
  type projectPointsSchema,
} from '@sitewalk/proto';
// The pipeline's own ffprobe adapter: the upload is checked by the program the steps use.
import { probeVideo, probeVideoAt, type VideoProbe } from '../tools/ffprobe.js';
import { ToolMissing, VideoRejected } from '../tools/errors.js';
import { type Sheet, type Video, db } from '../db/index.js';
import { deleteVideoRow, insertVideo, videoById, videoOfVisit } from '../repositories/videos.repository.js';
import { poiFileKeysOfRooms, roomsOfVideo } from '../repositories/rooms.repository.js';
import { lockVisit, touchVisit } from '../repositories/visits.repository.js';
import { sheetById } from '../repositories/sheets.repository.js';
import { HttpError, conflict, notFound, unprocessable } from '../errors.js';
import { TYPE_HEAD_BYTES, detectType, detectTypeOfHead, type UploadedFile } from '../uploaded-file.js';
import { enqueue, queue } from '../queue/index.js';
import { putFile, remove, signedUrl } from '../storage/index.js';
import type { S3Driver } from '../storage/s3-driver.js';
import { logger } from '../logger.js';
import { config } from '../config.js';
import { roomFolder, visitFolder } from './rooms-dto.js';
import { removeQuietly, requireVisit } from './visits.service.js';
import { canEditSheets, type ProjectNeed } from './access.service.js';
import { createRun, moveRun, readRun, reconcileRun, toRunDto, videoJobId, type RunRow } from './video-run.service.js';
import { checkProjectAddition } from './plan-limits.service.js';
import type { Actor } from './actor.js';
import { iso, type Db } from '../db/query-types.js';

export { videoJobId };

/** Containers accepted, by their bytes (file-type); ffprobe then reads what is inside. */
export const VIDEO_MIMES = ['video/mp4', 'video/quicktime', 'video/x-m4v', 'video/x-matroska', 'video/webm', 'video/x-msvideo', 'video/mp2t'] as const;

/** The largest upload: VIDEO_MAX_BYTES, else VIDEO_LIMITS.defaultMaxBytes. */
export const videoMaxBytes = (env: NodeJS.ProcessEnv = process.env): number => {
  const v = env.VIDEO_MAX_BYTES;
  return v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : VIDEO_LIMITS.defaultMaxBytes;
};

/** Storage folder of one uploaded video (a new one per upload, so a replaced video's files never mix). */
export const videoFolder = (projectId: number, visitId: number, token: string) => `${visitFolder(projectId, visitId)}/videos/${token}`;
/** Where the steps write their outputs, below the video's folder. */
export const videoWorkFolder = (v: { folder: string }) => `${v.folder}/work`;

const displayName = (name: string | null) => (path.basename(name ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'video.mp4').slice(0, 255);
const minutes = (s: number) => (s >= 60 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${s.toFixed(1)} s`);

/** A video already in the bucket under its final key (a resumable upload received there), to be checked and accepted where it is. */
export interface StoredVideo {
  bucket: S3Driver;
  storedKey: string;
  size: number;
  originalFilename: string | null;
}

/**
 * Checks an uploaded video before it is kept: a video container by its bytes
 * (415 otherwise), then ffprobe — a picture stream, a length, a size (422
 * with the reason otherwise). Only the headers are read: this is quick, and
 * tells the user at once instead of minutes later in the worker.
 */
export async function checkVideo(source: UploadedFile | StoredVideo): Promise<{ ext: string; probe: VideoProbe }> {
  let ext: string;
  let probe: VideoProbe;
  try {
    if ('storedKey' in source) {
      // Received straight into the bucket: its first bytes, then ffprobe reading the ranges it needs over a presigned URL.
      const { bucket } = source;
      ({ ext } = await detectTypeOfHead(await bucket.readRange(source.storedKey, 0, Math.min(TYPE_HEAD_BYTES, source.size)), VIDEO_MIMES, 'a video'));
      probe = await probeVideoAt(await bucket.serverUrl(source.storedKey, 600), source.size);
    } else {
      ({ ext } = await detectType(source, VIDEO_MIMES, 'a video'));
      probe = await probeVideo(source.filepath);
    }
  } catch (err) {
    if (err instanceof VideoRejected) throw unprocessable(err.message);
    if (err instanceof ToolMissing) {
      logger.error({ err: err.message }, 'ffprobe missing: videos cannot be checked');
      throw new HttpError(503, 'Videos cannot be checked on this server right now (ffprobe is not installed). Please tell the administrator.');
    }
    throw err;
  }
  if (probe.duration < VIDEO_LIMITS.minSeconds) {
    throw unprocessable(`This video lasts ${probe.duration.toFixed(1)} s. A walk-through video must last at least ${VIDEO_LIMITS.minSeconds} s.`);
  }
  return { ext, probe };
}

/** The stored files of rooms: their photos, tile folders and their points of interest's files. */
async function roomFiles(rooms: { id: number; file_key: string | null }[], projectId: number, visitId: number, k: Db): Promise<string[]> {
  if (!rooms.length) return [];
  const poiFiles = await poiFileKeysOfRooms(k, rooms.map((r) => r.id));
  return [...rooms.flatMap((r) => [r.file_key, roomFolder(projectId, visitId, r.id)]), ...poiFiles].filter((x): x is string => !!x);
}

/** Removes a video row (its run and its rooms go with it, by the schema) and returns the files to remove after commit. */
async function dropVideo(video: Video, k: Db): Promise<{ keys: string[]; rooms: number }> {
  const rooms = await roomsOfVideo(k, video.id);
  const keys = [...(await roomFiles(rooms, video.id_project, video.id_visit, k)), video.folder];
  await deleteVideoRow(k, video.id);
  return { keys, rooms: rooms.length };
}

/** The state of a step's job in its queue ('unknown' when the queue no longer has it). */
async function jobState(step: VideoStep, jobId: string): Promise<string> {
  const job = await queue(JOB_POLICIES[VIDEO_STEP_JOBS[step]].queue).getJob(jobId);
  return job ? await job.getState() : 'unknown';
}

export async function toDetail(video: Video, canEdit: boolean, k: Db = db()): Promise<VideoDetail> {
  const run = await reconcileRun((await readRun(video.id, k))!, jobState).catch(async (err) => {
    logger.warn({ err, video_id: video.id }, 'could not check the jobs of a video run');
    return (await readRun(video.id, k))!;
  });
  return {
    id: video.id,
    id_visit: video.id_visit,
    id_project: video.id_project,
    original_name: video.original_name,
    size_bytes: Number(video.size_bytes),
    codec: video.codec,
    duration: video.duration,
    width: video.width,
    height: video.height,
    fps: video.fps,
    rotation: video.rotation,
    kind: video.is_360 ? '360' : 'flat',
    url: signedUrl(video.file_key),
    max_bytes: videoMaxBytes(),
    can_edit: canEdit,
    run: toRunDto(run),
    created_at: iso(video.created_at),
  };
}

/**
 * POST /visits/{id}/video: checks the file, moves it (already on disk, never
 * in memory) into storage, and replaces the visit's previous video with
 * everything made from it. A resumable upload received straight into the
 * bucket comes as a `StoredVideo`: checked where it is and kept under its
 * key, in the visit's video folder the upload was created for.
 */
export async function acceptVideoUpload(
  user: Actor,
  visitId: number,
  source: UploadedFile | StoredVideo,
  /** Runs in the transaction that makes the video (a resumable upload records it was accepted, exactly once). */
  inTransaction?: (trx: Knex.Transaction, video: Video) => Promise<void>,
): Promise<VideoDetail> {
  const { visit } = await requireVisit(user, visitId, 'upload');
  const { ext, probe } = await checkVideo(source);
  const size = source.size;
  // A new video replaces the visit's earlier one: only the difference counts against the plan.
  const growth = (previous: Video | undefined) => ({
    storage_bytes: size - Number(previous?.size_bytes ?? 0),
    video_seconds: probe.duration - (previous?.duration ?? 0),
  });
  await checkProjectAddition(db(), user, visit.id_project, growth(await videoOfVisit(db(), visit.id)));
  let folder: string;
  let key: string;
  if ('storedKey' in source) {
    key = source.storedKey;
    folder = key.slice(0, key.lastIndexOf('/'));
    if (!folder.startsWith(`${visitFolder(visit.id_project, visit.id)}/videos/`)) throw new Error('a stored video outside its visit\'s folder');
  } else {
    folder = videoFolder(visit.id_project, visit.id, crypto.randomUUID());
    key = `${folder}/source.${ext}`;
    await putFile(key, source.filepath);
  }
  let old: { keys: string[] } = { keys: [] };
  let video: Video;
  try {
    video = await db().transaction(async (trx) => {
      // Locks the visit: two uploads at once end with one video, and the visit may have gone meanwhile.
      const current = await lockVisit(trx, visit.id);
      if (!current) throw notFound('Visit not found.');
      const previous = await videoOfVisit(trx, visit.id);
      await checkProjectAddition(trx, user, visit.id_project, growth(previous));
      if (previous) old = await dropVideo(previous, trx);
      const inserted = await insertVideo(trx, {
        id_visit: visit.id,
        id_project: visit.id_project,
        id_user: user.id,
        original_name: displayName(source.originalFilename),
        size_bytes: size,
        folder,
        file_key: key,
        codec: probe.codec.slice(0, 40),
        duration: probe.duration,
        width: probe.width,
        height: probe.height,
        fps: probe.fps,
        rotation: probe.rotation,
        is_360: probe.is360,
      });
      await createRun(inserted.id, trx);
      await touchVisit(trx, visit.id);
      await inTransaction?.(trx, inserted);
      return inserted;
    });
  } catch (err) {
    // Bytes stored here go; bytes received into the bucket are the caller's to keep for another try or to drop.
    if (!('storedKey' in source)) await remove(folder);
    throw err;
  }
  await removeQuietly(old.keys);
  logger.info({ video_id: video.id, visit_id: visit.id, bytes: size, duration: probe.duration, size: `${probe.width}x${probe.height}` }, 'video uploaded');
  return toDetail(video, true);
}

/** A visit's video and the access to its project; 404 when the visit has none. */
async function requireVisitVideo(user: Actor, visitId: number, need: ProjectNeed, k: Db = db()) {
  const { visit, access } = await requireVisit(user, visitId, need, k);
  const video = await videoOfVisit(k, visit.id);
  if (!video) throw notFound('This visit has no video.');
  return { visit, video, access };
}

/** A video by id (through its visit's access); 404 for one the user may not see. */
async function requireVideo(user: Actor, videoId: number, need: ProjectNeed) {
  const video = await videoById(db(), videoId);
  if (!video) throw notFound('Video not found.');
  try {
    return await requireVisitVideo(user, video.id_visit, need);
  } catch (err) {
    if ((err as { status?: number }).status === 404) throw notFound('Video not found.');
    throw err;
  }
}

/** GET /visits/{id}/video: the video and its run, or null when the visit has none. */
export async function getVisitVideo(user: Actor, visitId: number): Promise<VideoDetail | null> {
  const { visit, access } = await requireVisit(user, visitId, 'read');
  const video = await videoOfVisit(db(), visit.id);
  return video ? toDetail(video, canEditSheets(access)) : null;
}

/** DELETE /visits/{id}/video/delete: the video, its run, its files and the rooms made from it. */
export async function deleteVisitVideo(user: Actor, visitId: number): Promise<VideoDeleteResponse> {
  const { keys, videoId, rooms } = await db().transaction(async (trx) => {
    const { visit, video } = await requireVisitVideo(user, visitId, 'edit-sheets', trx);
    await lockVisit(trx, visit.id);
    const dropped = await dropVideo(video, trx);
    await touchVisit(trx, visit.id);
    return { ...dropped, videoId: video.id };
  });
  // A step still running finds the run gone and stops (moveRun answers null).
  await removeQuietly(keys);
  return { id_visit: visitId, id_video: videoId, rooms_removed: rooms };
}

const busy = (run: RunRow, step: VideoStep) => ['queued', 'active'].includes(run.steps[step]?.status ?? '');

/** Queues a step's job; when the queue cannot be reached, the run says so (failed) and the caller gets a 503. */
async function queueStep(videoId: number, generation: number, step: VideoStep, enqueueIt: () => Promise<unknown>): Promise<void> {
  try {
    await enqueueIt();
  } catch (err) {
    logger.error({ err, video_id: videoId, step }, 'could not queue a video step');
    await moveRun(videoId, generation, { type: 'failed', step, reason: 'The step could not be queued. Please try again in a moment.' });
    throw new HttpError(503, 'The video could not be queued for processing. Please try again in a moment.');
  }
}

/** POST /python/videos/process: starts the run again from the first step (a new generation). */
export async function startProcessing(user: Actor, videoId: number): Promise<VideoDetail> {
  const { video, access } = await requireVideo(user, videoId, 'edit-sheets');
  const run = await moveRun(video.id, null, { type: 'start', userId: user.id });
  if (!run) throw notFound('Video not found.');
  await queueStep(video.id, run.generation, 'process', () =>
    enqueue('video.process', { id_video: video.id, generation: run.generation, id_user: user.id }, { jobId: videoJobId(video.id, run.generation, 'process', 'start') }),
  );
  return toDetail(video, canEditSheets(access));
}

/** POST /python/videos/generate-ply: structure-from-motion again on the processed keyframes. */
export async function startGeneratePly(user: Actor, input: { video_id: number; visit_id: number }): Promise<VideoDetail> {
  const { video, access } = await requireVideo(user, input.video_id, 'edit-sheets');
  if (video.id_visit !== input.visit_id) throw notFound('This video is not the video of that visit.');
  const run = (await readRun(video.id))!;
  if (run.steps.process?.status !== 'done') throw conflict('Process the video first: its keyframes are not ready.');
  if (busy(run, 'generate-ply')) throw conflict('The point cloud is already being made.');
  const jobId = videoJobId(video.id, run.generation, 'generate-ply', String(Date.now()));
  await moveRun(video.id, run.generation, { type: 'queued', step: 'generate-ply', userId: user.id, jobId });
  await queueStep(video.id, run.generation, 'generate-ply', () =>
    enqueue('video.generate-ply', { id_video: video.id, generation: run.generation, id_user: user.id }, { jobId }),
  );
  return toDetail(video, canEditSheets(access));
}

/** The sheet a projection is made on: of the video's project, ready, with a size. */
async function sheetForProjection(mapId: number, projectId: number): Promise<Sheet> {
  const map = await sheetById(db(), mapId);
  if (!map || map.id_project !== projectId) throw notFound('Sheet not found.');
  if (map.status !== 'ready' || !map.width || !map.height) throw conflict('This sheet is not ready yet: wait until its plan is processed.');
  return map;
}

/** POST /python/videos/project-points: lays a cluster on a sheet (proposal + preview). */
export async function startProjectPoints(user: Actor, input: z.output<typeof projectPointsSchema>): Promise<VideoDetail> {
  const { video, access } = await requireVisitVideo(user, input.id_visit, 'edit-sheets');
  const run = (await readRun(video.id))!;
  if (run.steps['generate-ply']?.status !== 'done') throw conflict('Generate the point cloud first.');
  const cluster = (run.artifacts.clusters ?? []).find((c) => c.osfm_cluster === input.osfmCluster);
  if (!cluster) throw unprocessable(`This video has no cluster ${input.osfmCluster}. Its clusters: ${(run.artifacts.clusters ?? []).map((c) => c.osfm_cluster).join(', ') || 'none'}.`);
  await sheetForProjection(input.id_map, video.id_project);
  const bad = (input.control_points ?? []).find((c) => !cluster.keyframes.includes(c.keyframe));
  if (bad) throw unprocessable(`Keyframe ${bad.keyframe} is not in cluster ${input.osfmCluster}.`);
  if (busy(run, 'project-points') || busy(run, 'confirm-projection')) throw conflict('A projection of this video is already being made; wait for it to finish.');
  const jobId = videoJobId(video.id, run.generation, 'project-points', String(Date.now()));
  await moveRun(video.id, run.generation, { type: 'queued', step: 'project-points', userId: user.id, jobId });
  await queueStep(video.id, run.generation, 'project-points', () =>
    enqueue(
      'video.project-points',
      {
        id_video: video.id,
        generation: run.generation,
        id_user: user.id,
        osfm_cluster: input.osfmCluster,
        id_map: input.id_map,
        image_width: input.imageWidth,
        image_height: input.imageHeight,
        control_points: input.control_points ?? [],
      },
      { jobId },
    ),
  );
  return toDetail(video, canEditSheets(access));
}

/** POST /python/videos/confirm-projection: rooms, positions and hotspots from a proposal. */
export async function startConfirmProjection(user: Actor, input: z.output<typeof confirmProjectionSchema>): Promise<VideoDetail> {
  const { video, access } = await requireVisitVideo(user, input.id_visit, 'edit-sheets');
  const run = (await readRun(video.id))!;
  const projection = (run.artifacts.projections ?? []).find((p) => p.osfm_cluster === input.osfmCluster && p.id_map === input.id_map);
  if (!projection) throw conflict(`Cluster ${input.osfmCluster} has not been projected on this sheet yet: project the points first.`);
  await sheetForProjection(input.id_map, video.id_project);
  if (busy(run, 'project-points') || busy(run, 'confirm-projection')) throw conflict('A projection of this video is already being made; wait for it to finish.');
  const jobId = videoJobId(video.id, run.generation, 'confirm-projection', String(Date.now()));
  await moveRun(video.id, run.generation, { type: 'queued', step: 'confirm-projection', userId: user.id, jobId });
  await queueStep(video.id, run.generation, 'confirm-projection', () =>
    enqueue(
      'video.confirm-projection',
      { id_video: video.id, generation: run.generation, id_user: user.id, osfm_cluster: input.osfmCluster, id_map: input.id_map, positions: input.positions ?? [] },
      { jobId },
    ),
  );
  return toDetail(video, canEditSheets(access));
}

/** Human text for logs and messages. */
export const describeVideo = (v: Pick<Video, 'width' | 'height' | 'duration'>) => `${v.width}×${v.height}, ${minutes(v.duration)}`;
