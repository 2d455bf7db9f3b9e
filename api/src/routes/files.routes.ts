import path from 'node:path';
import { notFound } from '@sitewalk/core/errors.js';
import { isSafeKey, verifySignedKey } from '@sitewalk/core/storage';
import { sendStored } from '../http/send-stored.js';
import type { RouteModule } from './types.js';

/** Serves stored files to holders of a signed URL (see storage.signedUrl); on S3 by a redirect to a presigned URL. */
const filesRoutes: RouteModule = (r) => {
  r.get('/files/{*key}', async (ctx) => {
    const raw = (ctx.params as { key: string | string[] }).key;
    const key = Array.isArray(raw) ? raw.join('/') : raw;
    const { exp, sig, scope } = ctx.query as Record<string, string | undefined>;
    if (!isSafeKey(key) || !exp || !sig || !verifySignedKey(key, exp, sig, scope)) throw notFound();
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    // With S3 on, a redirect to a presigned GET of the bucket: the browser fetches the file there.
    if (!(await sendStored(ctx, key, { redirect: true }))) throw notFound();
    if (path.extname(key) === '.svg') ctx.set('Content-Security-Policy', "default-src 'none'");
  });
};

export default filesRoutes;
