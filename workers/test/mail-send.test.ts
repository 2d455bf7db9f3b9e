import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, db } from '@sitewalk/core/db';
import { closeQueues, enqueue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis } from '@sitewalk/core/redis.js';
import { settled, useOwnRedisPrefix } from './helpers.js';
import { useMailDelivery } from './mail-delivery.js';

useOwnRedisPrefix('mail-send');

// Registered before the mail delivery's hooks, so it runs after them.
afterAll(async () => {
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});
const delivery = useMailDelivery({ queues: ['mail'] });

const address = (tag: string) => `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

describe('mail.send', () => {
  it('delivers the mail to the SMTP server of the settings, from the configured sender', async () => {
    const to = address('deliver');
    const job = await enqueue('mail.send', { to, subject: 'Your site walk is ready', text: 'Open it here.', html: '<p>Open it here.</p>', reason: 'test' });
    const { state, job: done } = await settled(job);
    expect(state).toBe('completed');
    expect(done.returnvalue).toMatchObject({ sent: true });
    const got = delivery.sink.to(to);
    expect(got).toHaveLength(1);
    expect(got[0].from).toBe('sitewalk@example.test');
    expect(got[0].raw).toMatch(/^Subject: Your site walk is ready/m);
    expect(got[0].raw).toMatch(/From: SiteWalk Test <sitewalk@example.test>/);
    expect(got[0].raw).toContain('Open it here.');
  });

  it('sends nothing when the same job runs a second time', async () => {
    const to = address('once');
    const job = await enqueue('mail.send', { to, subject: 'Only once', text: 'Hello', reason: 'test' }, { jobId: `test-once-${Date.now()}` });
    expect((await settled(job)).state).toBe('completed');
    expect(delivery.sink.to(to)).toHaveLength(1);

    // The same job again, as after a stall or a manual retry.
    await job.retry('completed');
    const again = await settled(job);
    expect(again.state).toBe('completed');
    expect(again.job.returnvalue).toEqual({ sent: false, skipped: 'already_sent' });
    expect(delivery.sink.to(to)).toHaveLength(1);
    const rows = await db()('sent_mails').where({ to });
    expect(rows).toHaveLength(1);
  });

  it('retries a temporary refusal with backoff and then delivers once', async () => {
    const to = address('retry');
    delivery.sink.refuse(to, 451, 1);
    const job = await enqueue('mail.send', { to, subject: 'After a retry', text: 'Hello', reason: 'test' });
    const { state, job: done } = await settled(job, 30_000);
    expect(state).toBe('completed');
    expect(done.attemptsMade).toBe(2);
    expect(delivery.sink.to(to)).toHaveLength(1);
  });

  it('fails at once, without retrying, when the server refuses the address for good', async () => {
    const to = address('refused');
    delivery.sink.refuse(to, 550);
    const job = await enqueue('mail.send', { to, subject: 'Nobody home', text: 'Hello', reason: 'test' });
    const { state, job: done } = await settled(job);
    expect(state).toBe('failed');
    expect(done.attemptsMade).toBe(1);
    expect(done.failedReason).toMatch(/No such mailbox/);
    expect(delivery.sink.to(to)).toHaveLength(0);
    // Nothing counts as sent, so a later corrected retry may still send.
    expect(await db()('sent_mails').where({ to })).toHaveLength(0);
  });

  it('is skipped, and completes with the reason, while the SMTP settings are not verified', async () => {
    await delivery.settings.set({ smtp_valid: false });
    try {
      const to = address('skipped');
      const job = await enqueue('mail.send', { to, subject: 'Not now', text: 'Hello', reason: 'test' });
      const { state, job: done } = await settled(job);
      expect(state).toBe('completed');
      expect(done.returnvalue).toEqual({ sent: false, skipped: 'smtp_not_valid' });
      expect(delivery.sink.to(to)).toHaveLength(0);
    } finally {
      await delivery.settings.set({ smtp_valid: true });
    }
  });
});
