import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, uniqueIp, type TestUser } from './helpers.js';
import { until } from './support/throwaway-servers.js';
import { issueSession } from '@sitewalk/core/services/session.service.js';
import { db } from '@sitewalk/core/db';

/**
 * Each API process answers bearer tokens it saw a moment ago from memory;
 * these tests run two processes — this one (A) and a child server (B) — and
 * prove that what ends or changes a session on A is refused or seen on B
 * at once, without waiting for B's cache to expire.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
let other: ChildProcess;
let otherUrl = '';

beforeAll(async () => {
  other = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'support/api-process.ts')], {
    cwd: path.resolve(HERE, '../..'),
    // A long cache life in B, so only an invalidation (never the expiry) can explain a refusal.
    env: { ...process.env, HOST: '127.0.0.1', SESSION_CACHE_TTL_MS: '600000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  otherUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    other.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    other.once('exit', (code) => reject(new Error(`the second API process exited with ${code}`)));
  });
}, 120_000);

afterAll(async () => {
  if (!other || other.exitCode !== null) return;
  const exited = new Promise((r) => other.once('exit', r));
  other.kill('SIGTERM');
  await exited;
});

/** GET on process B with a bearer token; the status. */
async function onB(token: string, pathname = '/api/notifications'): Promise<number> {
  const res = await fetch(`${otherUrl}${pathname}`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Waits until B answers from its cache: a session B has just seen is removed
 * behind the models' back (a raw write, which announces nothing), and B
 * still accepts it. Until B's subscription is confirmed it keeps nothing, so
 * this also proves the cache is live before a test relies on it.
 */
async function bAnswersFromMemory(user: TestUser): Promise<void> {
  await until(async () => {
    const probe = await issueSession(user.user.id, { remember: false });
    if ((await onB(probe.token)) !== 200) return false;
    await db()('sessions').where({ id: probe.session.id }).delete();
    return (await onB(probe.token)) === 200;
  }, 'the second API process to answer from its session cache', 60_000);
}

describe('session cache across two API processes', () => {
  it('refuses on B a token signed out on A, at once', async () => {
    const u = await createUser();
    await bAnswersFromMemory(u);
    expect(await onB(u.token)).toBe(200);
    expect(await onB(u.token)).toBe(200);
    expect((await api().post('/api/logout').set(u.auth)).status).toBe(200);
    expect(await onB(u.token)).toBe(401);
    // A itself refuses it too, though it had it in memory as well.
    expect((await api().get('/api/notifications').set(u.auth)).status).toBe(401);
  });

  it('ends on B the other sessions of a user who changes their password on A, keeping the one in use', async () => {
    const u = await createUser();
    const elsewhere = await issueSession(u.user.id, { remember: false });
    await bAnswersFromMemory(u);
    expect(await onB(elsewhere.token)).toBe(200);
    expect(await onB(u.token)).toBe(200);
    const res = await api()
      .post(`/api/users/${u.user.id}/change-password`)
      .set(u.auth)
      .set('X-Forwarded-For', uniqueIp())
      .send({ current_password: u.password, new_password: 'a brand new password 1' });
    expect(res.status).toBe(200);
    expect(await onB(elsewhere.token)).toBe(401);
    expect(await onB(u.token)).toBe(200);
  });

  it('applies on B an account disabled or demoted on A, at once', async () => {
    const admin = await createUser({ super_admin: true });
    const other = await createUser({ super_admin: true });
    const target = await createUser();
    await bAnswersFromMemory(other);
    expect(await onB(other.token, '/api/users')).toBe(200);
    expect(await onB(target.token)).toBe(200);
    expect((await api().put(`/api/users/${other.user.id}`).set(admin.auth).send({ super_admin: false })).status).toBe(200);
    expect(await onB(other.token, '/api/users')).toBe(403);
    expect((await api().put(`/api/users/${target.user.id}`).set(admin.auth).send({ active: false })).status).toBe(200);
    expect(await onB(target.token)).toBe(401);
  });
});
