/** The workers process: every queue of the registry, until SIGTERM/SIGINT. */
import { closeDb, db } from '@sitewalk/api/db';
import { closeEmitter } from '@sitewalk/api/realtime';
import { closeQueues } from '@sitewalk/api/queue';
import { closeRedis } from '@sitewalk/api/redis';
import { logger } from '@sitewalk/api/logger';
import { handlers } from './jobs/index.js';
import { startWorkers } from './runner.js';

db();
const running = startWorkers(handlers);
logger.info({ queues: running.workers.map((w) => w.name) }, 'workers started');

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'workers stopping: finishing running jobs');
  const force = setTimeout(() => process.exit(1), 30_000);
  force.unref();
  await running.close();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
