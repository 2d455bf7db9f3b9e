import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, db } from '@sitewalk/core/db';
import { closeQueues, enqueue, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis } from '@sitewalk/core/redis.js';
import { jobsOfQueue } from '@sitewalk/proto';
import { handlers } from '../src/jobs/index.js';
import { queuesFromEnv, startWorkers } from '../src/runner.js';
import { missingHandlers } from '../src/registry.js';
import { runTs } from './child-process.js';
import { settled, useOwnRedisPrefix } from './helpers.js';
import { useMailDelivery } from './mail-delivery.js';

useOwnRedisPrefix('worker-process');

afterAll(async () => {
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

describe('starting the workers', () => {
  it('has a handler for every job of the registry', () => {
    expect(missingHandlers(handlers)).toEqual([]);
  });

  it('refuses to start when a job of a served queue has no handler, naming it', () => {
    const { 'mail.send': _left, ...incomplete } = handlers;
    expect(() => startWorkers(incomplete, { queues: ['mail'] })).toThrow('No handler for job(s): mail.send. Refusing to start.');
    expect(missingHandlers({ 'mail.send': handlers['mail.send'] }, ['mail'])).toEqual(jobsOfQueue('mail').filter((n) => n !== 'mail.send'));
  });

  it('serves the queues named in WORKER_QUEUES and rejects unknown names', () => {
    expect(queuesFromEnv('mail, notifications')).toEqual(['mail', 'notifications']);
    expect(queuesFromEnv('')).toEqual(expect.arrayContaining(['mail', 'notifications']));
    // COLMAP's queue alone, for a machine kept for reconstructions.
    expect(queuesFromEnv('reconstruction')).toEqual(['reconstruction']);
    expect(() => queuesFromEnv('mail,videos')).toThrow(/Unknown queue\(s\) in WORKER_QUEUES: videos/);
  });

  it('the workers process exits with the reason instead of starting half-configured', async () => {
    const child = runTs('workers/src/main.ts', { WORKER_QUEUES: 'mail,nonsense' });
    const { code } = await child.exited;
    expect(code).toBe(1);
    expect(child.output()).toContain('SiteWalk workers: Unknown queue(s) in WORKER_QUEUES: nonsense');
  });
});

describe('SIGTERM', () => {
  // No workers in this process: the test starts the real workers process.
  const delivery = useMailDelivery();

  it('lets the running job finish, then the process exits cleanly', async () => {
    // The real workers process, serving every queue.
    const child = runTs('workers/src/main.ts', { WORKER_QUEUES: '', LOG_LEVEL: 'info' });
    await child.line(/"msg":"workers started"/);
    // The server takes its time to accept the message: the job is mid-send when SIGTERM comes.
    delivery.sink.delayData(1_500);
    const to = `shutdown-${Date.now()}@example.test`;
    const started = delivery.sink.dataStarted();
    const job = await enqueue('mail.send', { to, subject: 'Sent during shutdown', text: 'Still delivered.', reason: 'test' });
    await started;
    child.proc.kill('SIGTERM');

    const { code } = await child.exited;
    expect(code).toBe(0);
    expect(child.output()).toContain('workers stopping: finishing running jobs');
    expect(child.output()).toContain('"msg":"workers stopped"');
    expect(delivery.sink.to(to)).toHaveLength(1);
    expect(await job.getState()).toBe('completed');
    expect(await db()('sent_mails').where({ to })).toHaveLength(1);
    delivery.sink.delayData(0);
  });
});

describe('a job with a payload that does not fit its schema', () => {
  it('fails at once without retries, whatever queued it', async () => {
    const running = startWorkers(handlers, { queues: ['notifications'] });
    try {
      // Past the enqueue function's validation, as an older API version or a hand-made job would be.
      const job = await queue('notifications').add('notify.dispatch', { user_id: 'nobody' }, { attempts: 5 });
      const { state, job: done } = await settled(job);
      expect(state).toBe('failed');
      expect(done.attemptsMade).toBe(1);
      expect(done.failedReason).toMatch(/Invalid payload for notify.dispatch/);
    } finally {
      await running.close();
    }
  });
});
