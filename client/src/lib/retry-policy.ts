import { CONSTANTS } from '@sitewalk/proto';

/**
 * Retry rules of SPEC §4 and §9 (translations: i18n.ts, by i18next itself), as pure functions with
 * the waiting injected so tests run without real delays.
 */

export interface RetryPolicy {
  /** Total number of tries, the first included. */
  attempts: number;
  /** Delay before try number `retry` + 1 (retry counts from 0). */
  delayMs: (retry: number) => number;
}

/** Session refresh: at most 3 tries, 1 s apart. */
export const REFRESH_POLICY: RetryPolicy = {
  attempts: CONSTANTS.refreshAttempts,
  delayMs: () => CONSTANTS.refreshDelayMs,
};

/** The delays a policy waits between its tries. */
export const retryDelays = (policy: RetryPolicy): number[] =>
  Array.from({ length: Math.max(0, policy.attempts - 1) }, (_, i) => policy.delayMs(i));

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task` until it succeeds or the policy's tries are spent; the last
 * error is thrown. `shouldRetry` may stop early (a 4xx will not get better).
 */
export async function withRetry<T>(
  task: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  opts: { wait?: (ms: number) => Promise<void>; shouldRetry?: (err: unknown) => boolean } = {},
): Promise<T> {
  const wait = opts.wait ?? sleep;
  let lastError: unknown;
  for (let attempt = 0; attempt < policy.attempts; attempt++) {
    if (attempt > 0) await wait(policy.delayMs(attempt - 1));
    try {
      return await task(attempt);
    } catch (err) {
      lastError = err;
      if (opts.shouldRetry && !opts.shouldRetry(err)) break;
    }
  }
  throw lastError;
}

/**
 * Reads answered 503 (the server is briefly away from its database or
 * Redis, e.g. during a restart): tried again up to `retries` times, waiting
 * what the server's Retry-After asks, else `defaultDelayMs` doubling, never
 * longer than `maxDelayMs` at a time. Writes are never repeated: the first
 * may have taken effect, and only the user can decide to send it again.
 */
export interface UnavailablePolicy {
  retries: number;
  defaultDelayMs: number;
  maxDelayMs: number;
}

export const UNAVAILABLE_POLICY: UnavailablePolicy = { retries: 3, defaultDelayMs: 1_000, maxDelayMs: 10_000 };

/** Methods that only read, so sending them again changes nothing on the server. */
const IDEMPOTENT_READS = new Set(['GET', 'HEAD']);

/**
 * Milliseconds asked by a Retry-After header: delay-seconds ("2") or an
 * HTTP date; null when missing or unreadable.
 */
export function retryAfterMs(header: string | null | undefined, now: number = Date.now()): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * How long to wait before trying a failed request again, or null when it
 * must not be tried again: not a 503, not a read, or the retries are spent.
 */
export function unavailableRetryDelay(
  failed: { method: string | undefined; status: number | null | undefined; retryAfter?: string | null; retriesDone: number },
  policy: UnavailablePolicy = UNAVAILABLE_POLICY,
  now: number = Date.now(),
): number | null {
  if (failed.status !== 503) return null;
  if (!IDEMPOTENT_READS.has((failed.method ?? 'GET').toUpperCase())) return null;
  if (failed.retriesDone >= policy.retries) return null;
  const asked = retryAfterMs(failed.retryAfter, now) ?? policy.defaultDelayMs * 2 ** failed.retriesDone;
  return Math.min(policy.maxDelayMs, asked);
}
