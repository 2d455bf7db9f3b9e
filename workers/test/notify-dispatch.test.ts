import { describe, expect, it } from 'vitest';
import { Notification, User } from '@sitewalk/api/core/db';
import { getPreferences, notify, updatePreferences } from '@sitewalk/api/core/services/notifications.service.js';
import { createUser } from '../../api/test/helpers.js';
import { queuedMailsTo, runNotificationWorkers } from './notification-workers.js';
import { settled, useOwnRedisPrefix } from './helpers.js';

useOwnRedisPrefix('notify-dispatch');

runNotificationWorkers();

const mailsTo = queuedMailsTo;

async function deliver(userId: number, over: Partial<Parameters<typeof notify>[1]> = {}) {
  const job = await notify(userId, { kind: 'project_created', title: 'Project created', message: 'Tower B was created.', type: 'success', link: '/project/7', ...over });
  const { state, job: done } = await settled(job);
  expect(state).toBe('completed');
  return done;
}

describe('notify.dispatch', () => {
  it('stores the notification in the app and queues the e-mail with an absolute link', async () => {
    const { user } = await createUser();
    await deliver(user.id);
    const rows = await Notification.query().where({ user_id: user.id });
    expect(rows).toHaveLength(1);
    expect(rows[0].toDto()).toMatchObject({ title: 'Project created', message: 'Tower B was created.', type: 'success', is_read: false, link: '/project/7' });
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Project created');
    expect(mails[0].text).toMatch(/Tower B was created\.\n\nhttps?:\/\/[^/]+\/project\/7/);
  });

  it('respects the per-kind switches: no in-app row when in_app is off, no mail when email is off', async () => {
    const { user } = await createUser();
    const prefs = await getPreferences(user.id);
    const projectPref = prefs.preferences.find((p) => p.kind === 'project_created')!;
    await updatePreferences(user.id, { id: projectPref.id, in_app: false });
    const teamPref = prefs.preferences.find((p) => p.kind === 'team')!;
    await updatePreferences(user.id, { id: teamPref.id, email: false });

    const first = await deliver(user.id, { kind: 'project_created', title: 'Mail only' });
    expect(first.returnvalue).toEqual({ notification_id: null, mail_queued: true });
    const second = await deliver(user.id, { kind: 'team', title: 'App only' });
    expect(second.returnvalue).toMatchObject({ mail_queued: false });

    const rows = await Notification.query().where({ user_id: user.id });
    expect(rows.map((r) => r.title)).toEqual(['App only']);
    expect((await mailsTo(user.email)).map((m) => m.subject)).toEqual(['Mail only']);
  });

  it('respects the global switches over every kind', async () => {
    const { user } = await createUser();
    await updatePreferences(user.id, { global_settings: { in_app: false, email: false } });
    const done = await deliver(user.id, { kind: 'account' });
    expect(done.returnvalue).toEqual({ notification_id: null, mail_queued: false });
    expect(await Notification.query().where({ user_id: user.id })).toHaveLength(0);
    expect(await mailsTo(user.email)).toHaveLength(0);
  });

  it('sends no mail when the caller asks for in-app only', async () => {
    const { user } = await createUser();
    await deliver(user.id, { email: false });
    expect(await Notification.query().where({ user_id: user.id })).toHaveLength(1);
    expect(await mailsTo(user.email)).toHaveLength(0);
  });

  it('adds nothing twice when the same job runs again', async () => {
    const { user } = await createUser();
    const job = await deliver(user.id);
    await job.retry('completed');
    const again = await settled(job);
    expect(again.state).toBe('completed');
    expect(await Notification.query().where({ user_id: user.id })).toHaveLength(1);
    expect(await mailsTo(user.email)).toHaveLength(1);
  });

  it('queues one job for one event key, however often the event is reported', async () => {
    const { user } = await createUser();
    const key = `project-7-created-for-${user.id}`;
    const a = await notify(user.id, { kind: 'project_created', title: 'Once', message: '' }, { key });
    const b = await notify(user.id, { kind: 'project_created', title: 'Once', message: '' }, { key });
    expect(b.id).toBe(a.id);
    await settled(a);
    expect(await Notification.query().where({ user_id: user.id })).toHaveLength(1);
  });

  it('drops the notification of a user who no longer exists', async () => {
    const { user } = await createUser();
    await User.query().deleteById(user.id);
    const done = await deliver(user.id);
    expect(done.returnvalue).toEqual({ notification_id: null, mail_queued: false, skipped: 'no_user' });
  });
});
