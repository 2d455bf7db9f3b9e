/** The workers process: the queues of WORKER_QUEUES (default all), until SIGTERM/SIGINT. */
import { closeDb, db } from '@sitewalk/core/db';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeQueues } from '@sitewalk/core/queue';
import { closeRedis } from '@sitewalk/core/redis.js';
import { logger } from '@sitewalk/core/logger.js';
import { warmImageLibrary } from './adapters/panorama-tiles.js';
import { handlers } from './jobs/index.js';
import { watchEventLoop } from './loop-monitor.js';
import { queuesFromEnv, startWorkers, workerTimings, type RunningWorkers } from './runner.js';
import { ensureSchedules } from './schedules.js';

let running: RunningWorkers;
try {
  running = startWorkers(handlers, { queues: queuesFromEnv() });
} catch (err) {
  logger.fatal({ err: (err as Error).message }, 'workers not started');
  console.error(`SiteWalk workers: ${(err as Error).message}`);
  process.exit(1);
}
db();
watchEventLoop(workerTimings().lockMs);
logger.info({ queues: running.workers.map((w) => w.name) }, 'workers started');
// pdf.js is not loaded here but by the first PDF job, and kept: loaded at start it held 46 MB of an
// idle process (172 MB instead of 126 MB, bench/startup-bench.ts) for a one-off second of CPU.
if (running.workers.some((w) => w.name === 'rooms')) {
  warmImageLibrary().catch((err) => logger.error({ err }, 'could not start the image library; 360 photo jobs will try again'));
}
// A process that cannot reach Redis now still serves its queues once it can; the next start upserts the schedules.
ensureSchedules(queuesFromEnv()).then(
  (ids) => logger.info({ schedules: ids }, 'schedules in place'),
  (err) => logger.error({ err }, 'could not put the schedules in place'),
);

let stopping = false;
/** Stops taking jobs, lets the running ones finish (up to 30 s), then closes every connection. */
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'workers stopping: finishing running jobs');
  const force = setTimeout(() => {
    logger.error('jobs still running after 30 s: exiting; their locks expire and another worker retries them');
    process.exit(1);
  }, 30_000);
  force.unref();
  await running.close();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  logger.info('workers stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
