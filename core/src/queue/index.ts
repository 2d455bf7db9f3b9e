import { Queue, type JobsOptions } from 'bullmq';
import { JOB_POLICIES, jobPayloads, type JobInput, type JobName, type QueueName } from '@sitewalk/proto';
import { config } from '../config.js';
import { createRedis, logRepeatedError } from '../redis.js';
import { logger } from '../logger.js';

const queues = new Map<QueueName, Queue>();
let connection: ReturnType<typeof createRedis> | null = null;

/** BullMQ key prefix; hash-tagged so a Redis Cluster keeps a queue on one slot. */
export const bullPrefix = () => `{${config.redisPrefix}}:bull`;

export function queue(name: QueueName): Queue {
  let q = queues.get(name);
  if (!q) {
    // maxRetriesPerRequest null: an enqueue made while Redis restarts waits for the reconnect instead of failing.
    connection ??= createRedis({ maxRetriesPerRequest: null }, 'queue');
    q = new Queue(name, { connection, prefix: bullPrefix() });
    // Without a listener an 'error' event of the Queue would be thrown; a lost connection reconnects by itself.
    q.on('error', (err) => logRepeatedError(`queue:${name}`, err, 'queue error'));
    queues.set(name, q);
  }
  return q;
}

/**
 * The one enqueue function: validates the payload against the registry and
 * applies the job's retry policy. `jobId` makes enqueueing idempotent: the
 * same id is never queued twice while the first is kept.
 */
export async function enqueue<N extends JobName>(name: N, payload: JobInput<N>, opts: { jobId?: string; delay?: number } = {}) {
  const policy = JOB_POLICIES[name];
  const data = jobPayloads[name].parse(payload);
  const jobOpts: JobsOptions = {
    attempts: policy.attempts,
    backoff: { type: 'exponential', delay: policy.backoffMs },
    removeOnComplete: { age: 24 * 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
    ...(opts.jobId ? { jobId: opts.jobId } : {}),
    ...(opts.delay ? { delay: opts.delay } : {}),
  };
  const job = await queue(policy.queue).add(name, data, jobOpts);
  logger.debug({ job: name, id: job.id }, 'enqueued');
  return job;
}

export async function closeQueues(): Promise<void> {
  await Promise.all([...queues.values()].map((q) => q.close()));
  queues.clear();
  if (connection) {
    await connection.quit().catch(() => undefined);
    connection = null;
  }
}
