import { describe, expect, it } from 'vitest';
import { Notification, User } from '@sitewalk/core/db';
import { getPreferences, notify, updatePreferences } from '@sitewalk/core/services/notifications.service.js';
import { notice } from '@sitewalk/proto';
import { createUser } from '../../api/test/helpers.js';
import { lockSettings } from '../../api/test/settings-lock.js';
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
    expect(mails[0].text).toMatch(/Tower B was created\.\n\nOpen in .+: https?:\/\/[^/]+\/project\/7/);
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

  it('writes a keyed notice in the recipient\'s language, in the app and in the mail, calling the site by its name', async () => {
    const { user } = await createUser({ first_name: 'Lina' });
    await User.query().patch({ language: 'ar' }).where({ id: user.id });
    const settings = await lockSettings();
    try {
      await settings.set({ name: 'Abdali Works' });
      await deliver(user.id, { kind: 'team', ...notice('joinDeclined', { project: 'Tower B' }), link: '/join' } as Parameters<typeof notify>[1]);
    } finally {
      await settings.release();
    }
    const [row] = await Notification.query().where({ user_id: user.id });
    expect(row).toMatchObject({ title: 'رُفض طلب الانضمام', title_key: 'Join request declined', params: { project: 'Tower B' } });
    expect(row.message).toBe('رُفض طلبك الانضمام إلى المشروع «\u2068Tower B\u2069».');
    // The live push carries the keys, so a browser showing English renders it in English.
    expect(row.toDto()).toMatchObject({ message_key: 'Your request to join the project "{project}" was declined.' });
    const [mail] = await mailsTo(user.email);
    expect(mail.subject).toBe('رُفض طلب الانضمام');
    expect(mail.text).toContain('مرحباً Lina،');
    expect(mail.text).toContain('رُفض طلبك الانضمام إلى المشروع');
    expect(mail.text).toContain('فريق Abdali Works');
    expect(mail.html).toContain('dir="rtl"');
  });

  it('drops the notification of a user who no longer exists', async () => {
    const { user } = await createUser();
    await User.query().deleteById(user.id);
    const done = await deliver(user.id);
    expect(done.returnvalue).toEqual({ notification_id: null, mail_queued: false, skipped: 'no_user' });
  });
});
