import path from 'node:path';
import send from 'koa-send';
import { config } from '../core/config.js';
import { notFound } from '../core/errors.js';
import { isSafeKey, verifySignedKey } from '../core/storage/index.js';
import type { RouteModule } from './types.js';

/** Serves stored files to holders of a signed URL (see storage.signedUrl). */
const filesRoutes: RouteModule = (r) => {
  r.get('/files/{*key}', async (ctx) => {
    const raw = (ctx.params as { key: string | string[] }).key;
    const key = Array.isArray(raw) ? raw.join('/') : raw;
    const { exp, sig, scope } = ctx.query as Record<string, string | undefined>;
    if (!isSafeKey(key) || !exp || !sig || !verifySignedKey(key, exp, sig, scope)) throw notFound();
    ctx.set('Cache-Control', 'private, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    try {
      await send(ctx, key, { root: config.storageDir, hidden: false });
    } catch {
      throw notFound();
    }
    if (path.extname(key) === '.svg') ctx.set('Content-Security-Policy', "default-src 'none'");
  });
};

export default filesRoutes;
