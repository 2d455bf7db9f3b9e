import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, uniqueIp, uniqueName } from './helpers.js';
import { solvedCaptcha } from './captcha-helpers.js';
import { lockSettings, type SettingsLock } from './settings-lock.js';

const login = (body: Record<string, unknown>, ip: string) => api().post('/api/login').set('X-Forwarded-For', ip).send(body);

describe('the captcha after failed sign-ins from one address', () => {
  it('asks the address for the captcha after 5 failures instead of locking it out; a solved captcha lets the right password in', { timeout: 120_000 }, async () => {
    const office = uniqueIp();
    for (let i = 0; i < 5; i++) {
      // A different (unknown) account each time: only the per-address count grows.
      expect((await login({ username: `nobody_${i}_${Date.now()}`, password: 'guess' }, office)).status).toBe(401);
    }
    const { user, password } = await createUser();
    const missing = await login({ username: user.username, password }, office);
    expect(missing.status).toBe(428);
    expect(missing.body.message).toBe('Solve the captcha first: tick "I\'m not a robot" and wait for the check mark.');
    expect(missing.body.data).toBeNull();

    const altcha = await solvedCaptcha(office);
    const ok = await login({ username: user.username, password, altcha }, office);
    expect(ok.status, ok.body.message).toBe(200);
    expect(ok.body.data.token).toEqual(expect.any(String));

    // Another address is not affected.
    expect((await login({ username: user.username, password }, uniqueIp())).status).toBe(200);
  });

  it('refuses a replayed, altered or made-up captcha with a sentence, before the password is looked at', { timeout: 120_000 }, async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) await login({ username: `nobody_${i}_${Date.now()}`, password: 'guess' }, ip);
    const { user, password } = await createUser();
    const altcha = await solvedCaptcha(ip);
    expect((await login({ username: user.username, password, altcha }, ip)).status).toBe(200);

    const replay = await login({ username: user.username, password, altcha }, ip);
    expect(replay.status).toBe(400);
    expect(replay.body.message).toBe('This captcha answer was already used. Solve the captcha again.');

    const decoded = JSON.parse(Buffer.from(await solvedCaptcha(ip), 'base64').toString());
    decoded.challenge.parameters.cost = 1; // cheaper work than the server asked for
    const altered = await login({ username: user.username, password, altcha: Buffer.from(JSON.stringify(decoded)).toString('base64') }, ip);
    expect(altered.status).toBe(400);
    expect(altered.body.message).toBe('The captcha answer is not valid. Solve the captcha again.');

    for (const junk of ['not base64 at all', Buffer.from('{"challenge":1}').toString('base64'), 'x'.repeat(9000)]) {
      const res = await login({ username: user.username, password, altcha: junk }, ip);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/captcha/);
    }
    // A wrong password with a bad captcha is answered about the captcha: the password was never checked.
    const wrongBoth = await login({ username: user.username, password: 'wrong', altcha }, ip);
    expect(wrongBoth.body.message).toMatch(/captcha/);
  });

  it('keeps the per-account limit even with solved captchas', { timeout: 120_000 }, async () => {
    const { user, password } = await createUser();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login({ username: user.username, password: `bad-${i}`, altcha: await solvedCaptcha() }, uniqueIp())).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    expect((await login({ username: user.username, password }, uniqueIp())).status).toBe(429);
  });
});

describe('the captcha of registration (captcha_register)', () => {
  let settings: SettingsLock;
  beforeAll(async () => {
    settings = await lockSettings();
    await settings.set({ enable_registration: true, validate_email: false, captcha_register: true });
  });
  afterAll(() => settings.release());

  const newAccount = () => {
    const username = uniqueName('reg');
    return { username, email: `${username}@example.test`, password: 'a long enough password', first_name: 'Reg' };
  };

  it('refuses a registration without a solved captcha, accepts one with it, and refuses the same answer twice', { timeout: 60_000 }, async () => {
    const ip = uniqueIp();
    const none = await api().post('/api/register').set('X-Forwarded-For', ip).send(newAccount());
    expect(none.status).toBe(428);
    expect(none.body.message).toMatch(/^Solve the captcha first/);
    const altcha = await solvedCaptcha(ip);
    const ok = await api().post('/api/register').set('X-Forwarded-For', ip).send({ ...newAccount(), altcha });
    expect(ok.status, ok.body.message).toBe(201);
    const again = await api().post('/api/register').set('X-Forwarded-For', ip).send({ ...newAccount(), altcha });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This captcha answer was already used. Solve the captcha again.');
  });
});
