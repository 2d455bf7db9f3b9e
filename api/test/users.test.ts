import { describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '@sitewalk/proto';
import { User, db } from '@sitewalk/core/db';
import { api, createUser, uniqueIp, uniqueName } from './helpers.js';
import { keepSettingsSteady } from './settings-lock.js';

// A password alone gives a session here: no file turns two-factor sign-in on meanwhile.
keepSettingsSteady('2fa_enable');

const signIn = (username: string, password: string) =>
  api().post('/api/login').set('X-Forwarded-For', uniqueIp()).send({ username, password });

describe('GET /api/users', () => {
  it('lists users a page at a time for a super admin, with search over name and e-mail', async () => {
    const admin = await createUser({ super_admin: true });
    const tag = uniqueName('tag');
    for (let i = 0; i < 3; i++) await createUser({ username: `${tag}_${i}` });
    await createUser({ first_name: tag });

    const page1 = await api().get('/api/users').query({ search: tag.toUpperCase(), per_page: 2 }).set(admin.auth);
    expect(page1.status).toBe(200);
    expect(page1.body.data).toMatchObject({ total: 4, page: 1, per_page: 2 });
    expect(page1.body.data.items).toHaveLength(2);
    const page2 = await api().get('/api/users').query({ search: tag, per_page: 2, page: 2 }).set(admin.auth);
    expect(page2.body.data.items).toHaveLength(2);
    const ids = [...page1.body.data.items, ...page2.body.data.items].map((u: { id: number }) => u.id);
    expect(new Set(ids).size).toBe(4);
    for (const u of page1.body.data.items) expect(u).not.toHaveProperty('password_hash');

    // LIKE wildcards in the search are taken literally.
    const wild = await api().get('/api/users').query({ search: '%' }).set(admin.auth);
    expect(wild.body.data.total).toBe(0);
  });

  it('answers 403 to a user who is not a super admin, 401 without a token, 400 to a bad page', async () => {
    const { auth } = await createUser();
    const res = await api().get('/api/users').set(auth);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Only administrators can do this.');
    expect((await api().get('/api/users')).status).toBe(401);
    const admin = await createUser({ super_admin: true });
    const bad = await api().get('/api/users').query({ per_page: 1000 }).set(admin.auth);
    expect(bad.status).toBe(400);
    // The same rule as every list: unknown query keys are refused, by name.
    const unknown = await api().get('/api/users?serach=bob').set(admin.auth);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Unknown query parameter: serach.');
    const nul = await api().get('/api/users?search=%00').set(admin.auth);
    expect(nul.status).toBe(400);
    expect(nul.body.message).toMatch(/^The query parameter "search" contains a character that cannot be stored/);
  });
});

describe('POST /api/users', () => {
  it('creates an active user with a password who can sign in', async () => {
    const admin = await createUser({ super_admin: true });
    const username = uniqueName('new');
    const res = await api().post('/api/users').set(admin.auth).send({ username, email: `${username}@example.test`, password: 'given by admin 1', role: 'editor', city: 'Amman' });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('User created successfully!');
    expect(res.body.data).toMatchObject({ invitation_sent: false, user: { username, role: 'editor', super_admin: false, active: true, city: 'Amman' } });
    expect((await signIn(username, 'given by admin 1')).status).toBe(200);
  });

  it('answers 409 to a taken username or e-mail, 400 to unknown fields, 403 to a non-admin', async () => {
    const admin = await createUser({ super_admin: true });
    const { user, auth } = await createUser();
    const dupName = await api().post('/api/users').set(admin.auth).send({ username: user.username, email: `${uniqueName()}@example.test`, password: 'given by admin 1' });
    expect(dupName.status).toBe(409);
    expect(dupName.body.message).toBe('This username is already taken. Choose another one.');
    const dupEmail = await api().post('/api/users').set(admin.auth).send({ username: uniqueName(), email: user.email, password: 'given by admin 1' });
    expect(dupEmail.status).toBe(409);
    expect(dupEmail.body.message).toBe('An account with this e-mail address already exists.');
    const unknown = await api().post('/api/users').set(admin.auth).send({ username: uniqueName(), email: `${uniqueName()}@example.test`, password_hash: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Unknown field: password_hash.');
    const asUser = await api().post('/api/users').set(auth).send({ username: uniqueName(), email: `${uniqueName()}@example.test`, password: 'given by admin 1' });
    expect(asUser.status).toBe(403);
  });
});

describe('GET /api/users/{id}', () => {
  it('shows a user to themselves and to a super admin; 404 to anyone else and for unknown ids', async () => {
    const a = await createUser();
    const b = await createUser();
    const admin = await createUser({ super_admin: true });
    const own = await api().get(`/api/users/${a.user.id}`).set(a.auth);
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ id: a.user.id, username: a.user.username, avatar: null });
    expect(own.body.data).not.toHaveProperty('password_hash');
    expect((await api().get(`/api/users/${a.user.id}`).set(admin.auth)).status).toBe(200);
    const other = await api().get(`/api/users/${a.user.id}`).set(b.auth);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ status: 'error', message: 'Not found.', data: null });
    expect((await api().get('/api/users/99999999').set(admin.auth)).status).toBe(404);
    expect((await api().get('/api/users/abc').set(admin.auth)).status).toBe(404);
  });
});

describe('PUT /api/users/{id}', () => {
  it('saves only the fields that changed and answers with the user', async () => {
    const { user, auth } = await createUser({ first_name: 'Old', city: 'Irbid' });
    const res = await api().put(`/api/users/${user.id}`).set(auth).send({ first_name: 'New', city: 'Irbid', tel: '+962 6 000' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('User updated successfully!');
    expect(res.body.data).toMatchObject({ first_name: 'New', city: 'Irbid', tel: '+962 6 000' });
    const same = await api().put(`/api/users/${user.id}`).set(auth).send({ first_name: 'New' });
    expect(same.body.message).toBe('Nothing changed.');
    const stored = await User.query().findById(user.id);
    expect(stored).toMatchObject({ first_name: 'New', tel: '+962 6 000' });
  });

  it('lets a user change their username and e-mail unless another account has them (409)', async () => {
    const { user, auth } = await createUser();
    const other = await createUser();
    const taken = await api().put(`/api/users/${user.id}`).set(auth).send({ email: other.user.email.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('An account with this e-mail address already exists.');
    const takenName = await api().put(`/api/users/${user.id}`).set(auth).send({ username: other.user.username });
    expect(takenName.status).toBe(409);
    const fresh = uniqueName('renamed');
    const ok = await api().put(`/api/users/${user.id}`).set(auth).send({ username: fresh, email: `${fresh}@example.test` });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ username: fresh, email: `${fresh}@example.test` });
  });

  it('answers 403 when a user tries to change their own role, admin flag or active state', async () => {
    const { user, auth } = await createUser();
    for (const patch of [{ role: 'editor' }, { super_admin: true }, { active: false }]) {
      const res = await api().put(`/api/users/${user.id}`).set(auth).send(patch);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Only administrators can change the role, the administrator flag or the active state of an account.');
    }
    expect((await User.query().findById(user.id))!.super_admin).toBe(false);
  });

  it('lets a super admin change role and disable an account, which ends its sessions', async () => {
    const admin = await createUser({ super_admin: true });
    const target = await createUser();
    const res = await api().put(`/api/users/${target.user.id}`).set(admin.auth).send({ role: 'viewer', active: false });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ role: 'viewer', active: false });
    expect((await api().get(`/api/users/${target.user.id}`).set(target.auth)).status).toBe(401);
    const login = await signIn(target.user.username, target.password);
    expect(login.status).toBe(403);
    expect(login.body.message).toBe('This account is disabled. Contact your administrator.');
  });

  it('keeps a super admin from removing their own rights', async () => {
    const admin = await createUser({ super_admin: true });
    const res = await api().put(`/api/users/${admin.user.id}`).set(admin.auth).send({ super_admin: false });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('You cannot remove your own administrator rights or deactivate your own account.');
  });

  it('answers 404 for another user\'s account, 400 for a bad or empty body, 401 without a token', async () => {
    const a = await createUser();
    const b = await createUser();
    expect((await api().put(`/api/users/${b.user.id}`).set(a.auth).send({ first_name: 'Hacked' })).status).toBe(404);
    expect((await User.query().findById(b.user.id))!.first_name).toBe('Test');
    const empty = await api().put(`/api/users/${a.user.id}`).set(a.auth).send({});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Nothing to update.');
    const badEmail = await api().put(`/api/users/${a.user.id}`).set(a.auth).send({ email: 'nope' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.message).toBe('Invalid email format');
    expect((await api().put(`/api/users/${a.user.id}`).send({ first_name: 'X' })).status).toBe(401);
  });
});

describe('DELETE /api/users/{id}', () => {
  it('lets a super admin delete another account', async () => {
    const admin = await createUser({ super_admin: true });
    const target = await createUser();
    const res = await api().delete(`/api/users/${target.user.id}`).set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('User deleted successfully!');
    expect(await User.query().findById(target.user.id)).toBeUndefined();
    expect((await api().delete(`/api/users/${target.user.id}`).set(admin.auth)).status).toBe(404);
  });

  it('refuses deleting yourself (400), a non-admin (403), and without a token (401)', async () => {
    const admin = await createUser({ super_admin: true });
    const self = await api().delete(`/api/users/${admin.user.id}`).set(admin.auth);
    expect(self.status).toBe(400);
    expect(self.body.message).toBe('You cannot delete your own account.');
    const a = await createUser();
    const b = await createUser();
    expect((await api().delete(`/api/users/${b.user.id}`).set(a.auth)).status).toBe(403);
    expect((await api().delete(`/api/users/${b.user.id}`)).status).toBe(401);
    expect(await User.query().findById(b.user.id)).toBeDefined();
  });
});

describe('GET /api/users/{id}/profile', () => {
  it('loads the profile structure of SPEC §3 for the user themselves', async () => {
    const { user, auth } = await createUser();
    const res = await api().get(`/api/users/${user.id}/profile`).set(auth);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(['notification_preferences', 'plan_info', 'plan_members', 'plan_slot', 'user', 'user_stats']);
    expect(data.user).toMatchObject({ id: user.id, username: user.username });
    expect(data.user_stats).toEqual({ projects: 0, visits: 0, sheets: 0, open_snags: 0 });
    expect(data.plan_members).toEqual({ members: [], invites: [], id_owner: null });
    expect(data.notification_preferences.global_settings).toEqual({ in_app: true, email: true, browser: true });
    expect(data.notification_preferences.preferences.map((p: { kind: string }) => p.kind).sort()).toEqual([...NOTIFICATION_KINDS].sort());
    for (const p of data.notification_preferences.preferences) expect(p.id).toEqual(expect.any(Number));
  });

  it('counts the user\'s projects once projects exist', async () => {
    const { user, auth } = await createUser();
    const hasProjects = await db().schema.hasColumn('projects', 'id_owner');
    const before = (await api().get(`/api/users/${user.id}/profile`).set(auth)).body.data.user_stats.projects;
    expect(before).toBe(0);
    if (!hasProjects) return;
    const cols: { column_name: string; is_nullable: string; column_default: string | null }[] = await db()('information_schema.columns')
      .where({ table_name: 'projects' })
      .select('column_name', 'is_nullable', 'column_default');
    // Fill only what the projects table requires, whatever it grows to.
    const row: Record<string, unknown> = { id_owner: user.id };
    for (const c of cols) {
      if (c.column_name in row || c.column_name === 'id' || c.is_nullable === 'YES' || c.column_default !== null) continue;
      row[c.column_name] = c.column_name === 'project_code' ? uniqueName('code') : 'Test';
    }
    await db()('projects').insert(row);
    const after = await api().get(`/api/users/${user.id}/profile`).set(auth);
    expect(after.body.data.user_stats.projects).toBe(1);
  });

  it('shows another user\'s profile to a super admin only (404 otherwise, 401 without a token)', async () => {
    const a = await createUser();
    const b = await createUser();
    const admin = await createUser({ super_admin: true });
    expect((await api().get(`/api/users/${a.user.id}/profile`).set(admin.auth)).status).toBe(200);
    expect((await api().get(`/api/users/${a.user.id}/profile`).set(b.auth)).status).toBe(404);
    expect((await api().get('/api/users/99999999/profile').set(admin.auth)).status).toBe(404);
    expect((await api().get(`/api/users/${a.user.id}/profile`)).status).toBe(401);
  });
});

describe('POST /api/language', () => {
  it('stores the user\'s language, shown on their account afterwards', async () => {
    const { user, auth } = await createUser();
    const res = await api().post('/api/language').set(auth).send({ locale: 'ar' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ locale: 'ar' });
    expect((await api().get(`/api/users/${user.id}`).set(auth)).body.data.language).toBe('ar');
  });

  it('answers 400 for an unsupported language and 401 without a token', async () => {
    const { auth } = await createUser();
    const res = await api().post('/api/language').set(auth).send({ locale: 'fr' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('locale must be one of: en, ar.');
    expect((await api().post('/api/language').send({ locale: 'en' })).status).toBe(401);
  });
});
