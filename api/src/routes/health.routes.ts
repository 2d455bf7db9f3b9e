import { pingDatabase } from '@sitewalk/core/db';
import { redis } from '@sitewalk/core/redis.js';
import { ok, envelope } from '../http/envelope.js';
import { RETRY_AFTER_SECONDS } from '@sitewalk/core/dependency-errors.js';
import type { RouteModule } from './types.js';

/** A dependency that does not answer within this time counts as down (a load balancer waits no longer). */
const CHECK_TIMEOUT_MS = 3_000;

type State = 'up' | 'down';

/** Resolves 'up' when the check answers in time, 'down' when it fails or is too slow; never rejects. */
async function probe(check: () => Promise<unknown>): Promise<State> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<State>((resolve) => {
    timer = setTimeout(() => resolve('down'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      check().then(
        () => 'up' as const,
        () => 'down' as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const DOWN_MESSAGES: Record<string, string> = {
  database: 'The database does not answer.',
  redis: 'Redis does not answer.',
  'database,redis': 'The database and Redis do not answer.',
};

/**
 * Readiness: 200 when the database and Redis both answer, else 503 with
 * Retry-After, naming the dependency that is down (load balancers and
 * operators read `data.database` / `data.redis`).
 */
const healthRoutes: RouteModule = (r) => {
  r.get('/health', async (ctx) => {
    const [database, redisState] = await Promise.all([probe(() => pingDatabase()), probe(() => redis().ping())]);
    const data = { ok: database === 'up' && redisState === 'up', database, redis: redisState };
    ctx.set('Cache-Control', 'no-store');
    if (data.ok) return ok(ctx, data, 'Healthy');
    const down = [database === 'down' ? 'database' : null, redisState === 'down' ? 'redis' : null].filter(Boolean).join(',');
    ctx.status = 503;
    ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
    ctx.body = envelope('error', DOWN_MESSAGES[down], data);
  });
};

export default healthRoutes;
