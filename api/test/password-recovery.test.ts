import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVATION_PATH, PASSWORD_EMAIL_NEUTRAL_MESSAGE, PASSWORD_RESET_PATH } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { api, createUser, uniqueIp, uniqueName } from './helpers.js';
import { lockSettings, type SettingsLock } from './settings-lock.js';
import { lastMailedToken, queuedMails } from './mail-jobs.js';

let settings: SettingsLock;
beforeAll(async () => {
  settings = await lockSettings();
  await settings.set({ smtp_valid: true, name: 'SiteWalk' });
}, 180_000);
afterAll(() => settings.release());

const askReset = (login: string, ip = uniqueIp()) => api().post('/api/password/email').set('X-Forwarded-For', ip).send({ username_f: login });
const signIn = (username: string, password: string) =>
  api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username, password });

describe('POST /api/password/email', () => {
  it('gives the same answer whether the account exists or not, and mails a link only to a real one', async () => {
    const { user } = await createUser();
    const real = await askReset(user.email.toUpperCase());
    const ghostEmail = `${uniqueName('ghost')}@example.test`;
    const ghost = await askReset(ghostEmail);
    for (const res of [real, ghost]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', message: PASSWORD_EMAIL_NEUTRAL_MESSAGE, data: null });
    }
    const mails = await queuedMails(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('SiteWalk: reset your password');
    expect(mails[0].text).toMatch(new RegExp(`http://[^\\s]+${PASSWORD_RESET_PATH}\\?token=`));
    expect(await queuedMails(ghostEmail)).toHaveLength(0);
  });

  it('writes the mail in the account language', async () => {
    const { user } = await createUser({ language: 'ar', first_name: 'ليلى' });
    await askReset(user.username);
    const [mail] = await queuedMails(user.email);
    expect(mail.subject).toBe('SiteWalk: إعادة تعيين كلمة المرور');
    expect(mail.text).toContain('مرحباً ليلى،');
    expect(mail.html).toContain('dir="rtl"');
  });

  it('sends a fresh activation link to an account that never activated, and nothing to a disabled one', async () => {
    const waiting = await createUser({ active: false, email_verified_at: null });
    const disabled = await createUser({ active: false, email_verified_at: new Date() });
    for (const u of [waiting, disabled]) {
      const res = await askReset(u.user.email);
      expect(res.body.message).toBe(PASSWORD_EMAIL_NEUTRAL_MESSAGE);
    }
    const [mail] = await queuedMails(waiting.user.email);
    expect(mail.subject).toBe('SiteWalk: activate your account');
    const token = await lastMailedToken(waiting.user.email, ACTIVATION_PATH);
    expect((await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ token })).status).toBe(200);
    expect((await signIn(waiting.user.username, waiting.password)).status).toBe(200);
    expect(await queuedMails(disabled.user.email)).toHaveLength(0);
  });

  it('answers 503 with a clear message while the mail server is not set up', async () => {
    await settings.set({ smtp_valid: false });
    try {
      const res = await askReset('anyone');
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('Password recovery by e-mail is not available because the mail server is not set up. Contact your administrator.');
    } finally {
      await settings.set({ smtp_valid: true });
    }
  });

  it('answers 400 without a username or e-mail', async () => {
    const res = await api().post('/api/password/email').set('X-Forwarded-For', uniqueIp()).send({});
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('username_f is required.');
  });

  it('limits requests per address with 429', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) expect((await askReset(`nobody-${i}`, ip)).status).toBe(200);
    const res = await askReset('nobody', ip);
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/^Too many password recovery requests from this address\. Try again in \d+ minute/);
  });

  it('stops mailing one account after three requests, without telling the caller', async () => {
    const { user } = await createUser();
    for (let i = 0; i < 5; i++) {
      const res = await askReset(user.username);
      expect(res.body.message).toBe(PASSWORD_EMAIL_NEUTRAL_MESSAGE);
    }
    expect(await queuedMails(user.email)).toHaveLength(3);
  });
});

describe('GET /api/password/check-token and POST /api/password/reset', () => {
  it('resets the password once with the mailed link and ends every session', async () => {
    const { user, auth, password } = await createUser();
    await askReset(user.username);
    const token = await lastMailedToken(user.email, PASSWORD_RESET_PATH);

    const check = await api().get('/api/password/check-token').query({ token }).set('X-Forwarded-For', uniqueIp());
    expect(check.status).toBe(200);
    expect(check.body.data.valid).toBe(true);
    expect(check.body.data.expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000);

    const res = await api().post('/api/password/reset').set('X-Forwarded-For', uniqueIp()).send({ token, password: 'a brand new password' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Your password has been changed. Sign in with your new password.');

    expect((await api().get(`/api/users/${user.id}`).set(auth)).status).toBe(401);
    expect((await signIn(user.username, password)).status).toBe(401);
    expect((await signIn(user.username, 'a brand new password')).status).toBe(200);

    const reuse = await api().post('/api/password/reset').set('X-Forwarded-For', uniqueIp()).send({ token, password: 'another new password' });
    expect(reuse.status).toBe(404);
    expect(reuse.body.message).toBe('This password reset link is not valid or has expired. Ask for a new one.');
    expect((await api().get('/api/password/check-token').query({ token }).set('X-Forwarded-For', uniqueIp())).status).toBe(404);
  });

  it('only the newest link works', async () => {
    const { user } = await createUser();
    await askReset(user.username);
    const first = await lastMailedToken(user.email, PASSWORD_RESET_PATH);
    await askReset(user.username);
    const second = await lastMailedToken(user.email, PASSWORD_RESET_PATH);
    expect(second).not.toBe(first);
    expect((await api().get('/api/password/check-token').query({ token: first }).set('X-Forwarded-For', uniqueIp())).status).toBe(404);
    expect((await api().get('/api/password/check-token').query({ token: second }).set('X-Forwarded-For', uniqueIp())).status).toBe(200);
  });

  it('refuses an expired link', async () => {
    const { user } = await createUser();
    await askReset(user.username);
    const token = await lastMailedToken(user.email, PASSWORD_RESET_PATH);
    await db()('user_tokens').where({ user_id: user.id }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await api().get('/api/password/check-token').query({ token }).set('X-Forwarded-For', uniqueIp())).status).toBe(404);
    const res = await api().post('/api/password/reset').set('X-Forwarded-For', uniqueIp()).send({ token, password: 'a brand new password' });
    expect(res.status).toBe(404);
  });

  it('answers 400 to a malformed token or a weak password', async () => {
    const bad = await api().get('/api/password/check-token').query({ token: 'short' }).set('X-Forwarded-For', uniqueIp());
    expect(bad.status).toBe(400);
    const weak = await api().post('/api/password/reset').set('X-Forwarded-For', uniqueIp()).send({ token: 'a'.repeat(43), password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe('Password must be at least 8 characters.');
  });
});
