import type { Job } from 'bullmq';
import { config } from '@sitewalk/core/config.js';

/**
 * Gives this test file its own BullMQ queues and Socket.IO channel. Test
 * files run in parallel against one Redis; without this, the workers one
 * file starts would take the jobs another file queued. Call it before
 * anything touches a queue (queues and emitters read the prefix lazily).
 * Child processes inherit it through REDIS_PREFIX.
 */
export function useOwnRedisPrefix(name: string): string {
  // A dot, not a dash: `sitewalk-test-b` is another run's whole prefix, `sitewalk-test.mail` is ours.
  const prefix = `${process.env.REDIS_PREFIX ?? 'sitewalk-test'}.${name}`;
  config.redisPrefix = prefix;
  process.env.REDIS_PREFIX = prefix;
  return prefix;
}

/** Polls until `probe` returns something truthy; fails with `what` after the time limit. */
export async function waitFor<T>(probe: () => Promise<T> | T, what: string, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the job is completed or failed and returns it fresh from Redis. */
export async function settled<T extends Job>(job: T, timeoutMs = 20_000): Promise<{ state: string; job: T }> {
  const queue = (job as unknown as { queue: { getJob(id: string): Promise<T | undefined> } }).queue;
  return waitFor(async () => {
    const state = await job.getState();
    if (state !== 'completed' && state !== 'failed') return null;
    return { state, job: (await queue.getJob(job.id!))! };
  }, `job ${job.name} ${job.id} to finish`, timeoutMs);
}
