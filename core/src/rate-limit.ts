import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { config } from './config.js';
import { redis } from './redis.js';
import { tooManyRequests } from './errors.js';

const limiters = new Map<string, RateLimiterRedis>();

/** A named Redis-backed limiter: `points` attempts per `durationSec`. */
export function limiter(name: string, points: number, durationSec: number): RateLimiterRedis {
  let l = limiters.get(name);
  if (!l) {
    l = new RateLimiterRedis({
      storeClient: redis(),
      keyPrefix: `${config.redisPrefix}:rl:${name}`,
      points,
      duration: durationSec,
    });
    limiters.set(name, l);
  }
  return l;
}

/** The 429 of a spent limiter: the message and when to try again. */
function refusal(res: RateLimiterRes, message: string) {
  const sec = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return tooManyRequests(`${message} Try again in ${sec >= 60 ? `${Math.ceil(sec / 60)} minute(s)` : `${sec} second(s)`}.`, sec);
}

/** Spends one point; when none is left, refuses with 429 and a clear message. */
export async function consume(l: RateLimiterRedis, key: string, message: string): Promise<void> {
  try {
    await l.consume(key);
  } catch (e) {
    if (e instanceof RateLimiterRes) throw refusal(e, message);
    throw e;
  }
}

/**
 * Refuses with 429 when the key has no points left, without spending one:
 * for limits that count only failures, checked before each attempt.
 */
export async function refuseWhenBlocked(l: RateLimiterRedis, key: string, message: string): Promise<void> {
  const blocked = await isBlocked(l, key);
  if (blocked) throw refusal(blocked, message);
}

/** True when the key has no points left (without spending one). */
export async function isBlocked(l: RateLimiterRedis, key: string): Promise<RateLimiterRes | null> {
  const r = await l.get(key);
  return r && r.remainingPoints <= 0 ? r : null;
}
