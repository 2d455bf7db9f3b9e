import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { QueueEvents } from 'bullmq';
import type { JobOf } from '@sitewalk/proto';
import { Notification, closeDb } from '@sitewalk/core/db';
import { bullPrefix, closeQueues, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis, createRedis } from '@sitewalk/core/redis.js';
import { notify } from '@sitewalk/core/services/notifications.service.js';
import { createUser } from '../../api/test/helpers.js';
import { handlers } from '../src/jobs/index.js';
import { startWorkers, type RunningWorkers } from '../src/runner.js';
import { runTs, type Child } from './child-process.js';
import { settled, useOwnRedisPrefix, waitFor } from './helpers.js';

useOwnRedisPrefix('worker-crash');

// Short locks so a dead worker's job is free again within a second or two.
const TIMINGS = { WORKER_LOCK_MS: '1000', WORKER_STALLED_MS: '300' };

let child: Child | null = null;
let rescuer: RunningWorkers | null = null;
afterEach(async () => {
  child?.proc.kill('SIGKILL');
  await rescuer?.close();
  child = null;
  rescuer = null;
});
afterAll(async () => {
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

async function mailJobsTo(email: string) {
  const jobs = await queue('mail').getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
  return jobs.filter((j) => j && (j.data as JobOf<'mail.send'>).to === email);
}

describe('a worker killed during a job', () => {
  for (const point of ['before', 'after'] as const) {
    it(`is replaced by another worker that completes the job exactly once (killed ${point} the notification was written)`, async () => {
      const { user } = await createUser();
      child = runTs('workers/test/fixtures/crash-worker.ts', { ...TIMINGS, CRASH_POINT: point });
      await child.line(/^READY$/m);

      const completions: string[] = [];
      const events = new QueueEvents('notifications', { connection: createRedis({ maxRetriesPerRequest: null }), prefix: bullPrefix() });
      events.on('completed', ({ jobId }) => completions.push(jobId));
      await events.waitUntilReady();

      try {
        const job = await notify(user.id, { kind: 'account', title: `Crash ${point}`, message: 'Written once.' });
        const holding = await child.line(new RegExp(`^HOLDING (${job.id})$`, 'm'));
        expect(holding[1]).toBe(job.id);
        expect(await Notification.query().where({ user_id: user.id })).toHaveLength(point === 'after' ? 1 : 0);

        child.proc.kill('SIGKILL');
        expect((await child.exited).signal).toBe('SIGKILL');
        expect(await job.getState()).toBe('active');

        // The rescuer checks often for expired locks; its own lock stays long so a slow machine cannot make it stall too.
        rescuer = startWorkers(handlers, { queues: ['notifications'], lockMs: 30_000, stalledMs: 300 });
        const { state, job: done } = await settled(job);
        expect(state).toBe('completed');
        // It came back through BullMQ's stalled-job check, not as a failed attempt.
        expect(done.stalledCounter).toBe(1);
        expect(done.attemptsMade).toBe(1);

        const rows = await Notification.query().where({ user_id: user.id });
        expect(rows.map((r) => r.title)).toEqual([`Crash ${point}`]);
        expect((done.returnvalue as { notification_id: number }).notification_id).toBe(rows[0].id);
        expect(await mailJobsTo(user.email)).toHaveLength(1);
        await waitFor(() => completions.includes(job.id!), 'the completed event');
        expect(completions.filter((id) => id === job.id)).toEqual([job.id]);
      } finally {
        await events.close();
      }
    });
  }
});
