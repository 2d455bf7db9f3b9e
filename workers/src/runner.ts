import { Worker, UnrecoverableError, type Job } from 'bullmq';
import { JOB_POLICIES, QUEUES, jobPayloads, jobsOfQueue, type JobName, type QueueName } from '@sitewalk/proto';
import { bullPrefix } from '@sitewalk/api/queue';
import { createRedis } from '@sitewalk/api/redis';
import { logger } from '@sitewalk/api/logger';
import { missingHandlers, type HandlerTable } from './registry.js';

export interface RunningWorkers {
  workers: Worker[];
  close: () => Promise<void>;
}

/**
 * Starts one BullMQ worker per queue, dispatching each job to its handler.
 * Bad payloads fail at once (UnrecoverableError): retrying cannot fix them.
 */
export function startWorkers(handlers: HandlerTable, opts: { queues?: readonly QueueName[] } = {}): RunningWorkers {
  const missing = missingHandlers(handlers);
  if (missing.length) throw new Error(`No handler for job(s): ${missing.join(', ')}. Refusing to start.`);
  const workers: Worker[] = [];
  for (const queueName of opts.queues ?? QUEUES) {
    const names = jobsOfQueue(queueName);
    if (!names.length) continue;
    const concurrency = Math.max(...names.map((n) => JOB_POLICIES[n].concurrency));
    const lockDuration = Math.max(...names.map((n) => Math.min(JOB_POLICIES[n].timeoutMs, 120_000)), 30_000);
    const connection = createRedis({ maxRetriesPerRequest: null });
    const worker = new Worker(
      queueName,
      async (job: Job) => {
        const name = job.name as JobName;
        const schema = jobPayloads[name];
        if (!schema) throw new UnrecoverableError(`Unknown job ${job.name}`);
        const parsed = schema.safeParse(job.data);
        if (!parsed.success) throw new UnrecoverableError(`Invalid payload for ${name}: ${parsed.error.message}`);
        const log = logger.child({ job: name, job_id: job.id, attempt: job.attemptsMade + 1 });
        log.info('job started');
        const handler = handlers[name] as (d: unknown, j: Job) => Promise<unknown>;
        const result = await handler(parsed.data, job);
        log.info('job completed');
        return result;
      },
      { connection, prefix: bullPrefix(), concurrency, lockDuration, autorun: true },
    );
    worker.on('failed', (job, err) => logger.warn({ job: job?.name, job_id: job?.id, err: err.message }, 'job failed'));
    worker.on('error', (err) => logger.error({ err }, 'worker error'));
    workers.push(worker);
  }
  return {
    workers,
    close: async () => {
      // Lets running jobs finish; a job still running past the lock is picked up by another worker.
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all(workers.map((w) => (w.opts.connection as ReturnType<typeof createRedis>).quit?.().catch(() => undefined)));
    },
  };
}
