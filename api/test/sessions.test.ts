import { describe, expect, it } from 'vitest';
import { api, createUser, uniqueIp } from './helpers.js';
import { keepSettingsSteady } from './settings-lock.js';

// A password alone gives a session here: no file turns two-factor sign-in on meanwhile.
keepSettingsSteady('2fa_enable');

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function signIn(username: string, password: string, userAgent: string, ip = uniqueIp()) {
  const res = await api().post('/api/login').set('X-Forwarded-For', ip).set('User-Agent', userAgent).send({ username, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { Authorization: `Bearer ${res.body.data.token ?? res.body.data.access_token}` };
}

describe('the devices an account is signed in on', () => {
  it('lists each session with its device, address and last use, this one marked and first', async () => {
    const { user, password } = await createUser();
    const laptop = await signIn(user.username, password, CHROME_WINDOWS);
    await signIn(user.username, password, SAFARI_IPHONE);
    const res = await api().get('/api/sessions').set(laptop);
    expect(res.status).toBe(200);
    const list = res.body.data as { device: string; current: boolean; ip: string | null; last_used_at: string }[];
    // The helper's own session (no agent) is one more.
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ device: 'Chrome 131 on Windows', current: true });
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.map((s) => s.device)).toContain('Safari 17 on iOS (mobile)');
    for (const s of list) expect(Number.isNaN(Date.parse(s.last_used_at))).toBe(false);
  });

  it('signs one device out, and then everywhere else; another account’s session answers 404', async () => {
    const { user, password, auth: first } = await createUser();
    const laptop = await signIn(user.username, password, CHROME_WINDOWS);
    const phone = await signIn(user.username, password, SAFARI_IPHONE);
    const stranger = await createUser();
    const ids = async () => (await api().get('/api/sessions').set(laptop)).body.data as { id: number; device: string; current: boolean }[];
    const phoneId = (await ids()).find((s) => s.device.startsWith('Safari'))!.id;

    expect((await api().delete(`/api/sessions/${phoneId}`).set(stranger.auth)).status).toBe(404);
    expect((await api().get('/api/sessions').set(phone)).status).toBe(200);
    const one = await api().delete(`/api/sessions/${phoneId}`).set(laptop);
    expect(one.status).toBe(200);
    expect(one.body.message).toBe('Signed out on that device.');
    expect((await api().get('/api/sessions').set(phone)).status).toBe(401);
    expect((await api().delete(`/api/sessions/${phoneId}`).set(laptop)).status).toBe(404);

    const others = await api().post('/api/sessions/revoke-others').set(laptop);
    expect(others.status).toBe(200);
    expect(others.body.data).toEqual({ revoked: 1 });
    expect((await api().get('/api/sessions').set(first)).status).toBe(401);
    expect((await ids()).map((s) => s.current)).toEqual([true]);
  });

  it('ends the other sessions when the password changes, keeping this one', async () => {
    const { user, password } = await createUser();
    const laptop = await signIn(user.username, password, CHROME_WINDOWS);
    const phone = await signIn(user.username, password, SAFARI_IPHONE);
    const changed = await api()
      .post(`/api/users/${user.id}/change-password`)
      .set(laptop)
      .send({ current_password: password, new_password: 'another long password 2', new_password_confirmation: 'another long password 2' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await api().get('/api/sessions').set(phone)).status).toBe(401);
    expect(((await api().get('/api/sessions').set(laptop)).body.data as unknown[]).length).toBe(1);
  });

  it('a super admin signs a user out on every device at once (keeping their own session); nobody else may', async () => {
    const { user, password, auth: helperSession } = await createUser();
    const laptop = await signIn(user.username, password, CHROME_WINDOWS);
    const phone = await signIn(user.username, password, SAFARI_IPHONE);
    const admin = await createUser({ super_admin: true });
    const colleague = await createUser();

    // Not an administrator: refused with a sentence, and nothing ends.
    const refused = await api().post(`/api/users/${user.id}/sessions/revoke`).set(colleague.auth);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only administrators can do this.');
    expect((await api().post(`/api/users/${user.id}/sessions/revoke`)).status).toBe(401);
    expect((await api().get('/api/sessions').set(phone)).status).toBe(200);
    expect((await api().post('/api/users/999999999/sessions/revoke').set(admin.auth)).status).toBe(404);

    const everywhere = await api().post(`/api/users/${user.id}/sessions/revoke`).set(admin.auth);
    expect(everywhere.status, JSON.stringify(everywhere.body)).toBe(200);
    expect(everywhere.body).toMatchObject({ data: { revoked: 3 }, message: 'Signed out on 3 device(s).' });
    for (const device of [laptop, phone, helperSession]) expect((await api().get('/api/sessions').set(device)).status).toBe(401);
    expect((await api().post(`/api/users/${user.id}/sessions/revoke`).set(admin.auth)).body.message).toBe('This account was signed in nowhere.');
    // The person signs in again with their password as usual.
    await signIn(user.username, password, CHROME_WINDOWS);

    // Signing oneself out everywhere keeps the session that asked.
    const adminPhone = await signIn(admin.user.username, admin.password, SAFARI_IPHONE);
    const self = await api().post(`/api/users/${admin.user.id}/sessions/revoke`).set(admin.auth);
    expect(self.body.data).toEqual({ revoked: 1 });
    expect((await api().get('/api/sessions').set(adminPhone)).status).toBe(401);
    expect((await api().get('/api/sessions').set(admin.auth)).status).toBe(200);
  });
});
