import { db } from '../core/db/index.js';
import { redis } from '../core/redis.js';
import { ok } from '../http/envelope.js';
import { HttpError } from '../core/errors.js';
import type { RouteModule } from './types.js';

const healthRoutes: RouteModule = (r) => {
  r.get('/health', async (ctx) => {
    try {
      await db().raw('select 1');
      await redis().ping();
    } catch {
      throw new HttpError(503, 'The database or Redis does not answer.');
    }
    ok(ctx, { ok: true }, 'Healthy');
  });
};

export default healthRoutes;
