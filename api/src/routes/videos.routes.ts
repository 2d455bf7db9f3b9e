import type { Context, Next } from 'koa';
import {
  confirmProjectionSchema,
  generatePlySchema,
  projectPointsSchema,
  videoProcessSchema,
  type VideoDeleteResponse,
  type VideoDetail,
} from '@sitewalk/proto';
import { currentUser, requireAuth } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { multipart, uploadedFile } from '../http/upload.js';
import { body, idParam } from '../http/validate.js';
import { requireVisit } from '@sitewalk/core/services/visits.service.js';
import {
  acceptVideoUpload,
  deleteVisitVideo,
  getVisitVideo,
  startConfirmProjection,
  startGeneratePly,
  startProcessing,
  startProjectPoints,
  videoMaxBytes,
} from '@sitewalk/core/services/videos.service.js';
import type { RouteModule } from './types.js';

/** Refuses before a single byte of a (possibly huge) upload is read: the visit must exist for the user and be theirs to change. */
async function mayEditVisit(ctx: Context, next: Next) {
  await requireVisit(currentUser(ctx), idParam(ctx), 'upload');
  await next();
}

/** Walk-through videos of visits and their processing (SPEC §7; contract in proto/src/videos.ts). */
const videosRoutes: RouteModule = (r) => {
  // Multipart requests have no request timeout (app.ts); the file streams to disk, never into memory.
  r.post('/visits/:id/video', requireAuth, mayEditVisit, (ctx, next) => multipart(videoMaxBytes())(ctx, next), async (ctx) => {
    const video = await acceptVideoUpload(currentUser(ctx), idParam(ctx), uploadedFile(ctx));
    created<VideoDetail>(ctx, video, 'The video is uploaded.');
  });
  r.get('/visits/:id/video', requireAuth, async (ctx) => {
    ok<VideoDetail | null>(ctx, await getVisitVideo(currentUser(ctx), idParam(ctx)));
  });
  r.delete('/visits/:id/video/delete', requireAuth, async (ctx) => {
    ok<VideoDeleteResponse>(ctx, await deleteVisitVideo(currentUser(ctx), idParam(ctx)), 'The video and the rooms made from it were deleted.');
  });

  r.post('/python/videos/process', requireAuth, async (ctx) => {
    const { video_id } = body(ctx, videoProcessSchema);
    ok<VideoDetail>(ctx, await startProcessing(currentUser(ctx), video_id), 'The video is queued for processing.', 202);
  });
  r.post('/python/videos/generate-ply', requireAuth, async (ctx) => {
    const input = body(ctx, generatePlySchema);
    ok<VideoDetail>(ctx, await startGeneratePly(currentUser(ctx), input), 'The point cloud is queued.', 202);
  });
  r.post('/python/videos/project-points', requireAuth, async (ctx) => {
    const input = body(ctx, projectPointsSchema);
    ok<VideoDetail>(ctx, await startProjectPoints(currentUser(ctx), input), 'The projection is queued.', 202);
  });
  r.post('/python/videos/confirm-projection', requireAuth, async (ctx) => {
    const input = body(ctx, confirmProjectionSchema);
    ok<VideoDetail>(ctx, await startConfirmProjection(currentUser(ctx), input), 'The rooms are being placed.', 202);
  });
};

export default videosRoutes;
