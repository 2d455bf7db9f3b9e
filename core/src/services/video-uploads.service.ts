import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { DataStore, Upload } from '@tus/utils';
import type { VideoDetail } from '@sitewalk/proto';
import { db } from '../db/index.js';
import {
  advanceVideoUploadStored,
  claimVideoUpload,
  deleteAcceptedVideoUploadsBefore,
  deleteVideoUpload,
  insertVideoUpload,
  knownVideoUploadIds,
  recordVideoUploadPart,
  setVideoUploadBucketId,
  setVideoUploadStatus,
  unfinishedVideoUploadsBefore,
  videoById,
  videoOfVisit,
  videoUploadById,
  videoUploadPartTags,
  type VideoUploadRow,
} from '../repositories/videos.repository.js';
import { visitById } from '../repositories/visits.repository.js';
import { HttpError, conflict, notFound, payloadTooLarge } from '../errors.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { requireVisit } from './visits.service.js';
import { acceptVideoUpload, toDetail, videoFolder, videoMaxBytes } from './videos.service.js';
import { activeBucket } from '../storage/index.js';
import type { S3Driver } from '../storage/s3-driver.js';
import { receiveIntoParts } from '../storage/receive-parts.js';
import { checkProjectAddition } from './plan-limits.service.js';
import type { Actor } from './actor.js';

/**
 * Resumable uploads of walk-through videos (the tus protocol, SPEC §7 and
 * proto/src/videos.ts). The HTTP side is @tus/server in the API; this module
 * owns what the protocol leaves to the application: who may touch an upload,
 * the size limit, and what happens once the last byte is in — the same
 * content check and the same state changes as POST /visits/{id}/video,
 * exactly once — and the sweep of uploads nobody finished.
 */

/** Hours an unfinished upload is kept after its last byte arrived (VIDEO_UPLOAD_EXPIRY_HOURS, default 24). */
export const videoUploadExpiryMs = (env: NodeJS.ProcessEnv = process.env): number => {
  const v = env.VIDEO_UPLOAD_EXPIRY_HOURS;
  return (v && /^\d+(\.\d+)?$/.test(v) && Number(v) > 0 ? Number(v) : 24) * 3600_000;
};

/**
 * Where unfinished uploads grow (VIDEO_UPLOAD_DIR, default DATA_DIR/uploads/videos).
 * On the storage's disk by default, so a finished file is moved, not copied.
 */
export const videoUploadDir = (env: NodeJS.ProcessEnv = process.env): string =>
  env.VIDEO_UPLOAD_DIR ? path.resolve(env.VIDEO_UPLOAD_DIR) : path.join(config.dataDir, 'uploads', 'videos');

/** Parts of an upload received into the bucket: 8 MiB (S3's least is 5 MiB; the browser's pieces of 64 MiB end on one), four in flight. */
export const BUCKET_PART_BYTES = 8 * 1024 * 1024;
const BUCKET_PARTS_IN_FLIGHT = 4;

/**
 * The tus data store of video uploads. Where the files are on the local disk
 * an upload grows as a file (the tus file store) and is moved into place
 * once complete. Where they are in a bucket it is received straight into a
 * multipart upload of the bucket under the video's own key: no byte is
 * written to the API machine's disk, and the upload's state (the bucket's
 * upload id, the bytes it holds in whole parts) is in its row, so any API
 * machine can take the next piece after a dropped connection. The row says
 * which kind an upload is (`bucket_key`), decided when it is created.
 */
class VideoUploadStore extends DataStore {
  constructor(private readonly files: FileStore) {
    super();
    this.extensions = files.extensions.filter((e) => e !== 'creation-defer-length');
  }

  private async bucketUpload(id: string): Promise<(VideoUploadRow & { bucket_key: string }) | null> {
    const row = await videoUploadById(db(), id);
    return row?.bucket_key ? (row as VideoUploadRow & { bucket_key: string }) : null;
  }

  override async create(upload: Upload): Promise<Upload> {
    const row = await this.bucketUpload(upload.id);
    if (!row) return this.files.create(upload);
    const uploadId = await (await bucketOf()).multipart.start(row.bucket_key);
    await setVideoUploadBucketId(db(), row.id, uploadId);
    upload.creation_date = row.created_at.toISOString();
    return upload;
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const row = await this.bucketUpload(id);
    if (!row) return this.files.write(stream, id, offset);
    const bucket = await bucketOf();
    const { bucket_key: key, bucket_upload_id: uploadId } = row;
    if (!uploadId) throw new Error('the bucket upload was never started');
    return receiveIntoParts(stream, {
      offset,
      size: Number(row.size_bytes),
      partBytes: BUCKET_PART_BYTES,
      inFlight: BUCKET_PARTS_IN_FLIGHT,
      send: async (n, bytes) => recordVideoUploadPart(db(), id, n, await bucket.multipart.putPart(key, uploadId, n, bytes)),
      stored: (to) => advanceVideoUploadStored(db(), id, to),
    });
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await this.bucketUpload(id);
    if (!row) return this.files.getUpload(id);
    return new Upload({ id, size: Number(row.size_bytes), offset: Number(row.stored_bytes), creation_date: row.created_at.toISOString() });
  }

  override async remove(id: string): Promise<void> {
    const row = await this.bucketUpload(id);
    if (!row) return this.files.remove(id);
    await dropBucketBytes(row);
  }

  override declareUploadLength(id: string, length: number): Promise<void> {
    return this.files.declareUploadLength(id, length);
  }

  override deleteExpired(): Promise<number> {
    return this.files.deleteExpired();
  }

  override getExpiration(): number {
    return this.files.getExpiration();
  }
}

/** The bucket an upload received into it needs (the settings may have moved the files back to the disk since it began). */
async function bucketOf(): Promise<S3Driver> {
  const bucket = await activeBucket();
  if (!bucket) throw conflict('Files are no longer kept in the bucket this upload went to. Upload the video again.');
  return bucket;
}

/** What a bucket upload left in the bucket: its parts, and the object if they were joined. */
async function dropBucketBytes(row: Pick<VideoUploadRow, 'bucket_key' | 'bucket_upload_id'>): Promise<void> {
  if (!row.bucket_key) return;
  const bucket = await bucketOf();
  if (row.bucket_upload_id) await bucket.multipart.abort(row.bucket_key, row.bucket_upload_id);
  await bucket.remove(row.bucket_key);
}

let store: VideoUploadStore | null = null;
let storeDir = '';
/** The tus data store (above): its file store keeps one file per upload under a server-chosen name, and its JSON info beside it. */
export function videoUploadStore(): DataStore {
  const dir = videoUploadDir();
  if (!store || storeDir !== dir) {
    store = new VideoUploadStore(new FileStore({ directory: dir, expirationPeriodInMilliseconds: videoUploadExpiryMs() }));
    storeDir = dir;
  }
  return store;
}

/** The path of an upload's bytes on disk (ids are the store's random hex names, checked here anyway). */
const uploadPath = (id: string) => {
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(id)) throw notFound('Upload not found.');
  return path.join(videoUploadDir(), id);
};

const tooLargeMessage = (max: number) =>
  `The video is too large. The limit is ${Math.round(max / 1024 / 1024)} MB (${Math.round((max / 1024 ** 3) * 10) / 10} GB); shorten the video or ask the administrator to raise VIDEO_MAX_BYTES.`;

/**
 * Before an upload is created (tus POST): the visit must be the user's to
 * change (404 when they cannot see it), the length declared and within
 * VIDEO_MAX_BYTES (413 otherwise), and the project's plan must have room for it.
 */
export async function checkNewVideoUpload(user: Actor, visitId: number, length: number): Promise<void> {
  const { visit } = await requireVisit(user, visitId, 'upload');
  const max = videoMaxBytes();
  if (length > max) throw payloadTooLarge(tooLargeMessage(max));
  const previous = await videoOfVisit(db(), visit.id);
  await checkProjectAddition(db(), user, visit.id_project, { storage_bytes: length - Number(previous?.size_bytes ?? 0), video_seconds: 0 });
}

export const tooLargeForVideos = () => payloadTooLarge(tooLargeMessage(videoMaxBytes()));

/**
 * Records a freshly created upload as the user's, for that visit. With the
 * files in a bucket it will be received straight into it, under the key the
 * video will have (its extension from the file's name; the content is
 * checked once complete).
 */
export async function recordVideoUpload(row: { id: string; id_user: number; id_visit: number; size_bytes: number; original_name: string }): Promise<void> {
  const name = displayName(row.original_name);
  const visit = await visitById(db(), row.id_visit);
  const bucketKey = visit && (await activeBucket()) ? `${videoFolder(visit.id_project, visit.id, crypto.randomUUID())}/source.${extensionOf(name)}` : null;
  await insertVideoUpload(db(), { ...row, original_name: name, bucket_key: bucketKey });
}

const VIDEO_EXTENSIONS = new Set(['mp4', 'mov', 'm4v', 'mkv', 'webm', 'avi']);
const extensionOf = (name: string) => {
  const ext = path.extname(name).slice(1).toLowerCase();
  return VIDEO_EXTENSIONS.has(ext) ? ext : 'mp4';
};

const displayName = (name: string | null | undefined) => (path.basename(name ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'video.mp4').slice(0, 255);

/** An upload of the user (HEAD, PATCH, DELETE); 404 when it is someone else's or gone, or its visit is no longer theirs to change. */
export async function requireVideoUpload(user: Actor, id: string): Promise<VideoUploadRow> {
  const row = await videoUploadById(db(), id);
  if (!row || row.id_user !== user.id) throw notFound('Upload not found.');
  try {
    await requireVisit(user, row.id_visit, 'upload');
  } catch (err) {
    if ((err as { status?: number }).status === 404) throw notFound('Upload not found.');
    throw err;
  }
  return row;
}

/** Whether every declared byte of an upload is in (on disk, or in the bucket's parts). */
export async function uploadIsWhole(row: Pick<VideoUploadRow, 'id' | 'size_bytes' | 'bucket_key' | 'stored_bytes'>): Promise<boolean> {
  if (row.bucket_key) return Number(row.stored_bytes) === Number(row.size_bytes);
  return (await fsp.stat(uploadPath(row.id)).catch(() => null))?.size === Number(row.size_bytes);
}

/** Removes an upload's bytes and info (missing is fine). */
async function dropUploadFiles(id: string): Promise<void> {
  const p = uploadPath(id);
  await Promise.all([fsp.rm(p, { force: true }), fsp.rm(`${p}.json`, { force: true })]);
}

/**
 * The last byte of an upload is in: checks it by content and makes it the
 * visit's video, exactly as POST /visits/{id}/video does. Exactly once and
 * idempotent: the row is claimed ('uploading' → 'checking') by one caller;
 * a later call for an accepted upload answers its video; a refused file
 * (not a video, too short, over the plan) leaves nothing behind — neither
 * bytes nor row; a passing failure (the database away) gives the upload
 * back so the next attempt checks it again.
 */
export async function completeVideoUpload(user: Actor, id: string): Promise<VideoDetail> {
  const row = await claimVideoUpload(db(), id, user.id);
  if (!row) {
    const current = await videoUploadById(db(), id, user.id);
    if (current?.status === 'accepted' && current.id_video) {
      const video = await videoById(db(), current.id_video);
      if (video) return toDetail(video, true);
    }
    if (current?.status === 'checking') throw conflict('This upload is being checked. Wait a moment and reload the page.');
    throw notFound('Upload not found.');
  }
  if (row.bucket_key) return completeBucketUpload(user, row as VideoUploadRow & { bucket_key: string });
  const filepath = uploadPath(id);
  const size = (await fsp.stat(filepath).catch(() => null))?.size ?? -1;
  if (size !== Number(row.size_bytes)) {
    // Not all bytes are there (or the file went): give it back to the protocol.
    await setVideoUploadStatus(db(), id, 'uploading');
    throw conflict('The upload is not complete yet. It will carry on where it stopped.');
  }
  try {
    const video = await acceptVideoUpload(user, row.id_visit, { filepath, size, originalFilename: row.original_name, mimetype: null }, async (trx, v) => {
      await setVideoUploadStatus(trx, id, 'accepted', v.id);
    });
    await fsp.rm(`${filepath}.json`, { force: true });
    return video;
  } catch (err) {
    await settleRefusal(err, row, () => dropUploadFiles(id));
    throw err;
  }
}

/**
 * The same for an upload received into the bucket: its parts are joined
 * into the object under the video's key (a second call, after a failure
 * once joined, finds the object there), which is then checked where it is.
 */
async function completeBucketUpload(user: Actor, row: VideoUploadRow & { bucket_key: string }): Promise<VideoDetail> {
  const size = Number(row.size_bytes);
  if (Number(row.stored_bytes) !== size) {
    await setVideoUploadStatus(db(), row.id, 'uploading');
    throw conflict('The upload is not complete yet. It will carry on where it stopped.');
  }
  try {
    const bucket = await bucketOf();
    const etags = await videoUploadPartTags(db(), row.id, Math.max(1, Math.ceil(size / BUCKET_PART_BYTES)));
    try {
      if (!etags) throw new Error('a part of the upload is not recorded');
      await bucket.multipart.complete(row.bucket_key, row.bucket_upload_id!, etags);
    } catch (err) {
      // Joined by an earlier try that failed after it: the object is there.
      if ((await bucket.size(row.bucket_key)) !== size) throw err;
    }
    return await acceptVideoUpload(user, row.id_visit, { bucket, storedKey: row.bucket_key, size, originalFilename: row.original_name }, async (trx, v) => {
      await setVideoUploadStatus(trx, row.id, 'accepted', v.id);
    });
  } catch (err) {
    await settleRefusal(err, row, () => dropBucketBytes(row));
    throw err;
  }
}

/**
 * After a finished upload was not accepted: refused for good (4xx: not a
 * video, over the plan) its bytes and row go — the user must choose another
 * file; a passing failure gives it back to the protocol for another try.
 */
async function settleRefusal(err: unknown, row: Pick<VideoUploadRow, 'id'>, dropBytes: () => Promise<void>): Promise<void> {
  const status = err instanceof HttpError ? err.status : 500;
  if (status >= 400 && status < 500) {
    await dropBytes().catch((e: unknown) => logger.warn({ upload_id: row.id, err: (e as Error).message }, 'a refused upload\'s bytes could not be removed; the sweep removes them'));
    await deleteVideoUpload(db(), row.id);
  } else {
    await setVideoUploadStatus(db(), row.id, 'uploading');
  }
}

/**
 * The user cancelled an upload (tus DELETE): its row goes, and with it what
 * the bucket received (an upload on disk is removed by the tus file store).
 */
export async function forgetVideoUpload(row: Pick<VideoUploadRow, 'id' | 'bucket_key' | 'bucket_upload_id'>): Promise<void> {
  await deleteVideoUpload(db(), row.id, { unlessAccepted: true });
  await dropBucketBytes(row);
}

/**
 * The scheduled sweep (workers, hourly): unfinished uploads whose last byte
 * arrived longer ago than the expiry go with their bytes; files of the
 * upload folder no row knows (a crash between the two) go once as old;
 * accepted uploads are forgotten after a week (their video lives on).
 */
export async function sweepVideoUploads(now = Date.now()): Promise<{ removed: number; orphans: number }> {
  const expiry = videoUploadExpiryMs();
  const dir = videoUploadDir();
  const lastWrite = async (id: string) => (await fsp.stat(uploadPath(id)).catch(() => null))?.mtimeMs ?? 0;
  let removed = 0;
  const stale = await unfinishedVideoUploadsBefore(db(), new Date(now - expiry));
  for (const r of stale) {
    if (r.bucket_key) {
      // Its row moves with every part the bucket takes: old means no byte for the whole expiry.
      try {
        await dropBucketBytes(r);
      } catch (err) {
        logger.warn({ upload_id: r.id, err: (err as Error).message }, 'an abandoned upload\'s parts could not be removed from the bucket; tried again at the next sweep');
        continue;
      }
    } else {
      // Bytes still arriving keep an upload alive even when its row is old.
      if (now - (await lastWrite(r.id)) < expiry) continue;
      await dropUploadFiles(r.id);
    }
    await deleteVideoUpload(db(), r.id);
    removed++;
  }
  await deleteAcceptedVideoUploadsBefore(db(), new Date(now - 7 * 24 * 3600_000));
  let orphans = 0;
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  const ids = [...new Set(names.map((n) => n.replace(/\.json$/, '')))].filter((n) => /^[A-Za-z0-9_-]{8,64}$/.test(n));
  if (ids.length) {
    const known = await knownVideoUploadIds(db(), ids);
    for (const id of ids) {
      if (known.has(id)) continue;
      const times = await Promise.all([uploadPath(id), `${uploadPath(id)}.json`].map((p) => fsp.stat(p).then((s) => s.mtimeMs, () => 0)));
      if (now - Math.max(...times) < expiry) continue;
      await dropUploadFiles(id);
      orphans++;
    }
  }
  if (removed || orphans) logger.info({ removed, orphans }, 'abandoned video uploads removed');
  return { removed, orphans };
}
