import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, type TestUser } from './helpers.js';
import { newProject } from './project-helpers.js';
import { lockSettings, type SettingsLock } from './settings-lock.js';

async function newKey(owner: TestUser, scope: 'read' | 'read-write', name = 'Reporting tool') {
  const res = await api().post('/api/api-keys').set(owner.auth).send({ name, scope });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; key: string; prefix: string; scope: string };
}

describe('personal API keys', () => {
  it('are shown once, listed without the key, and act as their owner through either header', async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const created = await newKey(owner, 'read-write');
    expect(created.key.startsWith(`${created.prefix}_`)).toBe(true);

    const list = await api().get('/api/api-keys').set(owner.auth);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id: created.id, name: 'Reporting tool', scope: 'read-write', last_used_at: null, revoked_at: null });
    expect(JSON.stringify(list.body)).not.toContain(created.key);

    const viaBearer = await api().get(`/api/projects/${project.id}`).set('Authorization', `Bearer ${created.key}`);
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.body.data.name).toBe(project.name);
    const viaHeader = await api().put(`/api/projects/${project.id}`).set('X-Api-Key', created.key).send({ name: 'Renamed by a tool' });
    expect(viaHeader.status, JSON.stringify(viaHeader.body)).toBe(200);
    expect(viaHeader.body.data.name).toBe('Renamed by a tool');

    const after = await api().get('/api/api-keys').set(owner.auth);
    expect(after.body.data[0].last_used_at).not.toBeNull();
  });

  it('a read key reads but is refused any change with 403 and a sentence', async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const { key } = await newKey(owner, 'read');
    expect((await api().get(`/api/projects/${project.id}`).set('X-Api-Key', key)).status).toBe(200);
    const write = await api().put(`/api/projects/${project.id}`).set('X-Api-Key', key).send({ name: 'Not allowed' });
    expect(write.status).toBe(403);
    expect(write.body.message).toBe('This API key may only read. Use a read-write key to make changes.');
    const check = await api().get(`/api/projects/${project.id}`).set(owner.auth);
    expect(check.body.data.name).toBe(project.name);
  });

  it('stops working once revoked (401); another account cannot revoke it (404)', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const { id, key } = await newKey(owner, 'read-write');
    expect((await api().get('/api/projects').set('X-Api-Key', key)).status).toBe(200);

    expect((await api().delete(`/api/api-keys/${id}`).set(stranger.auth)).status).toBe(404);
    expect((await api().get('/api/projects').set('X-Api-Key', key)).status).toBe(200);

    const revoked = await api().delete(`/api/api-keys/${id}`).set(owner.auth);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).not.toBeNull();
    for (const send of [{ 'X-Api-Key': key }, { Authorization: `Bearer ${key}` }]) {
      const res = await api().get('/api/projects').set(send);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('This API key is not valid or has been revoked.');
    }
  });

  it('follows its owner’s access rules: another account’s project is 404', async () => {
    const owner = await createUser();
    const other = await createUser();
    const theirs = await newProject(other);
    const { key } = await newKey(owner, 'read-write');
    expect((await api().get(`/api/projects/${theirs.id}`).set('X-Api-Key', key)).status).toBe(404);
    expect((await api().delete(`/api/projects/${theirs.id}`).set('X-Api-Key', key).send({ id_user: other.user.id })).status).toBe(404);
  });

  it('cannot manage keys, sessions or the password, and needs no CSRF token even with cookies', async () => {
    const owner = await createUser();
    const { key } = await newKey(owner, 'read-write');
    const mint = await api().post('/api/api-keys').set('X-Api-Key', key).send({ name: 'escalate', scope: 'read-write' });
    expect(mint.status).toBe(403);
    expect(mint.body.message).toMatch(/An API key cannot do this/);
    expect((await api().get('/api/sessions').set('X-Api-Key', key)).status).toBe(403);
    expect((await api().post('/api/logout').set('X-Api-Key', key)).status).toBe(403);

    // A cookie alongside the key (a tool sharing a cookie jar) does not make the request a cookie request.
    const res = await api().post('/api/projects').set('X-Api-Key', key).set('Cookie', 'unrelated=1').send({ name: 'From a script' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('refuses a nameless key or an unknown scope with a sentence', async () => {
    const owner = await createUser();
    const nameless = await api().post('/api/api-keys').set(owner.auth).send({ name: '  ', scope: 'read' });
    expect(nameless.status).toBe(400);
    expect(nameless.body.message).toBe('Give the key a name.');
    const scope = await api().post('/api/api-keys').set(owner.auth).send({ name: 'x', scope: 'admin' });
    expect(scope.status).toBe(400);
    expect(scope.body.message).toMatch(/"read" or "read-write"/);
    expect((await api().post('/api/api-keys').send({ name: 'x', scope: 'read' })).status).toBe(401);
  });
});

describe('the site-wide key of the settings (api_key)', () => {
  let settings: SettingsLock;
  beforeAll(async () => {
    settings = await lockSettings();
  });
  afterAll(async () => {
    await settings.release();
  });

  it('acts as an administrator through either header while set, and not at all when too short or cleared', async () => {
    const admin = await createUser({ super_admin: true });
    const short = await api().put('/api/settings').set(admin.auth).send({ api_key: 'too-short' });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('api_key must be empty (off) or at least 20 characters, so that it cannot be guessed.');
    const siteKey = 'integration-key-0123456789-abcdef';
    await settings.set({ api_key: siteKey });
    for (const send of [{ 'X-Api-Key': siteKey }, { Authorization: `Bearer ${siteKey}` }]) {
      const res = await api().get('/api/projects?scope=all').set(send);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await settings.set({ api_key: 'short-key' });
    expect((await api().get('/api/projects').set('X-Api-Key', 'short-key')).status).toBe(401);
    await settings.set({ api_key: '' });
    expect((await api().get('/api/projects').set('X-Api-Key', siteKey)).status).toBe(401);
    expect((await api().get('/api/projects').set('Authorization', `Bearer ${siteKey}`)).status).toBe(401);
  });
});
