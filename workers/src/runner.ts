import { Worker, UnrecoverableError, type Job } from 'bullmq';
import { JOB_POLICIES, QUEUES, jobPayloads, jobsOfQueue, type JobName, type QueueName } from '@sitewalk/proto';
import { bullPrefix } from '@sitewalk/core/queue';
import { createRedis, logRepeatedError } from '@sitewalk/core/redis.js';
import { logger } from '@sitewalk/core/logger.js';
import { missingHandlers, type HandlerTable } from './registry.js';

export interface RunningWorkers {
  workers: Worker[];
  close: () => Promise<void>;
}

export interface WorkerTimings {
  /** How long a worker holds a job's lock before renewing it; a dead worker's job is free again after this. */
  lockMs?: number;
  /** How often workers look for jobs whose lock expired (their worker died) and put them back. */
  stalledMs?: number;
}

const envMs = (name: string): number | undefined => {
  const v = process.env[name];
  return v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined;
};

/**
 * Lock and stall timings, the same for every queue. A worker renews the lock
 * of each job it runs every lockMs / 2 (BullMQ does it on a timer, so a job
 * keeps its lock however long it runs, as long as the event loop is free:
 * tools run as child processes, pixel work in small awaited steps). When a
 * workers process dies its locks are not renewed: they expire at most lockMs
 * after, and the next stall check (every stalledMs, by any live worker of the
 * queue) puts the job back for another worker. With 8 s and 5 s, a dead
 * worker's job is taken over within 13 s; an event loop blocked for more than
 * about 4 s would lose a lock (the loop monitor of main.ts reports it).
 * WORKER_LOCK_MS and WORKER_STALLED_MS change them.
 */
export const DEFAULT_LOCK_MS = 8_000;
export const DEFAULT_STALLED_MS = 5_000;

export function workerTimings(over: WorkerTimings = {}): Required<WorkerTimings> {
  return {
    lockMs: over.lockMs ?? envMs('WORKER_LOCK_MS') ?? DEFAULT_LOCK_MS,
    stalledMs: over.stalledMs ?? envMs('WORKER_STALLED_MS') ?? DEFAULT_STALLED_MS,
  };
}

/**
 * The queues this process serves: WORKER_QUEUES (comma-separated, e.g.
 * "sheets" on a machine kept for heavy work), else all of them.
 */
export function queuesFromEnv(value = process.env.WORKER_QUEUES): QueueName[] {
  const wanted = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!wanted.length) return [...QUEUES];
  const unknown = wanted.filter((q) => !(QUEUES as readonly string[]).includes(q));
  if (unknown.length) throw new Error(`Unknown queue(s) in WORKER_QUEUES: ${unknown.join(', ')}. Known: ${QUEUES.join(', ')}.`);
  return wanted as QueueName[];
}

/**
 * Starts one BullMQ worker per queue (all queues unless told otherwise),
 * dispatching each job to its handler. Refuses to start when a job of a
 * served queue has no handler. Bad payloads fail at once
 * (UnrecoverableError): retrying cannot fix them.
 */
export function startWorkers(
  handlers: Partial<HandlerTable>,
  opts: { queues?: readonly QueueName[] } & WorkerTimings = {},
): RunningWorkers {
  const queues = opts.queues ?? QUEUES;
  const missing = missingHandlers(handlers, queues);
  if (missing.length) throw new Error(`No handler for job(s): ${missing.join(', ')}. Refusing to start.`);
  const workers: Worker[] = [];
  const connections: ReturnType<typeof createRedis>[] = [];
  for (const queueName of queues) {
    const names = jobsOfQueue(queueName);
    if (!names.length) continue;
    const concurrency = Math.max(...names.map((n) => JOB_POLICIES[n].concurrency));
    const { lockMs, stalledMs } = workerTimings(opts);
    // Reconnects for ever with a capped backoff and logs its errors (core/redis.ts); BullMQ resumes fetching when it is back.
    const connection = createRedis({ maxRetriesPerRequest: null }, `worker:${queueName}`);
    connections.push(connection);
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
      {
        connection,
        prefix: bullPrefix(),
        concurrency,
        lockDuration: lockMs,
        stalledInterval: stalledMs,
        autorun: true,
      },
    );
    worker.on('failed', (job, err) => logger.warn({ job: job?.name, job_id: job?.id, err: err.message }, 'job failed'));
    // While Redis is away the worker reports each failed fetch; one line per queue per 30 s says it all.
    worker.on('error', (err) => logRepeatedError(`worker:${queueName}`, err, 'worker error'));
    workers.push(worker);
  }
  return {
    workers,
    close: async () => {
      // Lets running jobs finish; a job still running past the lock is picked up by another worker.
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
