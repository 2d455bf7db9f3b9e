import { describe, expect, it } from 'vitest';
import { api, createUser, uniqueIp } from './helpers.js';
import { issueSession } from '@sitewalk/core/services/session.service.js';
import { db } from '@sitewalk/core/db';
import { keepSettingsSteady } from './settings-lock.js';

// A password alone gives a session here: no file turns two-factor sign-in on meanwhile.
keepSettingsSteady('2fa_enable');

const signIn = (username: string, password: string) =>
  api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username, password });

describe('POST /api/users/{id}/change-password', () => {
  it('changes your own password with the current one, keeping only the session in use', async () => {
    const { user, auth, password } = await createUser();
    const other = await issueSession(user.id, { remember: false });
    const res = await api()
      .post(`/api/users/${user.id}/change-password`)
      .set(auth)
      .send({ target_user_id: user.id, current_password: password, new_password: 'my new password 1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', message: 'The password has been changed.', data: null });
    expect((await api().get(`/api/users/${user.id}`).set(auth)).status).toBe(200);
    expect((await api().get(`/api/users/${user.id}`).set('Authorization', `Bearer ${other.token}`)).status).toBe(401);
    expect((await signIn(user.username, password)).status).toBe(401);
    expect((await signIn(user.username, 'my new password 1')).status).toBe(200);
  });

  it('refuses a missing or wrong current password with 400 (not 401, which would sign the user out)', async () => {
    const { user, auth } = await createUser();
    const missing = await api().post(`/api/users/${user.id}/change-password`).set(auth).send({ new_password: 'my new password 1' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Enter your current password.');
    const wrong = await api().post(`/api/users/${user.id}/change-password`).set(auth).send({ current_password: 'not it at all', new_password: 'my new password 1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Your current password is not correct.');
  });

  it('limits wrong current passwords with 429', async () => {
    const { user, auth, password } = await createUser();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await api().post(`/api/users/${user.id}/change-password`).set(auth).send({ current_password: `wrong ${i} guess`, new_password: 'my new password 1' })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const right = await api().post(`/api/users/${user.id}/change-password`).set(auth).send({ current_password: password, new_password: 'my new password 1' });
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/^Too many wrong current passwords\. Try again in/);
  });

  it('lets a super admin set another user\'s password without the current one; that user\'s sessions end', async () => {
    const admin = await createUser({ super_admin: true });
    const target = await createUser();
    const res = await api().post(`/api/users/${target.user.id}/change-password`).set(admin.auth).send({ target_user_id: target.user.id, new_password: 'set by the admin 1' });
    expect(res.status).toBe(200);
    expect((await api().get(`/api/users/${target.user.id}`).set(target.auth)).status).toBe(401);
    expect((await signIn(target.user.username, 'set by the admin 1')).status).toBe(200);
  });

  it('answers 404 to a user changing someone else\'s password, and for an unknown user', async () => {
    const a = await createUser();
    const b = await createUser();
    const res = await api().post(`/api/users/${b.user.id}/change-password`).set(a.auth).send({ current_password: a.password, new_password: 'my new password 1' });
    expect(res.status).toBe(404);
    const admin = await createUser({ super_admin: true });
    expect((await api().post('/api/users/99999999/change-password').set(admin.auth).send({ new_password: 'my new password 1' })).status).toBe(404);
    expect((await signIn(b.user.username, b.password)).status).toBe(200);
  });

  it('answers 400 to a bad body, a target that is not the address, or the same password again', async () => {
    const { user, auth, password } = await createUser();
    const weak = await api().post(`/api/users/${user.id}/change-password`).set(auth).send({ current_password: password, new_password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe('Password must be at least 8 characters.');
    const mismatch = await api().post(`/api/users/${user.id}/change-password`).set(auth).send({ target_user_id: user.id + 1, current_password: password, new_password: 'my new password 1' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe('target_user_id must be the user of the address.');
    const same = await api().post(`/api/users/${user.id}/change-password`).set(auth).send({ current_password: password, new_password: password });
    expect(same.status).toBe(400);
    expect(same.body.message).toBe('The new password must be different from the current one.');
  });

  it('answers 401 without a token or with an expired one', async () => {
    const { user } = await createUser();
    expect((await api().post(`/api/users/${user.id}/change-password`).send({ new_password: 'my new password 1' })).status).toBe(401);
    const old = await issueSession(user.id, { remember: false });
    await db()('sessions').where({ id: old.session.id }).update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await api().post(`/api/users/${user.id}/change-password`).set('Authorization', `Bearer ${old.token}`).send({ new_password: 'my new password 1' });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe('Your session has expired. Please sign in again.');
  });
});
