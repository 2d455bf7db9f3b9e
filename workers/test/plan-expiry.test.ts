import { describe, expect, it } from 'vitest';
import { formatDay, withoutIsolates } from '@sitewalk/proto';
import { Notification, db } from '@sitewalk/core/db';
import { enqueue, queue } from '@sitewalk/core/queue';
import { PLAN_EXPIRY_SCHEDULER_ID } from '@sitewalk/core/services/plan-expiry.service.js';
import { ensureSchedules } from '../src/schedules.js';
import { addDays } from '@sitewalk/core/services/plan-expiry-rules.js';
import { createUser, uniqueName } from '../../api/test/helpers.js';
import { queuedMailsTo, runNotificationWorkers } from './notification-workers.js';
import { settled, useOwnRedisPrefix, waitFor } from './helpers.js';

useOwnRedisPrefix('plan-expiry');

runNotificationWorkers();

const mailsTo = queuedMailsTo;

async function subscription(expiresAt: string) {
  const owner = await createUser();
  const [plan] = await db()('plans').insert({ name: uniqueName('Plan'), price: 10, period: 'month', member_slots: 1 }).returning('id');
  const [sub] = await db()('plan_subscriptions').insert({ id_plan: plan.id, id_owner: owner.user.id, expires_at: expiresAt }).returning('id');
  return { owner, id: sub.id as number };
}

/** Runs the scan through the queue, as the scheduler does, for a given day. */
async function scan(date: string) {
  const { state, job } = await settled(await enqueue('plan.expiry-scan', { date }));
  expect(state).toBe('completed');
  return job.returnvalue as { expiring: number; expired: number };
}

const planNotices = (userId: number) => Notification.query().where({ user_id: userId, kind: 'plan' }).orderBy('id');

describe('plan expiry scan', () => {
  it('run twice on the same day sends one notice (in the app and by e-mail); a later day sends the next notice once', async () => {
    const today = '2031-03-10';
    const { owner, id } = await subscription(addDays(today, 5));

    const first = await scan(today);
    const second = await scan(today);
    expect(first.expiring).toBeGreaterThanOrEqual(1);
    expect(second.expiring).toBe(0);
    const rows = await waitFor(async () => {
      const r = await planNotices(owner.user.id);
      return r.length ? r : null;
    }, 'the expiring notice');
    // Give a duplicate, had one been queued, time to land before counting.
    await waitFor(async () => (await queue('notifications').getJobCounts('waiting', 'active', 'delayed')).waiting === 0, 'an idle notifications queue');
    expect((await planNotices(owner.user.id)).map((n) => n.title)).toEqual(['Your plan expires soon']);
    expect(withoutIsolates(rows[0].message)).toBe(`Your plan "${(await db()('plans').join('plan_subscriptions as s', 's.id_plan', 'plans.id').where('s.id', id).first('plans.name')).name}" expires on ${formatDay(addDays(today, 5), 'en')} (in 5 days). Renew it to keep your members and limits.`);
    expect((await mailsTo(owner.user.email)).map((m) => m.subject)).toEqual(['Your plan expires soon']);

    // The next day: nothing new. On the expiry day: the expired notice, once.
    expect((await scan(addDays(today, 1))).expiring).toBe(0);
    await scan(addDays(today, 5));
    await scan(addDays(today, 5));
    await waitFor(async () => (await planNotices(owner.user.id)).length === 2, 'the expired notice');
    await waitFor(async () => (await queue('notifications').getJobCounts('waiting', 'active', 'delayed')).waiting === 0, 'an idle notifications queue');
    expect((await planNotices(owner.user.id)).map((n) => n.title)).toEqual(['Your plan expires soon', 'Your plan has expired']);
    expect(await db()('plan_notices').where({ id_subscription: id }).count<{ n: number }[]>({ n: '*' }).first()).toEqual({ n: 2 });

    // A renewal is a new period: its own notices.
    await db()('plan_subscriptions').where({ id }).update({ expires_at: addDays(today, 40) });
    await scan(addDays(today, 35));
    await waitFor(async () => (await planNotices(owner.user.id)).length === 3, 'the notice of the renewed period');
  });

  it('registers one daily scheduler however many workers processes start', async () => {
    await Promise.all([ensureSchedules(['notifications']), ensureSchedules(['notifications']), ensureSchedules(['notifications'])]);
    await ensureSchedules(['notifications']);
    const schedulers = (await queue('notifications').getJobSchedulers()).filter((s) => s.key === PLAN_EXPIRY_SCHEDULER_ID);
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ name: 'plan.expiry-scan', pattern: '10 0 * * *' });
    await queue('notifications').removeJobScheduler(PLAN_EXPIRY_SCHEDULER_ID);
  });
});
