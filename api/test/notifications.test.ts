import { afterAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS, notice, withoutIsolates } from '@sitewalk/proto';
import { Notification, db } from '@sitewalk/core/db';
import { getPreferences } from '@sitewalk/core/services/notifications.service.js';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { api, createUser } from './helpers.js';

afterAll(async () => {
  await closeEmitter();
});

async function addNotifications(userId: number, n: number, over: Partial<Notification> = {}) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    rows.push(
      await Notification.query().insertAndFetch({
        user_id: userId,
        kind: 'account',
        title: `Title ${i}`,
        message: `Message ${i}`,
        type: 'info',
        // Distinct times so "newest first" has one right answer.
        created_at: new Date(Date.UTC(2026, 0, 1, 0, i)),
        ...over,
      }),
    );
  }
  return rows;
}

describe('GET /api/notifications', () => {
  it('lists only the user\'s notifications, newest first, paginated, with the unread count', async () => {
    const me = await createUser();
    const other = await createUser();
    await addNotifications(me.user.id, 3);
    await addNotifications(me.user.id, 1, { is_read: true, title: 'Old read', created_at: new Date(Date.UTC(2025, 0, 1)) });
    await addNotifications(other.user.id, 2);

    const res = await api().get('/api/notifications').set(me.auth);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.data.total).toBe(4);
    expect(res.body.data.unread).toBe(3);
    expect(res.body.data.items.map((n: { title: string }) => n.title)).toEqual(['Title 2', 'Title 1', 'Title 0', 'Old read']);
    expect(res.body.data.items[0]).toMatchObject({ message: 'Message 2', type: 'info', is_read: false, link: null });
    expect(typeof res.body.data.items[0].created_at).toBe('string');

    const page2 = await api().get('/api/notifications?page=2&per_page=3').set(me.auth);
    expect(page2.body.data.items.map((n: { title: string }) => n.title)).toEqual(['Old read']);
    expect(page2.body.data).toMatchObject({ page: 2, per_page: 3, total: 4 });
  });

  it('gives a notification written as keys in the reader\'s language, with its keys; an older one keeps its text', async () => {
    const me = await createUser();
    const other = await createUser();
    const text = notice('joinAccepted', { project: 'Abdali Tower', role: { term: 'viewer' } });
    const [keyed] = await addNotifications(me.user.id, 1, { title: 'stored', message: 'stored', title_key: text.title_key, message_key: text.message_key, params: text.params! });
    await addNotifications(me.user.id, 1, { title: 'Written before keys', created_at: new Date(Date.UTC(2025, 0, 1)) });

    const en = await api().get('/api/notifications').set(me.auth);
    expect(en.body.data.items[0]).toMatchObject({ id: keyed.id, title: 'Join request accepted', title_key: 'Join request accepted', params: text.params });
    expect(withoutIsolates(en.body.data.items[0].message)).toBe('You are now a member of the project "Abdali Tower" as viewer.');
    expect(en.body.data.items[1]).toMatchObject({ title: 'Written before keys', message: 'Message 0' });
    expect(en.body.data.items[1].title_key).toBeUndefined();

    // The reader switches to Arabic: the same notification now reads in Arabic, every inserted value (the project's name, the role) isolated.
    expect((await api().post('/api/language').set(me.auth).send({ locale: 'ar' })).status).toBe(200);
    const ar = await api().get('/api/notifications').set(me.auth);
    expect(ar.body.data.items[0].title).toBe('قُبل طلب الانضمام');
    expect(ar.body.data.items[0].message).toBe('أصبحت عضواً في المشروع «\u2068Abdali Tower\u2069» بدور \u2068مشاهد\u2069.');
    expect(ar.body.data.items[1].title).toBe('Written before keys');

    // Someone else's notification stays theirs.
    expect((await api().post('/api/notifications/mark-read').set(other.auth).send({ notification_id: keyed.id })).status).toBe(404);
  });

  it('refuses a bad page with 400 and a missing token with 401', async () => {
    const me = await createUser();
    const bad = await api().get('/api/notifications?per_page=1000').set(me.auth);
    expect(bad.status).toBe(400);
    expect(bad.body.status).toBe('error');
    expect(bad.body.message).toMatch(/per_page/);
    const unknown = await api().get('/api/notifications?page=1&unread_only=1').set(me.auth);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Unknown query parameter: unread_only.');
    const anon = await api().get('/api/notifications');
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ status: 'error', message: 'Please sign in to continue.', data: null });
    const expired = await api().get('/api/notifications').set('Authorization', 'Bearer not-a-live-token');
    expect(expired.status).toBe(401);
  });
});

describe('mark-read, mark-all-read, delete, delete-read', () => {
  it('marks one read and lowers the unread count', async () => {
    const me = await createUser();
    const [a] = await addNotifications(me.user.id, 2);
    const res = await api().post('/api/notifications/mark-read').set(me.auth).send({ notification_id: a.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', data: { unread: 1 } });
    expect((await Notification.query().findById(a.id))!.is_read).toBe(true);
    // Marking it again is harmless.
    const again = await api().post('/api/notifications/mark-read').set(me.auth).send({ notification_id: a.id });
    expect(again.body.data.unread).toBe(1);
  });

  it('marks all read', async () => {
    const me = await createUser();
    await addNotifications(me.user.id, 3);
    const res = await api().post('/api/notifications/mark-all-read').set(me.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.unread).toBe(0);
    const list = await api().get('/api/notifications').set(me.auth);
    expect(list.body.data.items.every((n: { is_read: boolean }) => n.is_read)).toBe(true);
  });

  it('deletes one and, with delete-read, only the read ones', async () => {
    const me = await createUser();
    const [a, b] = await addNotifications(me.user.id, 3);
    await addNotifications(me.user.id, 2, { is_read: true });
    const del = await api().post('/api/notifications/delete').set(me.auth).send({ notification_id: a.id });
    expect(del.status).toBe(200);
    expect(del.body.data.unread).toBe(2);
    expect(await Notification.query().findById(a.id)).toBeUndefined();

    const delRead = await api().post('/api/notifications/delete-read').set(me.auth);
    expect(delRead.status).toBe(200);
    expect(delRead.body.data).toEqual({ unread: 2, deleted: 2 });
    const left = await Notification.query().where({ user_id: me.user.id }).orderBy('id');
    expect(left.map((n) => n.id)).toEqual([b.id, b.id + 1]);
  });

  it('answers 404 for another user\'s notification and leaves it untouched', async () => {
    const me = await createUser();
    const other = await createUser();
    const [theirs] = await addNotifications(other.user.id, 1);
    for (const path of ['mark-read', 'delete']) {
      const res = await api().post(`/api/notifications/${path}`).set(me.auth).send({ notification_id: theirs.id });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: 'This notification does not exist.', data: null });
    }
    const still = await Notification.query().findById(theirs.id);
    expect(still).toMatchObject({ is_read: false });
    const unknown = await api().post('/api/notifications/mark-read').set(me.auth).send({ notification_id: 2_000_000_000 });
    expect(unknown.status).toBe(404);
  });

  it('answers 400 for a missing or malformed notification_id, and 401 without a token', async () => {
    const me = await createUser();
    for (const path of ['mark-read', 'delete']) {
      const missing = await api().post(`/api/notifications/${path}`).set(me.auth).send({});
      expect(missing.status).toBe(400);
      expect(missing.body.message).toMatch(/notification_id/);
      const bad = await api().post(`/api/notifications/${path}`).set(me.auth).send({ notification_id: 'abc' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/notification_id/);
      // No coercion: true is not notification 1, nor 1.5 or a too-large number any id.
      for (const notification_id of [true, false, 1.5, 2 ** 31, '', null, [1]]) {
        const res = await api().post(`/api/notifications/${path}`).set(me.auth).send({ notification_id });
        expect(res.status, JSON.stringify(notification_id)).toBe(400);
        expect(res.body.message).toBe('notification_id must be an id number.');
      }
    }
    for (const path of ['mark-read', 'mark-all-read', 'delete', 'delete-read', 'preferences']) {
      expect((await api().post(`/api/notifications/${path}`).send({ notification_id: 1 })).status).toBe(401);
    }
    expect((await api().get('/api/notifications/preferences')).status).toBe(401);
  });
});

describe('notification preferences', () => {
  it('creates one default preference per kind on first read, all switched on', async () => {
    const me = await createUser();
    const res = await api().get('/api/notifications/preferences').set(me.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.global_settings).toEqual({ in_app: true, email: true, browser: true });
    expect(res.body.data.preferences.map((p: { kind: string }) => p.kind).sort()).toEqual([...NOTIFICATION_KINDS].sort());
    for (const p of res.body.data.preferences) {
      expect(p).toMatchObject({ in_app: true, email: true });
      expect(p.id).toBeGreaterThan(0);
    }
  });

  it('survives concurrent first reads without duplicates', async () => {
    const me = await createUser();
    const results = await Promise.all(Array.from({ length: 6 }, () => getPreferences(me.user.id)));
    for (const r of results) expect(r.preferences).toHaveLength(NOTIFICATION_KINDS.length);
    const rows = await db()('notification_preferences').where({ user_id: me.user.id });
    expect(rows).toHaveLength(NOTIFICATION_KINDS.length);
  });

  it('updates one preference sent whole, with its id, and the global switches', async () => {
    const me = await createUser();
    const { body: got } = await api().get('/api/notifications/preferences').set(me.auth);
    const pref = got.data.preferences.find((p: { kind: string }) => p.kind === 'project_created');
    const res = await api().post('/api/notifications/preferences').set(me.auth).send({ ...pref, email: false });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.message).toBe('Notification preferences updated successfully!');
    expect(res.body.data.preferences.find((p: { id: number }) => p.id === pref.id)).toEqual({ ...pref, email: false });

    const global = await api().post('/api/notifications/preferences').set(me.auth).send({ global_settings: { browser: false } });
    expect(global.status).toBe(200);
    expect(global.body.data.global_settings).toEqual({ in_app: true, email: true, browser: false });
    const reread = await api().get('/api/notifications/preferences').set(me.auth);
    expect(reread.body.data.global_settings.browser).toBe(false);
    expect(reread.body.data.preferences.find((p: { id: number }) => p.id === pref.id).email).toBe(false);
  });

  it('answers 404 for another user\'s preference id and 400 for a body that is neither shape', async () => {
    const me = await createUser();
    const other = await createUser();
    const theirs = (await getPreferences(other.user.id)).preferences[0];
    const res = await api().post('/api/notifications/preferences').set(me.auth).send({ id: theirs.id, email: false });
    expect(res.status).toBe(404);
    expect((await getPreferences(other.user.id)).preferences[0].email).toBe(true);

    for (const bad of [{}, { email: false }, { id: 'x' }, { id: theirs.id, in_app: 'yes' }]) {
      const r = await api().post('/api/notifications/preferences').set(me.auth).send(bad);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/preference with its id, or \{global_settings\}/);
    }
    const unknownSwitch = await api().post('/api/notifications/preferences').set(me.auth).send({ global_settings: { sms: true } });
    expect(unknownSwitch.status).toBe(400);
    expect(unknownSwitch.body.message).toBe('Unknown field: sms.');
  });
});
