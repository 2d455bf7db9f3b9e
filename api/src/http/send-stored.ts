import send from 'koa-send';
import mime from 'mime-types';
import type { Context } from 'koa';
import { config } from '@sitewalk/core/config.js';
import { activeStorage } from '@sitewalk/core/storage';

/**
 * Presigned URLs are signed at the start of the hour and last three hours:
 * the same URL for an hour (browsers cache it and the redirect to it) and
 * always valid for at least two more.
 */
const PRESIGN_TTL_SEC = 3 * 3600;

/**
 * Answers with a stored file, whichever driver is on. Local disk: the file
 * itself (koa-send: ranges, ETag, type). S3 with `redirect`: a redirect to a
 * presigned GET of the bucket (or the CDN domain), so the file never passes
 * through the API; without it the object is streamed through (downloads whose
 * name the API sets). Returns false when the file is not stored.
 */
export async function sendStored(ctx: Context, key: string, opts: { redirect: boolean }): Promise<boolean> {
  const driver = await activeStorage();
  if (driver.kind === 'local') {
    try {
      await send(ctx, key, { root: config.storageDir, hidden: false });
      return true;
    } catch {
      return false;
    }
  }
  if (opts.redirect) {
    const url = await driver.directUrl(key, PRESIGN_TTL_SEC);
    if (!url) return false;
    ctx.redirect(url);
    return true;
  }
  const size = await driver.size(key);
  if (size === null) return false;
  ctx.type = mime.lookup(key) || 'application/octet-stream';
  ctx.length = size;
  ctx.body = await driver.readStream(key);
  return true;
}
