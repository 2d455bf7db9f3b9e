import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import type { VideoDetail } from '@sitewalk/proto';
import { db } from '../db/index.js';
import {
  claimVideoUpload,
  deleteAcceptedVideoUploadsBefore,
  deleteVideoUpload,
  insertVideoUpload,
  knownVideoUploadIds,
  setVideoUploadStatus,
  unfinishedVideoUploadsBefore,
  videoById,
  videoOfVisit,
  videoUploadById,
  type VideoUploadRow,
} from '../repositories/videos.repository.js';
import { visitById } from '../repositories/visits.repository.js';
import { HttpError, conflict, notFound, payloadTooLarge } from '../errors.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { requireVisit } from './visits.service.js';
import { acceptVideoUpload, toDetail, videoFolder, videoMaxBytes } from './videos.service.js';
import { dropUploadMirror, finishUploadMirror, startUploadMirror } from './video-upload-mirror.js';
import { remove } from '../storage/index.js';
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

let store: FileStore | null = null;
let storeDir = '';
/** The tus file store: one file per upload under a server-chosen name, and its JSON info beside it. */
export function videoUploadStore(): FileStore {
  const dir = videoUploadDir();
  if (!store || storeDir !== dir) {
    store = new FileStore({ directory: dir, expirationPeriodInMilliseconds: videoUploadExpiryMs() });
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

/** Records a freshly created upload as the user's, for that visit, and starts mirroring it to the bucket when files are stored there. */
export async function recordVideoUpload(row: { id: string; id_user: number; id_visit: number; size_bytes: number; original_name: string }): Promise<void> {
  const name = displayName(row.original_name);
  await insertVideoUpload(db(), { ...row, original_name: name });
  const visit = await visitById(db(), row.id_visit);
  if (visit) {
    // The key the video will have if its content is what its name says (otherwise it is stored again under the right one).
    const key = `${videoFolder(visit.id_project, visit.id, crypto.randomUUID())}/source.${extensionOf(name)}`;
    await startUploadMirror(row.id, key, uploadPath(row.id), Number(row.size_bytes));
  }
}

const MIRRORED_EXTENSIONS = new Set(['mp4', 'mov', 'm4v', 'mkv', 'webm', 'avi']);
const extensionOf = (name: string) => {
  const ext = path.extname(name).slice(1).toLowerCase();
  return MIRRORED_EXTENSIONS.has(ext) ? ext : 'mp4';
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

/** Whether every declared byte of an upload is on disk. */
export async function uploadIsWhole(row: Pick<VideoUploadRow, 'id' | 'size_bytes'>): Promise<boolean> {
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
  const filepath = uploadPath(id);
  const size = (await fsp.stat(filepath).catch(() => null))?.size ?? -1;
  if (size !== Number(row.size_bytes)) {
    // Not all bytes are there (or the file went): give it back to the protocol.
    await setVideoUploadStatus(db(), id, 'uploading');
    throw conflict('The upload is not complete yet. It will carry on where it stopped.');
  }
  // The content check runs while the mirror puts its last parts (and the bucket joins them).
  const mirrored = finishUploadMirror(id);
  try {
    const video = await acceptVideoUpload(
      user,
      row.id_visit,
      { filepath, size, originalFilename: row.original_name, mimetype: null },
      async (trx, v) => {
        await setVideoUploadStatus(trx, id, 'accepted', v.id);
      },
      mirrored,
    );
    await fsp.rm(`${filepath}.json`, { force: true });
    return video;
  } catch (err) {
    const key = await mirrored;
    if (key) await remove(key).catch(() => undefined);
    const status = err instanceof HttpError ? err.status : 500;
    if (status >= 400 && status < 500) {
      // Refused for good: the user must choose another file. Nothing is kept.
      await dropUploadFiles(id);
      await deleteVideoUpload(db(), id);
    } else {
      await setVideoUploadStatus(db(), id, 'uploading');
    }
    throw err;
  }
}

/** After the protocol removed an upload's bytes (tus DELETE, the user cancelled): its row goes too. */
export async function forgetVideoUpload(id: string): Promise<void> {
  await dropUploadMirror(id);
  await deleteVideoUpload(db(), id, { unlessAccepted: true });
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
    // Bytes still arriving keep an upload alive even when its row is old.
    if (now - (await lastWrite(r.id)) < expiry) continue;
    await dropUploadFiles(r.id);
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
