import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { LIVE_WAIT_MS, connected } from '../../test/support/socket-connected.js';
import type { ClientToServerEvents, Notification as NotificationDto, ServerToClientEvents } from '@sitewalk/proto';
import { userRoom } from '@sitewalk/proto';
import { createApp } from '../src/app.js';
import { Session, closeDb } from '@sitewalk/core/db';
import { closeQueues } from '@sitewalk/core/queue';
import { attachRealtime } from '../src/realtime/gateway.js';
import { closeEmitter, emitTo, signalSessionRevoked } from '@sitewalk/core/realtime/emitter.js';
import { closeRedis } from '@sitewalk/core/redis.js';
import { issueSession } from '@sitewalk/core/services/session.service.js';
import { notify } from '@sitewalk/core/services/notifications.service.js';
import { handlers } from '../../workers/src/jobs/index.js';
import { startWorkers, type RunningWorkers } from '../../workers/src/runner.js';
import { useOwnRedisPrefix, waitFor } from '../../workers/test/helpers.js';
import { api, createUser } from './helpers.js';

useOwnRedisPrefix('realtime');

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

interface ApiProcess {
  url: string;
  close: () => Promise<void>;
}

/** One API "process": the app and Socket.IO on their own HTTP server and their own Redis adapter. */
async function startApiProcess(): Promise<ApiProcess> {
  const server = http.createServer(createApp({ serveClient: false }).callback());
  const realtime = attachRealtime(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: realtime.close };
}

const clients: Client[] = [];
function open(url: string, auth: Record<string, unknown>): Client {
  const c: Client = connect(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  clients.push(c);
  return c;
}

/** Everything a socket received, by event. */
function record(c: Client) {
  const got = { notifications: [] as NotificationDto[], unread: [] as number[], revoked: 0 };
  c.on('notification:new', (n) => got.notifications.push(n));
  c.on('notification:unread', (p) => got.unread.push(p.unread));
  c.on('session:revoked', () => got.revoked++);
  return got;
}

let first: ApiProcess;
let second: ApiProcess;
let workers: RunningWorkers;

beforeAll(async () => {
  [first, second] = await Promise.all([startApiProcess(), startApiProcess()]);
  workers = startWorkers(handlers, { queues: ['notifications'] });
  await Promise.all(workers.workers.map((w) => w.waitUntilReady()));
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await workers?.close();
  await Promise.allSettled([first?.close(), second?.close()]);
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

describe('Socket.IO handshake', () => {
  it('refuses a connection without a token or with a token that is not a live session', async () => {
    await expect(connected(open(first.url, {}))).rejects.toThrow('unauthorized');
    await expect(connected(open(first.url, { token: 'not-a-session-token' }))).rejects.toThrow('unauthorized');
    const { token, user } = await createUser();
    await Session.query().delete().where({ user_id: user.id });
    await expect(connected(open(first.url, { token }))).rejects.toThrow('unauthorized');
  });

  it('accepts a live session token', async () => {
    const { token } = await createUser();
    const c = open(first.url, { token });
    await connected(c);
    expect(c.connected).toBe(true);
  });
});

describe('live notifications', () => {
  it('a notification created by a worker reaches the user\'s browsers on every API process, and nobody else\'s', async () => {
    const me = await createUser();
    const other = await createUser();
    const secondSession = await issueSession(me.user.id, { remember: false });
    const onFirst = open(first.url, { token: me.token });
    const onSecond = open(second.url, { token: secondSession.token });
    const stranger = open(first.url, { token: other.token });
    await Promise.all([connected(onFirst), connected(onSecond), connected(stranger)]);
    const [a, b, s] = [record(onFirst), record(onSecond), record(stranger)];

    await notify(me.user.id, { kind: 'sheets_ready', title: 'Sheets are ready', message: '3 sheets were made from plan.pdf.', type: 'success', link: '/project/4' });

    for (const got of [a, b]) {
      await waitFor(() => got.notifications.length === 1 && got.unread.length === 1, 'the live notification');
      expect(got.notifications[0]).toMatchObject({ title: 'Sheets are ready', message: '3 sheets were made from plan.pdf.', type: 'success', is_read: false, link: '/project/4' });
      expect(got.unread).toEqual([1]);
    }
    expect(s.notifications).toEqual([]);

    // The same notification is what the list endpoint shows.
    const list = await api().get('/api/notifications').set(me.auth);
    expect(list.body.data.items[0].id).toBe(a.notifications[0].id);
  });

  it('marking read through the API pushes the new unread count', async () => {
    const me = await createUser();
    const c = open(second.url, { token: me.token });
    await connected(c);
    const got = record(c);
    await notify(me.user.id, { kind: 'account', title: 'Welcome', message: '' });
    await waitFor(() => got.notifications.length === 1, 'the live notification');

    const res = await api().post('/api/notifications/mark-read').set(me.auth).send({ notification_id: got.notifications[0].id });
    expect(res.status).toBe(200);
    await waitFor(() => got.unread.at(-1) === 0, 'the unread count after mark-read');
  });

  it('any process can emit to a user room through Redis', async () => {
    const me = await createUser();
    const c = open(second.url, { token: me.token });
    await connected(c);
    const got = record(c);
    emitTo(userRoom(me.user.id), 'notification:unread', { unread: 42 });
    await waitFor(() => got.unread.includes(42), 'the emitted count');
  });
});

describe('sessions', () => {
  it('a revoked session is told and disconnected; the user\'s other sessions stay connected', async () => {
    const me = await createUser();
    const other = await issueSession(me.user.id, { remember: false });
    const ending = open(first.url, { token: me.token });
    const staying = open(second.url, { token: other.token });
    await Promise.all([connected(ending), connected(staying)]);
    const [gone, kept] = [record(ending), record(staying)];
    const reason = new Promise<string>((r) => ending.once('disconnect', (why) => r(why)));

    // The session createUser() signed in with: the one `ending` uses.
    const session = await Session.query().where({ user_id: me.user.id }).orderBy('id').first();
    signalSessionRevoked(session!.id);

    expect(await reason).toBe('io server disconnect');
    expect(gone.revoked).toBe(1);
    expect(kept.revoked).toBe(0);
    emitTo(userRoom(me.user.id), 'notification:unread', { unread: 7 });
    await waitFor(() => kept.unread.includes(7), 'the other session to still receive');
    expect(staying.connected).toBe(true);
  });

  it('logging out through the API ends that session\'s live connection', async () => {
    const me = await createUser();
    const socket = open(first.url, { token: me.token });
    await connected(socket);
    const got = record(socket);
    const reason = new Promise<string>((r) => socket.once('disconnect', (why) => r(why)));
    expect((await api().post('/api/logout').set(me.auth)).status).toBe(200);
    expect(await reason).toBe('io server disconnect');
    expect(got.revoked).toBe(1);
  });

  it('a socket is closed when its session expires', async () => {
    const me = await createUser();
    const s = await issueSession(me.user.id, { remember: false });
    await Session.query().patch({ expires_at: new Date(Date.now() + 3_000) }).where({ id: s.session.id });
    const c = open(first.url, { token: s.token });
    await connected(c);
    const reason = await new Promise<string>((r) => c.once('disconnect', (why) => r(why)));
    expect(reason).toBe('io server disconnect');
    await expect(connected(open(first.url, { token: s.token }))).rejects.toThrow('unauthorized');
  });

  it('cannot join the room of a project the user may not see', async () => {
    const me = await createUser();
    const c = open(first.url, { token: me.token });
    await connected(c);
    const allowed = await c.timeout(LIVE_WAIT_MS).emitWithAck('project:join', 999_999);
    expect(allowed).toBe(false);
  });
});
