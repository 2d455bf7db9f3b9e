import { describe, expect, it } from 'vitest';
import { withoutIsolates } from '@sitewalk/proto';
import { JOB_POLICIES, type JobOf, type VisitDetail } from '@sitewalk/proto';
import { Notification, db } from '@sitewalk/core/db';
import { enqueue, queue } from '@sitewalk/core/queue';
import { getPreferences, updatePreferences } from '@sitewalk/core/services/notifications.service.js';
import { api, createUser, type TestUser } from '../../api/test/helpers.js';
import { addMember, newProject } from '../../api/test/project-helpers.js';
import { SCHEDULES, ensureSchedules } from '../src/schedules.js';
import { queuedMailsTo, runNotificationWorkers } from './notification-workers.js';
import { settled, useOwnRedisPrefix, waitFor } from './helpers.js';

useOwnRedisPrefix('snag-notifications');

runNotificationWorkers();

async function mailsTo(email: string) {
  return (await queuedMailsTo(email)).filter((m) => m.reason.startsWith('notification:snag'));
}

async function team() {
  const supervisor = await createUser({ first_name: 'Sam', last_name: 'Supervisor' });
  const worker = await createUser({ first_name: 'Rana', last_name: 'Haddad' });
  const p = await newProject(supervisor);
  await addMember(p.id, worker, 'editor');
  const v = await api().post('/api/visits').set(supervisor.auth).send({ id_project: p.id, name: 'Walk' });
  return { supervisor, worker, project: p.id, visit: v.body.data as VisitDetail };
}

const createSnag = async (user: TestUser, body: Record<string, unknown>) => {
  const res = await api().post('/api/annotations').set(user.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number };
};

// Only snag news: the new visit of each test's team notifies its members too.
const notificationsOf = (userId: number) => Notification.query().where({ user_id: userId }).where('kind', 'like', 'snag%').orderBy('id');

describe('snag notifications through the notify.dispatch queue', () => {
  it('tells the assignee of a new snag in the app and by e-mail, and the supervisor when it is ready for review', async () => {
    const t = await team();
    const snag = await createSnag(t.supervisor, { id_visit: t.visit.id, title: 'Cracked tile', id_assignee: t.worker.user.id, due_date: '2026-12-01' });
    const [assigned] = await waitFor(async () => {
      const rows = await notificationsOf(t.worker.user.id);
      return rows.length ? rows : null;
    }, "the assignee's notification");
    expect(assigned.toDto()).toMatchObject({ title: 'Snag assigned to you', link: `/viewer/${t.visit.code}?snag=${snag.id}`, is_read: false });
    expect(withoutIsolates(assigned.message)).toBe(`Sam Supervisor assigned you the snag "Cracked tile" (${(await db()('projects').where({ id: t.project }).first()).name}), due Dec 1, 2026.`);
    expect(assigned.kind).toBe('snag_assigned');
    await waitFor(async () => (await mailsTo(t.worker.user.email)).length === 1, 'the e-mail');
    // The supervisor did it: nothing for them.
    expect(await notificationsOf(t.supervisor.user.id)).toHaveLength(0);

    for (const status of ['in_progress', 'ready_for_review']) {
      const res = await api().put(`/api/annotations/${snag.id}`).set(t.worker.auth).send({ status });
      expect(res.status).toBe(200);
    }
    const titles = await waitFor(async () => {
      const rows = await notificationsOf(t.supervisor.user.id);
      return rows.length === 2 ? rows.map((r) => r.title) : null;
    }, "the supervisor's notifications");
    expect(titles).toEqual(['Snag status changed', 'Snag ready for review']);
    // The worker moved it: they hear nothing of their own moves.
    expect(await notificationsOf(t.worker.user.id)).toHaveLength(1);
  });

  it("honours the assignee's preferences: e-mail off for snag assignments sends the in-app notice only", async () => {
    const t = await team();
    const prefs = await getPreferences(t.worker.user.id);
    await updatePreferences(t.worker.user.id, { id: prefs.preferences.find((p) => p.kind === 'snag_assigned')!.id, email: false });
    await createSnag(t.supervisor, { id_visit: t.visit.id, title: 'Loose socket', id_assignee: t.worker.user.id });
    const dispatch = await waitFor(async () => {
      const jobs = await queue('notifications').getJobs(['waiting', 'active', 'delayed', 'completed', 'failed']);
      return jobs.find((j) => j && (j.data as JobOf<'notify.dispatch'>).user_id === t.worker.user.id && (j.data as JobOf<'notify.dispatch'>).kind === 'snag_assigned');
    }, 'the dispatch job');
    const { state, job } = await settled(dispatch);
    expect(state).toBe('completed');
    expect(job.returnvalue).toMatchObject({ mail_queued: false });
    expect(await notificationsOf(t.worker.user.id)).toHaveLength(1);
    expect(await mailsTo(t.worker.user.email)).toHaveLength(0);
  });
});

describe('the daily overdue reminder', () => {
  it('run twice the same day sends each person one reminder listing their overdue snags', async () => {
    const t = await team();
    for (const [title, due] of [['Cracked tile', '2026-11-01'], ['Loose socket', '2026-11-10']] as const) {
      await createSnag(t.supervisor, { id_visit: t.visit.id, title, id_assignee: t.worker.user.id, due_date: due });
    }
    // Not overdue on the day: due that day, closed, or no due date.
    await createSnag(t.supervisor, { id_visit: t.visit.id, title: 'Due today', id_assignee: t.worker.user.id, due_date: '2026-11-20' });
    await createSnag(t.supervisor, { id_visit: t.visit.id, title: 'Done', id_assignee: t.worker.user.id, due_date: '2026-11-02', status: 'closed' });
    // Nobody assigned: the supervisor who wrote it is reminded.
    await createSnag(t.supervisor, { id_visit: t.visit.id, title: 'Unassigned leak', due_date: '2026-11-05' });

    for (let run = 0; run < 2; run++) {
      const job = await enqueue('annotations.remind-overdue', { day: '2026-11-20' });
      const { state } = await settled(job, 30_000);
      expect(state).toBe('completed');
    }
    const reminders = await waitFor(async () => {
      const rows = (await notificationsOf(t.worker.user.id)).filter((n) => n.kind === 'snag_overdue');
      return rows.length ? rows : null;
    }, 'the reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0].title).toBe('You have 2 overdue snags');
    expect(withoutIsolates(reminders[0].message).split('\n')).toEqual(['Snags past their due date:', '• Cracked tile (' + (await db()('projects').where({ id: t.project }).first()).name + ') · 2026-11-01', expect.stringContaining('Loose socket')]);
    expect(reminders[0].link).toBe('/snaglist?due=overdue&assignee=me');
    const supervisorReminders = await waitFor(async () => {
      const rows = (await notificationsOf(t.supervisor.user.id)).filter((n) => n.kind === 'snag_overdue');
      return rows.length ? rows : null;
    }, "the supervisor's reminder");
    expect(supervisorReminders.map((r) => r.title)).toEqual(['You have an overdue snag']);
    expect(await db()('annotation_reminders').where({ id_user: t.worker.user.id })).toHaveLength(1);
    const mails = (await mailsTo(t.worker.user.email)).filter((m) => m.subject.includes('overdue'));
    expect(mails).toHaveLength(1);

    // The next day is another reminder.
    const next = await enqueue('annotations.remind-overdue', { day: '2026-11-21' });
    expect((await settled(next, 30_000)).state).toBe('completed');
    await waitFor(async () => (await notificationsOf(t.worker.user.id)).filter((n) => n.kind === 'snag_overdue').length === 2, 'the next day\'s reminder');
  });

  it('is one job scheduler per environment, however many workers processes upsert it', async () => {
    const first = await ensureSchedules(['notifications', 'exports']);
    const second = await ensureSchedules(['notifications', 'exports']);
    // Every scheduler of those queues (the video queue's upload sweep is another process's).
    expect(first).toEqual(SCHEDULES.filter((s) => ['notifications', 'exports'].includes(JOB_POLICIES[s.job].queue)).map((s) => s.id));
    expect(first).toContain('annotations-remind-overdue-daily');
    expect(second).toEqual(first);
    const daily = (await queue('notifications').getJobSchedulers()).filter((s) => s.key === 'annotations-remind-overdue-daily' || s.id === 'annotations-remind-overdue-daily');
    expect(daily).toHaveLength(1);
    expect(daily[0]).toMatchObject({ name: 'annotations.remind-overdue', pattern: '0 8 * * *' });
    expect(await queue('exports').getJobSchedulersCount()).toBe(1);
    // A process serving only mail puts none in place.
    expect(await ensureSchedules(['mail'])).toEqual([]);
  });
});
