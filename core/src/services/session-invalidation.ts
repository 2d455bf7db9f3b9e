import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { redis } from '../redis.js';
import { SessionCache, type AuthWriteMessage } from '../session-cache.js';

/**
 * Keeps every API process's memory of resolved sessions (core/session-cache.ts)
 * true to the database, through Redis pub/sub: a logout, a password change, a
 * disabled or edited account ends or refreshes the session in every process
 * at once.
 *
 * The announcements come from the User and Session models themselves
 * (static hooks in core/db/models), so every update or delete made through
 * them is covered, whatever feature makes it: "begin" is published (and
 * awaited) before the statement runs, "end" once its transaction is over.
 * Writes to `users` or `sessions` must go through those models for this
 * reason; a raw knex write would only be seen when the entry's few seconds run out.
 */

// Short (5 s by default): the cache spares the database the same question asked many times a second, not for long.
export const sessionCache = new SessionCache({ ttlMs: config.sessionCacheTtlMs, maxEntries: 20_000, blockMs: 60_000 });

const channel = () => `${config.redisPrefix}:auth-writes`;

let subscriber: Redis | null = null;

/**
 * Starts this process's subscription (once; the first authenticated request
 * does it). The cache holds nothing until the subscription is confirmed,
 * and forgets everything whenever the connection drops.
 */
export function listenForAuthWrites(): void {
  if (subscriber || config.sessionCacheTtlMs <= 0) return;
  const shared = redis();
  // Our own (re)subscription on each 'ready', so "live" is set only once Redis confirmed it.
  const sub = shared.duplicate({ autoResubscribe: false, connectionName: 'session-cache', maxRetriesPerRequest: null });
  subscriber = sub;
  const down = () => sessionCache.setLive(false);
  sub.on('ready', () => {
    sub.subscribe(channel()).then(
      () => sessionCache.setLive(sub.status === 'ready'),
      (err: Error) => logger.warn({ err: err.message }, 'session cache: could not subscribe; sessions are read from the database'),
    );
  });
  sub.on('close', down);
  sub.on('end', down);
  sub.on('reconnecting', down);
  sub.on('message', (ch: string, text: string) => {
    if (ch !== channel()) return;
    const msg = parseMessage(text);
    // A message it cannot read may have been an invalidation: forget everything.
    if (msg) sessionCache.apply(msg, Date.now());
    else {
      sessionCache.setLive(false);
      sessionCache.setLive(sub.status === 'ready');
    }
  });
  // closeRedis() (server shut-down, tests) ends the shared connection: the subscription goes with it.
  shared.once('end', () => {
    subscriber = null;
    down();
    sub.disconnect();
  });
}

function parseMessage(text: string): AuthWriteMessage | null {
  try {
    const m = JSON.parse(text) as AuthWriteMessage;
    if ((m.op === 'begin' || m.op === 'end') && typeof m.id === 'string' && Array.isArray(m.users) && m.users.every(Number.isInteger)) return m;
  } catch {
    // fall through
  }
  return null;
}

/** Applies here at once, then tells every other process. */
async function announce(msg: AuthWriteMessage): Promise<void> {
  sessionCache.apply(msg, Date.now());
  await redis().publish(channel(), JSON.stringify(msg));
}

type Transactor = Knex.Transaction & { parentTransaction?: Transactor; executionPromise?: Promise<unknown> };

/**
 * Called by the User and Session models before they update or delete rows
 * of these users: announces "begin" (a failure to publish fails the write,
 * answered 503, since other processes could not be told) and arranges "end"
 * for when the outermost transaction is over. Without a transaction the
 * model's after-hook calls the returned function.
 */
export async function beginAuthWrite(userIds: number[], k: Knex | Knex.Transaction | undefined): Promise<(() => void) | null> {
  const users = [...new Set(userIds)];
  if (!users.length) return null;
  const msg: AuthWriteMessage = { op: 'begin', id: crypto.randomUUID(), users };
  await announce(msg);
  const end = () => {
    announce({ ...msg, op: 'end' }).catch((err: Error) =>
      // Only delays caching these users again (until the block expires): nothing stale can be served.
      logger.warn({ err: err.message }, 'session cache: could not announce the end of a write'),
    );
  };
  let trx = (k as Transactor | undefined)?.isTransaction ? (k as Transactor) : undefined;
  while (trx?.parentTransaction) trx = trx.parentTransaction;
  if (trx?.executionPromise) {
    trx.executionPromise.then(end, end);
    return null;
  }
  return end;
}
