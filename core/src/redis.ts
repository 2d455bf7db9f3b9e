import { Redis, type RedisOptions } from 'ioredis';
import { config } from './config.js';
import { logger } from './logger.js';
import { createLogThrottle } from './log-throttle.js';
import { reconnectDelayMs } from './reconnect-policy.js';

// While Redis is away every client fails every reconnect attempt: one line per role per 10 s.
const errorLog = createLogThrottle(10_000);
const troubleLog = createLogThrottle(30_000);

/**
 * Logs an error that repeats while Redis is away (a BullMQ Queue or Worker
 * re-emitting its connection's errors) at most once per 30 s per source and
 * message, with the count of the lines left out.
 */
export function logRepeatedError(source: string, err: Error, msg: string): void {
  const t = troubleLog.hit(`${source}\u0000${err.message}`);
  if (t.log) logger.error({ source, err: err.message, suppressed: t.suppressed }, msg);
}

/**
 * Gives a client an 'error' handler (without one, ioredis prints "Unhandled
 * error event" for every failed reconnect) and logs when the connection is
 * back. Copies made with duplicate() (Socket.IO's subscriber, BullMQ's
 * blocking connection) are watched too.
 */
export function watchRedis(client: Redis, role: string): Redis {
  let down = false;
  client.on('error', (err: NodeJS.ErrnoException) => {
    down = true;
    const t = errorLog.hit(role);
    if (t.log) logger.warn({ redis: role, err: err.message, code: err.code, suppressed: t.suppressed }, 'Redis connection error; reconnecting');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info({ redis: role, suppressed: errorLog.reset(role) }, 'Redis connection is back');
  });
  const duplicate = client.duplicate.bind(client);
  client.duplicate = (override?: Partial<RedisOptions>) => watchRedis(duplicate(override), role);
  return client;
}

/**
 * Redis connections. BullMQ workers need maxRetriesPerRequest: null; the
 * api's own connection fails fast instead so requests do not hang. Every
 * connection reconnects for ever, with a capped backoff, and logs its errors.
 */
export function createRedis(opts: RedisOptions = {}, role = opts.connectionName ?? 'redis'): Redis {
  return watchRedis(
    new Redis(config.redisUrl, {
      lazyConnect: false,
      retryStrategy: (attempt) => reconnectDelayMs(attempt),
      ...opts,
    }),
    role,
  );
}

let shared: Redis | null = null;
/**
 * The shared connection of this process for rate limits and small reads.
 * While Redis is away a command waits for at most two reconnect attempts
 * (well under a second), then fails: the request answers 503.
 */
export function redis(): Redis {
  if (!shared) shared = createRedis({ maxRetriesPerRequest: 2, enableOfflineQueue: true }, 'shared');
  return shared;
}

export async function closeRedis(): Promise<void> {
  if (shared) {
    const r = shared;
    shared = null;
    await r.quit().catch(() => r.disconnect());
  }
}
