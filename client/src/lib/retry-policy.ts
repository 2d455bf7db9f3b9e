import { CONSTANTS } from '@sitewalk/proto';

/**
 * Retry and concurrency rules of SPEC §4, §7 and §9, as pure functions with
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

/** Translations: up to 5 retries after the first read, the delay doubling from 350 ms. */
export const TRANSLATION_POLICY: RetryPolicy = {
  attempts: 1 + CONSTANTS.translationRetries,
  delayMs: (retry) => CONSTANTS.translationRetryBaseMs * 2 ** retry,
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

/** A gate that lets at most `max` tasks run at once; the others queue in order. */
export function createLimiter(max: number) {
  let running = 0;
  const queue: (() => void)[] = [];
  const next = () => {
    if (running >= max) return;
    const start = queue.shift();
    if (start) start();
  };
  return function limit<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push(() => {
        running++;
        task().then(resolve, reject).finally(() => {
          running--;
          next();
        });
      });
      next();
    });
  };
}
