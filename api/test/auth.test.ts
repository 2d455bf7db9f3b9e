import { describe, expect, it } from 'vitest';
import { api, createUser, uniqueIp } from './helpers.js';
import { keepSettingsSteady } from './settings-lock.js';

// A password alone gives a session here: no file turns two-factor sign-in on meanwhile.
keepSettingsSteady('2fa_enable');

describe('POST /api/login', () => {
  it('signs in with username or e-mail and returns a token that works', async () => {
    const { user, password } = await createUser();
    for (const login of [user.username, user.email.toUpperCase()]) {
      const res = await api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username: login, password });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('success');
      expect(res.body.data.user).toMatchObject({ id: user.id, username: user.username });
      expect(res.body.data.user).not.toHaveProperty('password_hash');
      expect(res.body.data.expiresAt).toBeGreaterThan(Date.now());
      const me = await api().get(`/api/users/${user.id}/profile`).set('Authorization', `Bearer ${res.body.data.token}`);
      expect([200, 404]).toContain(me.status); // profile route arrives with the accounts work
    }
  });

  it('refuses a wrong password with a clear message and no token', async () => {
    const { user } = await createUser();
    const res = await api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username: user.username, password: 'wrong password' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', message: 'Wrong username or password.', data: null });
  });

  it('answers 400 with a message when fields are missing', async () => {
    const res = await api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username: 'someone' });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('error');
    expect(res.body.message).toMatch(/password/i);
  });

  it('limits failed attempts per account with 429', async () => {
    const { user } = await createUser();
    let last = 0;
    for (let i = 0; i < 6; i++) {
      const res = await api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username: user.username, password: `bad-${i}` });
      last = res.status;
      if (i < 5) expect(res.status).toBe(401);
    }
    expect(last).toBe(429);
    // Even the right password waits until the window passes.
    const res = await api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username: user.username, password: 'correct horse battery' });
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/Too many failed sign-in attempts/);
    expect(res.headers['retry-after']).toBeDefined();
  });

  // Forty and thirty-one password checks in a row (argon2; light in tests, PASSWORD_HASH_MEMORY_KIB): generous limits for a busy machine.
  it('lets a whole office sign in from one address: successful sign-ins never use up its limit', { timeout: 180_000 }, async () => {
    const office = uniqueIp();
    const people = await Promise.all(Array.from({ length: 40 }, () => createUser()));
    for (const { user, password } of people) {
      const res = await api().post('/api/login').set('X-Forwarded-For', office).send({ username: user.username, password });
      expect(res.status, res.body.message).toBe(200);
    }
  });
  // Failures from one address ask it for the captcha instead of locking everyone there out: captcha.test.ts.
});

describe('sessions', () => {
  it('rotates the token on refresh: the old one stops working', async () => {
    const { token, auth } = await createUser();
    const res = await api().post('/api/auth/refresh').set(auth);
    expect(res.status).toBe(200);
    expect(res.body.data.token).not.toBe(token);
    const again = await api().post('/api/auth/refresh').set('Authorization', `Bearer ${token}`);
    expect(again.status).toBe(401);
    expect((await api().post('/api/auth/refresh').set('Authorization', `Bearer ${res.body.data.token}`)).status).toBe(200);
  });

  it('revokes the token on logout', async () => {
    const { auth } = await createUser();
    expect((await api().post('/api/logout').set(auth)).status).toBe(200);
    expect((await api().post('/api/logout').set(auth)).status).toBe(401);
  });

  it('answers 401 without a token', async () => {
    const res = await api().post('/api/logout');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Please sign in to continue.');
  });
});

describe('CSRF', () => {
  it('sets XSRF-TOKEN and requires it echoed on state-changing cookie requests', async () => {
    const { auth } = await createUser();
    const c = await api().get('/api/sanctum/csrf-cookie');
    expect(c.status).toBe(204);
    const cookie = (c.headers['set-cookie'] as unknown as string[]).find((s) => s.startsWith('XSRF-TOKEN='))!;
    const value = decodeURIComponent(cookie.split(';')[0].split('=')[1]);
    const refused = await api().post('/api/auth/refresh').set(auth).set('Cookie', `XSRF-TOKEN=${value}`);
    expect(refused.status).toBe(419);
    const accepted = await api().post('/api/auth/refresh').set(auth).set('Cookie', `XSRF-TOKEN=${value}`).set('X-XSRF-TOKEN', value);
    expect(accepted.status).toBe(200);
  });
});

describe('conventions', () => {
  it('gives every response a request id and unknown API paths a 404 envelope', async () => {
    const res = await api().get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers['x-request-id']).toMatch(/.{8,}/);
    expect(res.body.status).toBe('error');
  });

  it('compresses large answers for browsers that accept it', async () => {
    const res = await api().get('/api/settings').set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.body.data.name).toBeTruthy();
  });

  it('answers bad JSON with 400, not 500', async () => {
    const res = await api().post('/api/login').set('Content-Type', 'application/json').send('{"username": ');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/JSON/);
  });
});

describe('validation messages', () => {
  it('says a value has the wrong type instead of calling it missing', async () => {
    const res = await api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username: 'someone', password: 12345 });
    expect(res.status).toBe(400);
    expect(res.body.message).not.toMatch(/is required/);
    expect(res.body.message).toMatch(/password/);
  });
});
