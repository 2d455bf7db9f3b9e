import { Redis, type RedisOptions } from 'ioredis';
import { config } from './config.js';

/**
 * Redis connections. BullMQ workers need maxRetriesPerRequest: null; the
 * api's own connection fails fast instead so requests do not hang.
 */
export function createRedis(opts: RedisOptions = {}): Redis {
  return new Redis(config.redisUrl, { lazyConnect: false, ...opts });
}

let shared: Redis | null = null;
/** The shared connection of this process for rate limits and small reads. */
export function redis(): Redis {
  if (!shared) shared = createRedis({ maxRetriesPerRequest: 2, enableOfflineQueue: true });
  return shared;
}

export async function closeRedis(): Promise<void> {
  if (shared) {
    const r = shared;
    shared = null;
    await r.quit().catch(() => r.disconnect());
  }
}
