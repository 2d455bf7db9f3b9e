/**
 * Tells an error that says "a dependency (PostgreSQL, Redis) is briefly
 * away" from a bug in the request. Such errors answer 503 with Retry-After:
 * retrying the same request a little later will work, unlike after a 500.
 *
 * Pure: looks only at the error object (and what it wraps), so it is unit
 * tested without any server.
 */

export type Dependency = 'database' | 'redis' | 'unknown';

export interface DependencyFailure {
  dependency: Dependency;
  /** A short, log-friendly reason: an error code or class name. */
  reason: string;
}

/** Socket-level failures: the server is not listening, went away, or the network dropped. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTCONN']);

/**
 * PostgreSQL SQLSTATEs that mean "the server cannot serve now" rather than
 * "this statement is wrong": class 08 (connection exception), 57P01
 * admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300
 * too_many_connections.
 */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);
const isPgConnectionClass = (code: string) => /^08[0-9A-Z]{3}$/.test(code);

/** node-postgres raises these without a code when the socket ends under a client. */
// Not anchored: knex puts the SQL in front ("select … - Connection terminated unexpectedly").
const PG_MESSAGES = [
  /\bConnection terminated\b/i,
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
];

/** ioredis raises these when a command cannot be sent or was cut off by a lost connection. */
const REDIS_MESSAGES = [
  /^Connection is closed\.?$/i,
  /Stream isn't writeable and enableOfflineQueue options is false/i,
  /Reached the max retries per request limit/i,
  /^LOADING\b/,
  /^MASTERDOWN\b/,
  /^TRYAGAIN\b/,
];

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  nativeError?: unknown;
  cause?: unknown;
  errors?: unknown;
  port?: unknown;
  command?: unknown;
}

const asErrorLike = (e: unknown): ErrorLike | null => (e && typeof e === 'object' ? (e as ErrorLike) : null);

/** Optional hints: the ports of the database and Redis, to tell whose socket failed. */
export interface ClassifyHints {
  databasePort?: number;
  redisPort?: number;
}

function classifyOne(e: ErrorLike, hints: ClassifyHints): DependencyFailure | null {
  const name = typeof e.name === 'string' ? e.name : '';
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';

  // knex could not get a pooled connection in time: every connection is busy or none can be opened.
  if (name === 'KnexTimeoutError' || /^Knex: Timeout acquiring a connection/.test(message)) return { dependency: 'database', reason: 'pool acquire timeout' };
  if (PG_UNAVAILABLE.has(code) || isPgConnectionClass(code)) return { dependency: 'database', reason: code };
  if (name === 'MaxRetriesPerRequestError') return { dependency: 'redis', reason: name };
  if (PG_MESSAGES.some((re) => re.test(message))) return { dependency: 'database', reason: message.slice(0, 60) };
  if (REDIS_MESSAGES.some((re) => re.test(message))) return { dependency: 'redis', reason: message.slice(0, 60) };
  if (SOCKET_CODES.has(code)) {
    const port = typeof e.port === 'number' ? e.port : undefined;
    const dependency: Dependency =
      port !== undefined && port === hints.databasePort ? 'database' : port !== undefined && port === hints.redisPort ? 'redis' : 'unknown';
    return { dependency, reason: code };
  }
  return null;
}

/**
 * The dependency failure behind `err`, or null when the error is anything
 * else. Looks through the wrappers in between (Objection's DBError
 * `nativeError`, `cause`, an AggregateError's `errors`), a few levels deep.
 */
export function classifyDependencyError(err: unknown, hints: ClassifyHints = {}): DependencyFailure | null {
  const seen = new Set<unknown>();
  const pending: { e: unknown; depth: number }[] = [{ e: err, depth: 0 }];
  while (pending.length) {
    const { e, depth } = pending.shift()!;
    const obj = asErrorLike(e);
    if (!obj || seen.has(obj) || depth > 4) continue;
    seen.add(obj);
    const found = classifyOne(obj, hints);
    if (found) return found;
    for (const inner of [obj.nativeError, obj.cause]) if (inner) pending.push({ e: inner, depth: depth + 1 });
    if (Array.isArray(obj.errors)) for (const inner of obj.errors.slice(0, 5)) pending.push({ e: inner, depth: depth + 1 });
  }
  return null;
}

/** Seconds a client should wait before trying again after such a failure. */
export const RETRY_AFTER_SECONDS = 2;
