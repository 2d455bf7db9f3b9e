import type { FinishedRun } from '../video-eta-profile.js';
import type {
  VideoCluster,
  VideoKeyframe,
  VideoProjection,
  VideoRunError,
  VideoRunStatus,
  VideoStep,
  VideoStepState,
} from '@sitewalk/proto';
import { Video } from '../db/index.js';
import type { Db } from '../db/query-types.js';

/**
 * Every query of a visit's walk-through video: the `videos` row (the
 * Objection model `Video`), its processing run (`video_runs`, with the types
 * it is stored as) and the resumable uploads that become videos
 * (`video_uploads`). The services hold the rules: videos.service,
 * video-run.service (the one writer of runs) and video-uploads.service.
 */

// ---- Videos ----

export async function videoById(k: Db, id: number): Promise<Video | undefined> {
  return await Video.query(k).findById(id);
}

/** The visit's video (a visit has at most one). */
export async function videoOfVisit(k: Db, visitId: number): Promise<Video | undefined> {
  return await Video.query(k).findOne({ id_visit: visitId });
}

export async function insertVideo(k: Db, row: Partial<Video>): Promise<Video> {
  return await Video.query(k).insertAndFetch(row);
}

/** Deletes a video; its run and the rooms made from it go with it (foreign keys). */
export async function deleteVideoRow(k: Db, id: number): Promise<void> {
  await Video.query(k).deleteById(id);
}

/** Who hears of a video's progress and where: its visit and project, who uploaded it and the project's owner. */
export function videoAudience(k: Db, videoId: number): Promise<{ id_visit: number; id_project: number; id_user: number | null; id_owner: number } | undefined> {
  return k('videos as v').join('projects as p', 'p.id', 'v.id_project').where('v.id', videoId).first('v.id_visit', 'v.id_project', 'v.id_user', 'p.id_owner');
}

// ---- Runs ----

/** Artifacts as stored: proto's, with storage keys where the answers carry signed URLs (made when read). */
export type StoredKeyframe = Omit<VideoKeyframe, 'image_url'> & { image_key: string };
export type StoredCluster = Omit<VideoCluster, 'ply_url' | 'path_url'> & { ply_key: string | null; path_key: string | null };
export type StoredProjection = Omit<VideoProjection, 'preview_url'> & { preview_key: string | null };
export interface StoredArtifacts {
  keyframes?: StoredKeyframe[];
  clusters?: StoredCluster[];
  projections?: StoredProjection[];
}

/** A step as stored: its state and the BullMQ job carrying it (to notice a job the queue lost). */
export type StoredStep = Omit<VideoStepState, 'step'> & { job_id?: string | null };

/** A video_runs row. */
export interface RunRow {
  id_video: number;
  generation: number;
  status: VideoRunStatus;
  step: VideoStep | null;
  percent: number;
  message: string;
  error: VideoRunError | null;
  steps: Partial<Record<VideoStep, StoredStep>>;
  artifacts: StoredArtifacts;
  timings: Record<string, number>;
  id_user: number | null;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
}

/** A run as written: its JSON columns as text. */
export type RunWrite = Omit<RunRow, 'error' | 'steps' | 'artifacts' | 'timings'> & { error: string | null; steps: string; artifacts: string; timings: string };

/** The run of a video (locked for the rest of the transaction with `lock`); undefined for a video that has none. */
export async function runRow(k: Db, videoId: number, opts: { lock?: boolean } = {}): Promise<RunRow | undefined> {
  const q = k('video_runs').where({ id_video: videoId }).first();
  if (opts.lock) q.forUpdate();
  return (await q) as RunRow | undefined;
}

/** Writes a video's run, replacing any it had. */
export async function upsertRun(k: Db, row: RunWrite): Promise<void> {
  await k('video_runs').insert(row).onConflict('id_video').merge();
}

export async function updateRun(k: Db, row: RunWrite): Promise<void> {
  await k('video_runs').where({ id_video: row.id_video }).update(row);
}

/** The timings of the runs that timed this stage (`step.stage`), each with its walk's length in seconds, the most recently changed first, at most `limit`. */
export async function recentRunTimings(k: Db, stageKey: string, limit: number): Promise<FinishedRun[]> {
  const rows = (await k('video_runs as r')
    .join('videos as v', 'v.id', 'r.id_video')
    .whereRaw('r.timings ->> ? is not null', [stageKey])
    .orderBy('r.updated_at', 'desc')
    .limit(limit)
    .select('r.timings', 'v.duration')) as (Pick<RunRow, 'timings'> & { duration: number | string })[];
  return rows.map((r) => ({ timings: r.timings, walkSeconds: Number(r.duration) || undefined }));
}

// ---- Resumable uploads ----

export type VideoUploadStatus = 'uploading' | 'checking' | 'accepted';
export interface VideoUploadRow {
  id: string;
  id_user: number;
  id_visit: number;
  size_bytes: string | number;
  original_name: string;
  status: VideoUploadStatus;
  id_video: number | null;
  /** Set when the upload is received straight into the bucket: the key its bytes go to. */
  bucket_key: string | null;
  bucket_upload_id: string | null;
  /** Bytes the bucket holds in whole parts (bucket uploads only). */
  stored_bytes: string | number;
  created_at: Date;
  updated_at: Date;
}

export async function insertVideoUpload(
  k: Db,
  row: Pick<VideoUploadRow, 'id' | 'id_user' | 'id_visit' | 'size_bytes' | 'original_name'> & Partial<Pick<VideoUploadRow, 'bucket_key'>>,
): Promise<void> {
  await k('video_uploads').insert(row);
}

/** The upload with this id (only if it is this user's, with `userId`). */
export async function videoUploadById(k: Db, id: string, userId?: number): Promise<VideoUploadRow | undefined> {
  return (await k('video_uploads')
    .where({ id, ...(userId === undefined ? {} : { id_user: userId }) })
    .first()) as VideoUploadRow | undefined;
}

/** Takes the user's upload from 'uploading' to 'checking' for one caller; the row, or undefined when it was not waiting. */
export async function claimVideoUpload(k: Db, id: string, userId: number): Promise<VideoUploadRow | undefined> {
  const claimed = (await k('video_uploads')
    .where({ id, id_user: userId, status: 'uploading' })
    .update({ status: 'checking', updated_at: new Date() })
    .returning('*')) as VideoUploadRow[];
  return claimed[0];
}

/** Records the bucket's multipart upload that receives this upload's bytes. */
export async function setVideoUploadBucketId(k: Db, id: string, uploadId: string): Promise<void> {
  await k('video_uploads').where({ id }).update({ bucket_upload_id: uploadId, updated_at: new Date() });
}

/** The bucket took part `partNumber` of the upload (sent again, the later ETag counts). */
export async function recordVideoUploadPart(k: Db, id: string, partNumber: number, etag: string): Promise<void> {
  await k('video_upload_parts').insert({ id_upload: id, part_number: partNumber, etag }).onConflict(['id_upload', 'part_number']).merge(['etag']);
}

/** The ETags of the upload's parts 1…count, in order; null when one is missing. */
export async function videoUploadPartTags(k: Db, id: string, count: number): Promise<string[] | null> {
  const rows = (await k('video_upload_parts').where({ id_upload: id }).where('part_number', '<=', count).orderBy('part_number').select('part_number', 'etag')) as { part_number: number; etag: string }[];
  return rows.length === count && rows.every((r, i) => r.part_number === i + 1) ? rows.map((r) => r.etag) : null;
}

/** The bucket holds `to` bytes of the upload in whole parts (only ever forward: a slower request never moves it back). */
export async function advanceVideoUploadStored(k: Db, id: string, to: number): Promise<void> {
  await k('video_uploads').where({ id }).where('stored_bytes', '<', to).update({ stored_bytes: to, updated_at: new Date() });
}

/** Sets an upload's status (an accepted one with its video). */
export async function setVideoUploadStatus(k: Db, id: string, status: VideoUploadStatus, videoId?: number): Promise<void> {
  await k('video_uploads')
    .where({ id })
    .update({ status, ...(videoId === undefined ? {} : { id_video: videoId }), updated_at: new Date() });
}

/** Deletes an upload's row (with `unlessAccepted`, only one that did not become a video). */
export async function deleteVideoUpload(k: Db, id: string, opts: { unlessAccepted?: boolean } = {}): Promise<void> {
  const q = k('video_uploads').where({ id });
  if (opts.unlessAccepted) q.whereNot({ status: 'accepted' });
  await q.delete();
}

/** Unfinished uploads (uploading or checking) whose row last changed before `before`. */
export async function unfinishedVideoUploadsBefore(k: Db, before: Date): Promise<Pick<VideoUploadRow, 'id' | 'updated_at' | 'bucket_key' | 'bucket_upload_id'>[]> {
  return k('video_uploads').whereIn('status', ['uploading', 'checking']).where('updated_at', '<', before).select('id', 'updated_at', 'bucket_key', 'bucket_upload_id');
}

/** Forgets accepted uploads whose row last changed before `before` (their videos live on). */
export async function deleteAcceptedVideoUploadsBefore(k: Db, before: Date): Promise<void> {
  await k('video_uploads').where({ status: 'accepted' }).where('updated_at', '<', before).delete();
}

/** Of these upload ids, those with a row. */
export async function knownVideoUploadIds(k: Db, ids: string[]): Promise<Set<string>> {
  return new Set(((await k('video_uploads').whereIn('id', ids).select('id')) as { id: string }[]).map((r) => r.id));
}
