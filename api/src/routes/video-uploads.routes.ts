import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';
import { Server } from '@tus/server';
import { Metadata } from '@tus/utils';
import { VIDEO_UPLOAD_PATH, videoUploadLengthSchema, videoUploadMetadataSchema, type VideoDetail } from '@sitewalk/proto';
import type { User } from '@sitewalk/core/db';
import { badRequest, conflict } from '@sitewalk/core/errors.js';
import { logger } from '@sitewalk/core/logger.js';
import { videoMaxBytes } from '@sitewalk/core/services/videos.service.js';
import {
  checkNewVideoUpload,
  completeVideoUpload,
  forgetVideoUpload,
  recordVideoUpload,
  requireVideoUpload,
  tooLargeForVideos,
  uploadIsWhole,
  videoUploadStore,
} from '@sitewalk/core/services/video-uploads.service.js';
import { currentUser, requireAuth } from '../http/auth.js';
import { envelope } from '../http/envelope.js';
import { mapError } from '../http/error-middleware.js';
import { parseWith } from '../http/validate.js';
import { sendWebResponse, toWebRequest } from '../http/web-request.js';
import type { RouteModule } from './types.js';

/**
 * Resumable video uploads: the tus protocol (@tus/server with SiteWalk's
 * store: a file on disk, or parts straight into the bucket) under /api/uploads/videos. Koa does what the protocol leaves to us
 * before a request reaches the tus server — the session, the visit's access
 * (404 for anyone else's), the size limit — and the tus hooks call the same
 * service as the multipart upload once the last byte is in.
 */

const FULL_PATH = `/api${VIDEO_UPLOAD_PATH}`;

/** Who sent a request the tus server is handling (set by the Koa side, read by the hooks). */
interface Sender {
  user: User;
  visitId?: number;
  filename?: string;
}
const senders = new WeakMap<IncomingMessage, Sender>();

/** The Node request under the tus server's web Request (toWebRequest keeps it where srvx does). */
const nodeRequest = (req: unknown): IncomingMessage | undefined =>
  (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req ?? (req as { node?: { req?: IncomingMessage } }).node?.req;

const senderOf = (req: unknown): Sender => {
  const n = nodeRequest(req);
  const s = n && senders.get(n);
  if (!s) throw { status_code: 401, body: JSON.stringify(envelope('error', 'Please sign in to continue.', null)) };
  return s;
};

/** A service error as a tus hook must throw it: the status and our envelope as the body. */
function hookError(err: unknown): { status_code: number; body: string } {
  const { status, message } = mapError(err);
  if (status >= 500) logger.error({ err }, 'video upload could not be completed');
  return { status_code: status, body: JSON.stringify(envelope('error', message, null)) };
}

let server: Server | null = null;
function tusServer(): Server {
  if (server) return server;
  const options: ConstructorParameters<typeof Server>[0] = {
    path: FULL_PATH,
    datastore: videoUploadStore(),
    maxSize: () => videoMaxBytes(),
    relativeLocation: true,
    respectForwardedHeaders: false,
    disableTerminationForFinishedUploads: true,
    onUploadCreate: async (req, upload) => {
      const { user, visitId, filename } = senderOf(req);
      await recordVideoUpload({ id: upload.id, id_user: user.id, id_visit: visitId!, size_bytes: upload.size!, original_name: filename ?? 'video.mp4' });
      return {};
    },
    onUploadFinish: async (req, upload) => {
      const { user } = senderOf(req);
      try {
        const video = await completeVideoUpload(user, upload.id);
        return { status_code: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(envelope<VideoDetail>('success', 'The video is uploaded.', video)) };
      } catch (err) {
        throw hookError(err);
      }
    },
    onResponseError: (_req, err) => {
      // The tus server's own refusals (wrong offset, too large …) keep their status, with a sentence.
      if (err instanceof Error) {
        logger.error({ err }, 'tus upload error');
        return { status_code: 500, body: JSON.stringify(envelope('error', 'The upload could not be saved. Please try again.', null)) };
      }
      if (err.status_code === 413) return { status_code: 413, body: JSON.stringify(envelope('error', tooLargeForVideos().message, null)) };
      return undefined;
    },
  };
  // No locker given: the default in-memory one serialises an upload's requests within this API process.
  server = new Server(options);
  return server;
}

/** Hands the request to the tus server (as a web request whose body chunks are not copied); Koa sends nothing itself. */
async function toTus(ctx: Context, sender: Sender): Promise<void> {
  senders.set(ctx.req, sender);
  ctx.respond = false;
  await sendWebResponse(ctx.res, await tusServer().handleWeb(toWebRequest(ctx.req, ctx.res)));
}

/** POST: checks the session, the visit and the length before the upload exists. */
async function createUpload(ctx: Context) {
  if (ctx.get('upload-defer-length')) throw badRequest('Send the size of the file in the Upload-Length header.');
  if (!ctx.get('upload-length')) throw badRequest('Send the size of the file in the Upload-Length header.');
  const length = parseWith(videoUploadLengthSchema, ctx.get('upload-length'), 'header');
  if (length > videoMaxBytes()) throw tooLargeForVideos();
  let raw: Record<string, string | null | undefined>;
  try {
    const header = ctx.get('upload-metadata');
    raw = header ? (Metadata.parse(header) ?? {}) : {};
  } catch {
    throw badRequest('The Upload-Metadata header cannot be read.');
  }
  const meta = parseWith(videoUploadMetadataSchema, { visit_id: raw.visit_id ?? undefined, filename: raw.filename ?? undefined, filetype: raw.filetype ?? undefined }, 'metadata field');
  const user = currentUser(ctx);
  await checkNewVideoUpload(user, meta.visit_id, length);
  await toTus(ctx, { user, visitId: meta.visit_id, filename: meta.filename });
}

/** HEAD, PATCH, DELETE of one upload: the user's own, or 404. */
async function existingUpload(ctx: Context, next: Next) {
  ctx.state.upload = await requireVideoUpload(currentUser(ctx), String(ctx.params.uploadId));
  await next();
}

const videoUploadsRoutes: RouteModule = (r) => {
  r.post(VIDEO_UPLOAD_PATH, requireAuth, createUpload);
  r.head(`${VIDEO_UPLOAD_PATH}/:uploadId`, requireAuth, existingUpload, async (ctx) => {
    const row = ctx.state.upload as Awaited<ReturnType<typeof requireVideoUpload>>;
    if (row.status === 'uploading' && (await uploadIsWhole(row))) {
      // Every byte arrived but the check never ran (the API stopped in between): run it now, once.
      await completeVideoUpload(currentUser(ctx), row.id);
      row.status = 'accepted';
    }
    if (row.status === 'accepted') {
      // Its bytes became the visit's video: a client resuming it learns it is complete.
      ctx.set({ 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(row.size_bytes), 'Upload-Length': String(row.size_bytes), 'Cache-Control': 'no-store' });
      ctx.status = 200;
      return;
    }
    await toTus(ctx, { user: currentUser(ctx) });
  });
  r.patch(`${VIDEO_UPLOAD_PATH}/:uploadId`, requireAuth, existingUpload, async (ctx) => {
    await toTus(ctx, { user: currentUser(ctx) });
  });
  r.delete(`${VIDEO_UPLOAD_PATH}/:uploadId`, requireAuth, existingUpload, async (ctx) => {
    const row = ctx.state.upload as Awaited<ReturnType<typeof requireVideoUpload>>;
    if (row.status !== 'uploading') throw conflict('This upload is already the visit\'s video. Delete the video instead.');
    // The row goes first, so the 204 the browser gets means gone for every later call (bytes left by a failure are swept).
    await forgetVideoUpload(row);
    if (row.bucket_key) {
      // Received into the bucket: what it held went with the row; the tus file store has nothing of it.
      ctx.set({ 'Tus-Resumable': '1.0.0' });
      ctx.status = 204;
      return;
    }
    await toTus(ctx, { user: currentUser(ctx) });
  });
};

export default videoUploadsRoutes;
