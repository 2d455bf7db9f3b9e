import { afterAll, beforeAll } from 'vitest';
import type { JobOf } from '@sitewalk/proto';
import { closeDb } from '@sitewalk/core/db';
import { closeQueues, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis } from '@sitewalk/core/redis.js';
import { openMailJob } from '@sitewalk/core/mail/sealed-mail.js';
import { handlers } from '../src/jobs/index.js';
import { startWorkers, type RunningWorkers } from '../src/runner.js';

/**
 * Runs only the notifications queue for the test file (the scheduled scans and
 * notify.dispatch); mail jobs stay queued, so a test reads what would be mailed
 * with `queuedMailsTo`. Closes every connection after the file.
 */
export function runNotificationWorkers(): void {
  let workers: RunningWorkers | undefined;
  beforeAll(() => {
    workers = startWorkers(handlers, { queues: ['notifications'] });
  });
  afterAll(async () => {
    await workers?.close();
    await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
    await closeDb();
  });
}

/** The mails queued for an address (any state). */
export async function queuedMailsTo(email: string): Promise<ReturnType<typeof openMailJob>[]> {
  const jobs = await queue('mail').getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
  return jobs.filter((j) => j && (j.data as JobOf<'mail.send'>).to === email).map((j) => openMailJob(j.data as JobOf<'mail.send'>));
}
