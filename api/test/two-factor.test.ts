import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@sitewalk/core/db';
import { cryptoBox } from '@sitewalk/core/crypto-box.js';
import { appSecret } from '@sitewalk/core/secrets.js';
import { totpCodeAt } from '@sitewalk/core/two-factor-codes.js';
import { api, createUser, uniqueIp, type TestUser } from './helpers.js';
import { lockSettings, type SettingsLock } from './settings-lock.js';

let settings: SettingsLock;
beforeAll(async () => {
  settings = await lockSettings();
  await settings.set({ '2fa_enable': true });
});
afterAll(() => settings.release());

const signIn = (username: string, password: string, ip = uniqueIp()) =>
  api().post('/api/login').set('X-Forwarded-For', ip).send({ username, password });
const codeStep = (challenge: string, code: string) => api().post('/api/login/two-factor').set('X-Forwarded-For', uniqueIp()).send({ challenge, code });

/** The code the phone shows one period from `now`: a code the account has not used yet (the last one was taken at enrolment). */
const nextCode = (secret: string, periods = 1) => totpCodeAt(secret, Date.now() + periods * 30_000);

/** Enrols `u` through the API as a person would: setup, scan (here: read the secret), confirm with a code. */
async function enrol(u: TestUser): Promise<{ secret: string; recovery: string[] }> {
  const setup = await api().post('/api/two-factor/setup').set(u.auth);
  expect(setup.status, setup.body.message).toBe(200);
  const { secret, otpauth_url, qr_svg } = setup.body.data;
  expect(otpauth_url).toContain(`secret=${secret}`);
  expect(qr_svg).toMatch(/^data:image\/svg\+xml;base64,/);
  const confirm = await api().post('/api/two-factor/confirm').set(u.auth).send({ code: totpCodeAt(secret) });
  expect(confirm.status, confirm.body.message).toBe(200);
  return { secret, recovery: confirm.body.data.recovery_codes };
}

describe('two-factor sign-in', () => {
  it('enrols with a QR code and a code, keeps the secret sealed and the recovery codes hashed', async () => {
    const u = await createUser();
    expect((await api().get('/api/two-factor').set(u.auth)).body.data).toEqual({ available: true, enabled: false, recovery_codes_left: 0 });
    const { secret, recovery } = await enrol(u);
    expect(recovery).toHaveLength(10);
    expect((await api().get('/api/two-factor').set(u.auth)).body.data).toEqual({ available: true, enabled: true, recovery_codes_left: 10 });

    const row = await db()('two_factor').where({ user_id: u.user.id }).first();
    expect(row.secret_sealed).not.toContain(secret);
    expect(cryptoBox(appSecret(), 'two-factor').open(row.secret_sealed, `user:${u.user.id}`)).toBe(secret);
    const hashes = (await db()('two_factor_recovery_codes').where({ user_id: u.user.id })).map((r) => r.code_hash as string);
    expect(hashes).toHaveLength(10);
    for (const h of hashes) expect(h).toMatch(/^\$argon2id\$/);
    for (const c of recovery) expect(hashes.join()).not.toContain(c.replace('-', ''));

    // Setting it up again while on is refused; it must be turned off first.
    const again = await api().post('/api/two-factor/setup').set(u.auth);
    expect(again.status).toBe(409);
  });

  it('refuses a wrong first code, and enrolment while the site has two-factor off', async () => {
    const u = await createUser();
    await api().post('/api/two-factor/setup').set(u.auth);
    const wrong = await api().post('/api/two-factor/confirm').set(u.auth).send({ code: '12345' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Enter the 6-digit code from your authenticator app.');
    expect((await api().get('/api/two-factor').set(u.auth)).body.data.enabled).toBe(false);

    await settings.set({ '2fa_enable': false });
    try {
      const off = await api().post('/api/two-factor/setup').set(u.auth);
      expect(off.status).toBe(403);
      expect(off.body.message).toMatch(/not enabled on this site/);
    } finally {
      await settings.set({ '2fa_enable': true });
    }
  });

  it('signs in in two steps: the password gives only a short-lived challenge, the code gives the session', async () => {
    const u = await createUser();
    const { secret } = await enrol(u);
    const first = await signIn(u.user.username, u.password);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ two_factor_required: true, enrolment_required: false, challenge: expect.any(String), expiresAt: expect.any(Number) });
    expect(first.body.data.expiresAt).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    expect(first.body.data).not.toHaveProperty('token');
    expect(first.headers['set-cookie'] ?? []).toEqual([]);

    const second = await codeStep(first.body.data.challenge, nextCode(secret));
    expect(second.status, second.body.message).toBe(200);
    expect(second.body.data.user).toMatchObject({ id: u.user.id });
    const me = await api().get('/api/two-factor').set('Authorization', `Bearer ${second.body.data.token}`);
    expect(me.status).toBe(200);
  });

  it('cannot be skipped: the challenge is no session, a made-up or spent challenge is refused', async () => {
    const u = await createUser();
    const { secret } = await enrol(u);
    const { challenge } = (await signIn(u.user.username, u.password)).body.data;

    // The challenge does not open anything that needs a session.
    const asToken = await api().get('/api/two-factor').set('Authorization', `Bearer ${challenge}`);
    expect(asToken.status).toBe(401);
    // The code step without a password step before it.
    const madeUp = await codeStep('x'.repeat(43), nextCode(secret));
    expect(madeUp.status).toBe(401);
    expect(madeUp.body.message).toBe('This sign-in has expired. Sign in with your password again.');
    const noCode = await api().post('/api/login/two-factor').set('X-Forwarded-For', uniqueIp()).send({ challenge });
    expect(noCode.status).toBe(400);

    const ok = await codeStep(challenge, nextCode(secret));
    expect(ok.status).toBe(200);
    // One challenge, one session.
    const spent = await codeStep(challenge, nextCode(secret, 2));
    expect(spent.status).toBe(401);
    expect(spent.body.message).toBe('This sign-in has expired. Sign in with your password again.');
  });

  it('takes a code once: the same code (or an older one) does not sign in again within its window', async () => {
    const u = await createUser();
    const { secret } = await enrol(u);
    const code = nextCode(secret);
    const a = await signIn(u.user.username, u.password);
    expect((await codeStep(a.body.data.challenge, code)).status).toBe(200);
    const b = await signIn(u.user.username, u.password);
    const replay = await codeStep(b.body.data.challenge, code);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/^That code is not right\./);
    const older = await codeStep(b.body.data.challenge, totpCodeAt(secret));
    expect(older.status).toBe(401);
  });

  it('signs in with a recovery code, each one once', async () => {
    const u = await createUser();
    const { recovery } = await enrol(u);
    const a = await signIn(u.user.username, u.password);
    const byRecovery = await codeStep(a.body.data.challenge, recovery[3].toLowerCase());
    expect(byRecovery.status, byRecovery.body.message).toBe(200);
    expect((await api().get('/api/two-factor').set('Authorization', `Bearer ${byRecovery.body.data.token}`)).body.data.recovery_codes_left).toBe(9);
    const b = await signIn(u.user.username, u.password);
    expect((await codeStep(b.body.data.challenge, recovery[3])).status).toBe(401);
  });

  it('limits wrong codes per account like failed passwords (429, then even a right code waits)', async () => {
    const u = await createUser();
    const { secret } = await enrol(u);
    const { challenge } = (await signIn(u.user.username, u.password)).body.data;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await codeStep(challenge, i % 2 ? '000000' : 'AAAAA-AAAAA')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const right = await codeStep(challenge, nextCode(secret));
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/^Too many wrong codes for this account\. Try again in \d+ minute\(s\)\.$/);
  });

  it('refuses to turn off while the site requires it; once it does not, turns off only with the password and a code', async () => {
    const u = await createUser();
    const { secret } = await enrol(u);
    const required = await api().post('/api/two-factor/disable').set(u.auth).send({ password: u.password, code: nextCode(secret) });
    expect(required.status).toBe(403);
    expect(required.body.message).toBe('Your administrator requires two-step verification for every account, so it cannot be turned off.');

    await settings.set({ '2fa_enable': false });
    try {
      const noPassword = await api().post('/api/two-factor/disable').set(u.auth).send({ password: 'wrong password', code: nextCode(secret) });
      expect(noPassword.status).toBe(422);
      expect(noPassword.body.message).toBe('The password is not right.');
      const noCode = await api().post('/api/two-factor/disable').set(u.auth).send({ password: u.password });
      expect(noCode.status).toBe(400);
      const off = await api().post('/api/two-factor/disable').set(u.auth).send({ password: u.password, code: nextCode(secret) });
      expect(off.status, off.body.message).toBe(200);
      expect(await db()('two_factor_recovery_codes').where({ user_id: u.user.id })).toHaveLength(0);
      const plain = await signIn(u.user.username, u.password);
      expect(plain.body.data.token).toEqual(expect.any(String));
    } finally {
      await settings.set({ '2fa_enable': true });
    }
  });

  it('lets a super admin reset a user\'s second factor; nobody else; an unknown user is 404', async () => {
    const u = await createUser();
    await enrol(u);
    const stranger = await createUser();
    const admin = await createUser({ super_admin: true });
    expect((await api().delete(`/api/users/${u.user.id}/two-factor`).set(stranger.auth)).status).toBe(403);
    expect((await api().get(`/api/users/${u.user.id}/two-factor`).set(stranger.auth)).status).toBe(403);
    expect((await api().get(`/api/users/${u.user.id}/two-factor`).set(admin.auth)).body.data.enabled).toBe(true);
    expect((await api().delete('/api/users/2147483000/two-factor').set(admin.auth)).status).toBe(404);
    const reset = await api().delete(`/api/users/${u.user.id}/two-factor`).set(admin.auth);
    expect(reset.status).toBe(200);
    // The site requires it: the next sign-in sets up a new one before any session.
    const next = await signIn(u.user.username, u.password);
    expect(next.body.data).toMatchObject({ two_factor_required: true, enrolment_required: true });
    expect(next.body.data.token).toBeUndefined();
  });
});

describe('two-factor sign-in required by the site', () => {
  const setupStep = (challenge: string) => api().post('/api/login/two-factor/setup').set('X-Forwarded-For', uniqueIp()).send({ challenge });
  const enrolStep = (challenge: string, code: string) => api().post('/api/login/two-factor/enrol').set('X-Forwarded-For', uniqueIp()).send({ challenge, code });

  it('leads an account without a second factor through its setup at sign-in; the session starts with the recovery codes, the next sign-in asks for a code', async () => {
    const u = await createUser();
    const first = await signIn(u.user.username, u.password);
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Your administrator requires two-step verification. Set up an authenticator app to finish signing in.');
    expect(first.body.data).toEqual({ two_factor_required: true, enrolment_required: true, challenge: expect.any(String), expiresAt: expect.any(Number) });
    expect(first.headers['set-cookie'] ?? []).toEqual([]);
    const { challenge } = first.body.data;

    const setup = await setupStep(challenge);
    expect(setup.status, setup.body.message).toBe(200);
    const { secret, qr_svg } = setup.body.data;
    expect(qr_svg).toMatch(/^data:image\/svg\+xml;base64,/);
    const wrong = await enrolStep(challenge, totpCodeAt(secret, Date.now() - 10 * 60_000));
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toBe('That code is not right. Enter the current 6-digit code from your authenticator app.');

    const done = await enrolStep(challenge, totpCodeAt(secret));
    expect(done.status, done.body.message).toBe(200);
    expect(done.body.data.recovery_codes).toHaveLength(10);
    expect(done.body.data.user).toMatchObject({ id: u.user.id });
    const me = await api().get('/api/two-factor').set('Authorization', `Bearer ${done.body.data.token}`);
    expect(me.body.data).toEqual({ available: true, enabled: true, recovery_codes_left: 10 });
    // One challenge, one session.
    expect((await enrolStep(challenge, nextCode(secret))).status).toBe(401);

    const again = await signIn(u.user.username, u.password);
    expect(again.body.data).toMatchObject({ two_factor_required: true, enrolment_required: false });
    expect((await codeStep(again.body.data.challenge, nextCode(secret))).status).toBe(200);
  });

  it('cannot be skipped: the challenge opens no API, the code step and a setup without a scan are refused', async () => {
    const u = await createUser();
    const { challenge } = (await signIn(u.user.username, u.password)).body.data;
    for (const path of ['/api/two-factor', '/api/projects', '/api/sessions']) {
      const asToken = await api().get(path).set('Authorization', `Bearer ${challenge}`);
      expect(asToken.status, path).toBe(401);
    }
    const asTokenSetup = await api().post('/api/two-factor/setup').set('Authorization', `Bearer ${challenge}`);
    expect(asTokenSetup.status).toBe(401);
    // The second step called directly, as if the account had a factor: no session.
    const skipped = await codeStep(challenge, '123456');
    expect(skipped.status).toBe(403);
    expect(skipped.body.message).toBe('Your administrator requires two-step verification: set up an authenticator app before signing in.');
    const byRecovery = await codeStep(challenge, 'AAAAA-AAAAA');
    expect(byRecovery.status).toBe(403);
    // The last step of the setup before its first: nothing was scanned, nothing to check the code against.
    const noScan = await enrolStep(challenge, '123456');
    expect(noScan.status).toBe(409);
    expect(noScan.body.message).toBe('Start the two-factor setup first: the code is checked against the QR code you scanned.');
    // A made-up challenge.
    expect((await setupStep('x'.repeat(43))).status).toBe(401);
    expect((await enrolStep('x'.repeat(43), '123456')).status).toBe(401);
    expect(await db()('two_factor').where({ user_id: u.user.id }).whereNotNull('enabled_at')).toHaveLength(0);
  });

  it('never lets a password replace the second factor an account has', async () => {
    const u = await createUser();
    const { secret } = await enrol(u);
    const { challenge } = (await signIn(u.user.username, u.password)).body.data;
    const replace = await setupStep(challenge);
    expect(replace.status).toBe(403);
    expect(replace.body.message).toBe('This account already signs in with a code from an authenticator app: enter that code instead.');
    expect((await enrolStep(challenge, nextCode(secret))).status).toBe(403);
    // The challenge still does what it is for.
    expect((await codeStep(challenge, nextCode(secret))).status).toBe(200);
  });

  it('leaves API keys alone: a key works while its owner has no second factor', async () => {
    const u = await createUser();
    const created = await api().post('/api/api-keys').set(u.auth).send({ name: 'Site tools', scope: 'read' });
    expect(created.status, created.body.message).toBe(201);
    const byKey = await api().get('/api/projects').set('X-Api-Key', created.body.data.key);
    expect(byKey.status, byKey.body.message).toBe(200);
  });
});

describe('the test suite keeps this file apart', () => {
  it('every API test file that signs in with a password holds 2fa_enable steady or locks the settings', async () => {
    const dir = path.dirname(fileURLToPath(import.meta.url));
    const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.test.ts'));
    const unguarded: string[] = [];
    for (const f of files) {
      const text = await fs.readFile(path.join(dir, f), 'utf8');
      if (text.includes("/api/login'") && !/keepSettingsSteady\('2fa_enable'|lockSettings\(\)/.test(text)) unguarded.push(f);
    }
    expect(unguarded).toEqual([]);
  });
});
