import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVATION_PATH } from '@sitewalk/proto';
import { User, db } from '@sitewalk/core/db';
import { api, createUser, uniqueIp, uniqueName } from './helpers.js';
import { lockSettings, type SettingsLock } from './settings-lock.js';
import { lastMailedToken, queuedMails } from './mail-jobs.js';

let settings: SettingsLock;
beforeAll(async () => {
  settings = await lockSettings();
  await settings.set({ enable_registration: true, validate_email: false, notify_registrations: false, smtp_valid: true, name: 'SiteWalk' });
}, 180_000);
afterAll(() => settings.release());

const newAccount = (over: Record<string, unknown> = {}) => {
  const username = uniqueName('reg');
  return { username, email: `${username}@example.test`, password: 'a long enough password', first_name: 'Rana', ...over };
};
const signIn = (username: string, password: string) =>
  api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username, password });

describe('POST /api/register', () => {
  it('answers 404 with a clear message while registration is closed', async () => {
    await settings.set({ enable_registration: false });
    try {
      const res = await api().post('/api/register').set('X-Forwarded-For', uniqueIp()).send(newAccount());
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 'error', message: 'Registration is closed on this site. Ask an administrator for an account.', data: null });
    } finally {
      await settings.set({ enable_registration: true });
    }
  });

  it('creates an active account at once without e-mail validation', async () => {
    const input = newAccount();
    const res = await api().post('/api/register').set('X-Forwarded-For', uniqueIp()).send(input);
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('success');
    expect(res.body.data).toEqual({ id: expect.any(Number), validate_email: false, is_email_sent: false, error_mail: null });
    const login = await signIn(input.username, input.password);
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ username: input.username, role: 'guest', super_admin: false, first_name: 'Rana' });
    const stored = await User.query().findById(res.body.data.id);
    expect(stored!.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('ignores any attempt to register as an administrator', async () => {
    const input = newAccount({ super_admin: true, role: 'super_admin', active: true });
    const res = await api().post('/api/register').set('X-Forwarded-For', uniqueIp()).send(input);
    expect(res.status).toBe(201);
    const stored = await User.query().findById(res.body.data.id);
    expect(stored).toMatchObject({ super_admin: false, role: 'guest' });
  });

  it('with validate_email, keeps the account inactive until its mailed link is used', async () => {
    await settings.set({ validate_email: true });
    try {
      const input = newAccount({ language: 'ar' });
      const res = await api().post('/api/register').set('X-Forwarded-For', uniqueIp()).send(input);
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({ id: expect.any(Number), validate_email: true, is_email_sent: true, error_mail: null });

      const before = await signIn(input.username, input.password);
      expect(before.status).toBe(403);
      expect(before.body.message).toBe('Your account is not active yet. Open the activation link we sent to your e-mail.');

      const [mail] = await queuedMails(input.email);
      expect(mail.subject).toBe('SiteWalk: فعّل حسابك'); // the account's language
      const token = await lastMailedToken(input.email, ACTIVATION_PATH);

      const check = await api().get('/api/check-invitation-token').query({ token }).set('X-Forwarded-For', uniqueIp());
      expect(check.status).toBe(200);
      expect(check.body.data).toMatchObject({ purpose: 'activation', email: input.email, username: input.username, needs_credentials: false });
      expect(check.body.data.expiresAt).toBeGreaterThan(Date.now());

      const act = await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ token });
      expect(act.status).toBe(200);
      expect(act.body).toMatchObject({ status: 'success', message: 'Your account is active. You can sign in now.', data: { id: res.body.data.id, username: input.username } });
      expect((await signIn(input.username, input.password)).status).toBe(200);

      // The link works once.
      const again = await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ token });
      expect(again.status).toBe(404);
      expect(again.body.message).toBe('This activation link is not valid or has expired. Ask for a new one.');
      const recheck = await api().get('/api/check-invitation-token').query({ token }).set('X-Forwarded-For', uniqueIp());
      expect(recheck.status).toBe(404);
    } finally {
      await settings.set({ validate_email: false });
    }
  });

  it('says in error_mail when the activation mail cannot go out because SMTP is not set up', async () => {
    await settings.set({ validate_email: true, smtp_valid: false });
    try {
      const res = await api().post('/api/register').set('X-Forwarded-For', uniqueIp()).send(newAccount());
      expect(res.status).toBe(201);
      expect(res.body.data.validate_email).toBe(true);
      expect(res.body.data.is_email_sent).toBe(false);
      expect(res.body.data.error_mail).toMatch(/mail server is not set up/);
    } finally {
      await settings.set({ validate_email: false, smtp_valid: true });
    }
  });

  it('tells notify_email and the administrators about a new registration when notify_registrations is on', async () => {
    const admin = await createUser({ super_admin: true });
    const notifyEmail = `${uniqueName('ops')}@example.test`;
    await settings.set({ notify_registrations: true, notify_email: notifyEmail });
    try {
      const input = newAccount();
      const res = await api().post('/api/register').set('X-Forwarded-For', uniqueIp()).send(input);
      expect(res.status).toBe(201);
      const [notice] = await queuedMails(notifyEmail);
      expect(notice.subject).toBe(`SiteWalk: new registration (${input.username})`);
      expect(notice.text).toContain(input.email);
      const { queue } = await import('@sitewalk/core/queue');
      const dispatch = await queue('notifications').getJob(`notify-registration-${res.body.data.id}-u${admin.user.id}`);
      expect(dispatch?.data).toMatchObject({ user_id: admin.user.id, kind: 'registration', email: false });
    } finally {
      await settings.set({ notify_registrations: false, notify_email: '' });
    }
  });

  it('refuses a taken username or e-mail with 409, whatever the case', async () => {
    const { user } = await createUser();
    const byName = await api().post('/api/register').set('X-Forwarded-For', uniqueIp()).send(newAccount({ username: user.username.toUpperCase() }));
    expect(byName.status).toBe(409);
    expect(byName.body.message).toBe('This username is already taken. Choose another one.');
    const byEmail = await api().post('/api/register').set('X-Forwarded-For', uniqueIp()).send(newAccount({ email: user.email.toUpperCase() }));
    expect(byEmail.status).toBe(409);
    expect(byEmail.body.message).toBe('An account with this e-mail address already exists.');
  });

  it('answers 400 with the reason for bad input', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [newAccount({ email: 'not-an-address' }), /Invalid email format/],
      [newAccount({ password: 'short' }), /at least 8 characters/],
      [newAccount({ username: 'a b' }), /letters, digits/],
      [{ email: 'x@example.test', password: 'long enough pass' }, /username is required/],
    ];
    for (const [input, message] of cases) {
      const res = await api().post('/api/register').set('X-Forwarded-For', uniqueIp()).send(input);
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('error');
      expect(res.body.message).toMatch(message);
    }
  });

  it('limits registrations per address with 429', async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await api().post('/api/register').set('X-Forwarded-For', ip).send({})).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
    const res = await api().post('/api/register').set('X-Forwarded-For', ip).send(newAccount());
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/^Too many registrations from this address\. Try again in/);
  });
});

describe('invitations: POST /api/users without a password, then /api/activate-account', () => {
  it('lets the invited person choose username and password once, then sign in', async () => {
    const admin = await createUser({ super_admin: true });
    const username = uniqueName('inv');
    const email = `${username}@example.test`;
    const res = await api().post('/api/users').set(admin.auth).send({ username, email, first_name: 'Omar' });
    expect(res.status).toBe(201);
    expect(res.body.data.invitation_sent).toBe(true);
    expect(res.body.data.user).toMatchObject({ username, active: false });
    const [mail] = await queuedMails(email);
    expect(mail.subject).toBe('SiteWalk: you are invited');
    expect(mail.text).toContain('Hello Omar,');
    expect(mail.text).toContain('Test User invited you to SiteWalk.');
    const token = await lastMailedToken(email, ACTIVATION_PATH);

    const check = await api().get('/api/check-invitation-token').query({ token }).set('X-Forwarded-For', uniqueIp());
    expect(check.body.data).toMatchObject({ purpose: 'invitation', email, username, needs_credentials: true });

    const missing = await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ token });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Choose a username and a password to activate your account.');

    const other = await createUser();
    const taken = await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ token, username: other.user.username, password: 'chosen password 1' });
    expect(taken.status).toBe(409);

    const chosen = uniqueName('chosen');
    const act = await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ token, username: chosen, password: 'chosen password 1' });
    expect(act.status).toBe(200);
    expect(act.body.data.username).toBe(chosen);
    const login = await signIn(chosen, 'chosen password 1');
    expect(login.status).toBe(200);
    expect(login.body.data.user).toMatchObject({ email, active: true });
  });

  it('refuses an expired link', async () => {
    const admin = await createUser({ super_admin: true });
    const username = uniqueName('exp');
    const email = `${username}@example.test`;
    await api().post('/api/users').set(admin.auth).send({ username, email });
    const token = await lastMailedToken(email, ACTIVATION_PATH);
    await db()('user_tokens').whereIn('user_id', db()('users').where({ email }).select('id')).update({ expires_at: new Date(Date.now() - 1000) });
    const check = await api().get('/api/check-invitation-token').query({ token }).set('X-Forwarded-For', uniqueIp());
    expect(check.status).toBe(404);
    const act = await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ token, username: uniqueName(), password: 'chosen password 1' });
    expect(act.status).toBe(404);
  });

  it('answers 400 to a malformed token and 404 to an unknown one', async () => {
    const bad = await api().get('/api/check-invitation-token').query({ token: 'x' }).set('X-Forwarded-For', uniqueIp());
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('The link is not valid.');
    const none = await api().get('/api/check-invitation-token').set('X-Forwarded-For', uniqueIp());
    expect(none.status).toBe(400);
    const unknown = await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ token: 'a'.repeat(43), username: uniqueName(), password: 'chosen password 1' });
    expect(unknown.status).toBe(404);
    const badBody = await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ token: 'a'.repeat(43), password: 'short' });
    expect(badBody.status).toBe(400);
    expect(badBody.body.message).toMatch(/at least 8 characters/);
  });
});
