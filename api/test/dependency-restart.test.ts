import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@sitewalk/proto';
import type { RunningWorkers } from '../../workers/src/runner.js';
import { startPostgres, startRedis, until, type ThrowawayPostgres, type ThrowawayRedis } from './support/throwaway-servers.js';

/**
 * Issue 11, fault 6: a database or Redis restart under load. The test starts
 * its own PostgreSQL cluster and redis-server on spare ports, runs the API
 * in-process against them, and takes each away while ten loops read
 * notifications. Users may see 503 ("try again in a few seconds"), never
 * 500, and the API comes back by itself.
 *
 * The app's modules are imported only after DATABASE_URL and REDIS_URL point
 * at the throw-away servers (its config is read once, at import).
 */

const SLOW = 240_000;
let pgServer: ThrowawayPostgres | undefined;
let redisServer: ThrowawayRedis | undefined;
let server: http.Server | undefined;
let base = '';
let auth: Record<string, string> = {};
let userId = 0;
let workers: RunningWorkers | undefined;
let closeAll: () => Promise<void> = async () => undefined;
let enqueue: typeof import('@sitewalk/core/queue').enqueue;
const consoleErrors = vi.spyOn(console, 'error');
// Put back for whatever test file this worker process runs next.
const originalEnv = { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.REDIS_URL };

beforeAll(async () => {
  [pgServer, redisServer] = await Promise.all([startPostgres(), startRedis()]);
  const databaseUrl = pgServer.url('sitewalk_restart_test');
  process.env.DATABASE_URL = databaseUrl;
  process.env.REDIS_URL = redisServer.url;

  const { config } = await import('@sitewalk/core/config.js');
  // Never run this test against the shared servers: it stops the ones it talks to.
  if (config.databaseUrl !== databaseUrl || config.redisUrl !== redisServer.url) throw new Error('The app was configured before the throw-away servers were started.');
  const { ensureDatabase } = await import('../src/cli/ensure-database.js');
  await ensureDatabase(databaseUrl);
  const { migrateLatest, closeDb } = await import('@sitewalk/core/db');
  await migrateLatest();
  const { createApp } = await import('../src/app.js');
  const { createUser } = await import('./helpers.js');
  const queue = await import('@sitewalk/core/queue');
  const { closeRedis } = await import('@sitewalk/core/redis.js');
  const { closeEmitter } = await import('@sitewalk/core/realtime/emitter.js');
  const { handlers } = await import('../../workers/src/jobs/index.js');
  const { startWorkers } = await import('../../workers/src/runner.js');
  enqueue = queue.enqueue;

  const app = createApp({ serveClient: false });
  const s = http.createServer(app.callback());
  server = s;
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  const me = await createUser();
  auth = me.auth;
  userId = me.user.id;
  // The real notification worker, against the throw-away Redis: its jobs put notifications in the user's list.
  workers = startWorkers(handlers, { queues: ['notifications'] });

  closeAll = async () => {
    await workers?.close();
    await Promise.allSettled([queue.closeQueues(), closeEmitter(), closeRedis(), closeDb()]);
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  };
}, SLOW);

afterAll(async () => {
  // Closing clients can wait on a server that a failed test left away: never longer than a minute, the servers go anyway.
  await Promise.race([closeAll().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
  await Promise.allSettled([pgServer?.destroy(), redisServer?.destroy()]);
  consoleErrors.mockRestore();
  for (const [name, value] of Object.entries(originalEnv)) if (value !== undefined) process.env[name] = value;
}, SLOW);

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { status?: string; message?: string; data?: unknown } | null;
}

async function get(path: string, headers: Record<string, string> = auth): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { headers });
  const text = await res.text();
  let body: Answer['body'] = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = { message: text.slice(0, 200) };
  }
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
}

/**
 * Ten loops reading the user's notifications as fast as the API answers.
 * Keeps every answer that is neither 2xx nor 503 (and every failed
 * connection) to show it, the first 503 to check it, and how many 2xx came
 * in a row lately.
 */
function startLoad(loops = 10) {
  const state = { ok: 0, unavailable: 0, okInARow: 0, unexpected: [] as string[], first503: null as Answer | null };
  let running = true;
  const loop = async () => {
    while (running) {
      try {
        const a = await get('/api/notifications');
        if (a.status >= 200 && a.status < 300) {
          state.ok++;
          state.okInARow++;
        } else if (a.status === 503) {
          state.unavailable++;
          state.okInARow = 0;
          state.first503 ??= a;
        } else {
          state.okInARow = 0;
          if (state.unexpected.length < 20) state.unexpected.push(`${a.status} ${a.body?.message ?? ''}`);
        }
      } catch (err) {
        state.okInARow = 0;
        if (state.unexpected.length < 20) state.unexpected.push(`no answer: ${(err as Error).message}`);
      }
    }
  };
  const all = Array.from({ length: loops }, loop);
  return {
    state,
    stop: async () => {
      running = false;
      await Promise.all(all);
    },
  };
}

const expectServiceUnavailable = (a: Answer) => {
  expect(a.status).toBe(503);
  expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(a.body?.status).toBe('error');
  expect(a.body?.message).toBe(MESSAGES.serviceBrieflyUnavailable);
};

const noUnhandledRedisErrors = () =>
  expect(consoleErrors.mock.calls.map((c) => c.join(' ')).filter((line) => /Unhandled error event/.test(line))).toEqual([]);

const notificationTitles = async (): Promise<string[]> => {
  const a = await get('/api/notifications');
  return a.status === 200 ? (a.body?.data as { items: { title: string }[] }).items.map((n) => n.title) : [];
};

describe('a database restart under load', () => {
  it('answers only 2xx and 503 while PostgreSQL restarts, then 2xx again by itself', async () => {
    const load = startLoad();
    try {
      await until(() => load.state.ok >= 20, 'the first answers');
      await pgServer!.restart();
      await until(() => load.state.okInARow >= 50, 'fifty answers in a row after the restart', 120_000);
    } finally {
      await load.stop();
    }
    expect(load.state.unexpected).toEqual([]);
    if (load.state.first503) expectServiceUnavailable(load.state.first503);
  }, SLOW);

  it('while PostgreSQL is down: 503 with Retry-After and a message for people; /api/health names the database', async () => {
    const load = startLoad(2);
    let stopped = false;
    try {
      await until(() => load.state.ok >= 5, 'the first answers');
      await pgServer!.stop();
      stopped = true;
      await until(() => load.state.unavailable + load.state.unexpected.length >= 5, 'answers while the database is down');
      const health = await get('/api/health', {});
      expect(health.status).toBe(503);
      expect(Number(health.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(health.body).toMatchObject({ status: 'error', message: 'The database does not answer.', data: { ok: false, database: 'down', redis: 'up' } });
      await pgServer!.start();
      stopped = false;
      await until(() => load.state.okInARow >= 20, 'answers after the database is back', 120_000);
    } finally {
      // A failure here must not leave the database away for the tests after it.
      if (stopped) await pgServer!.start().catch(() => undefined);
      await load.stop();
    }
    expect(load.state.unexpected).toEqual([]);
    expectServiceUnavailable(load.state.first503!);
    const health = await get('/api/health', {});
    expect(health.status).toBe(200);
    expect(health.body?.data).toEqual({ ok: true, database: 'up', redis: 'up' });
  }, SLOW);
});

describe('a Redis restart under load', () => {
  it('answers only 2xx and 503, logs no unhandled Redis error, and a job queued after the restart runs', async () => {
    // The queue and the worker are connected before the restart, so they must live through it.
    await enqueue('notify.dispatch', { user_id: userId, kind: 'system', title: 'Before the Redis restart', message: 'x', email: false });
    await until(async () => (await notificationTitles()).includes('Before the Redis restart'), 'the job queued before the restart to run');

    const load = startLoad();
    try {
      await until(() => load.state.ok >= 20, 'the first answers');
      await redisServer!.restart();
      await until(() => load.state.okInARow >= 50, 'fifty answers in a row after the restart', 120_000);
    } finally {
      await load.stop();
    }
    expect(load.state.unexpected).toEqual([]);
    if (load.state.first503) expectServiceUnavailable(load.state.first503);

    // Redis came back empty (--save ''): this job exists only because the queue reconnected, and runs only if the worker did.
    await enqueue('notify.dispatch', { user_id: userId, kind: 'system', title: 'After the Redis restart', message: 'x', email: false });
    await until(async () => (await notificationTitles()).includes('After the Redis restart'), 'the job queued after the restart to run', 120_000);
    noUnhandledRedisErrors();
  }, SLOW);

  it('while Redis is down: /api/health names Redis, sign-in answers 503 not 500; both recover by themselves', async () => {
    await redisServer!.stop();
    try {
      let health: Answer | null = null;
      await until(async () => {
        health = await get('/api/health', {});
        return health.status === 503;
      }, '/api/health to notice that Redis is down');
      expect(health!.body).toMatchObject({ status: 'error', message: 'Redis does not answer.', data: { ok: false, database: 'up', redis: 'down' } });
      expect(Number(health!.retryAfter)).toBeGreaterThanOrEqual(1);
      // Sign-in counts attempts in Redis: without it the answer is "try again in a few seconds".
      const res = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'nobody-here', password: 'not the password' }),
      });
      expect(res.status).not.toBe(500);
      if (res.status === 503) expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await redisServer!.start();
    }
    await until(async () => (await get('/api/health', {})).status === 200, '/api/health to see Redis back', 120_000);
    await enqueue('notify.dispatch', { user_id: userId, kind: 'system', title: 'After Redis was down', message: 'x', email: false });
    await until(async () => (await notificationTitles()).includes('After Redis was down'), 'the job queued after Redis was down to run', 120_000);
    noUnhandledRedisErrors();
  }, SLOW);
});
