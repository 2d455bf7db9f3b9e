import { afterAll, describe, expect, it } from 'vitest';
import { db } from '@sitewalk/core/db';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { closeQueues, queue } from '@sitewalk/core/queue';
import { saveSettings } from '@sitewalk/core/services/settings.service.js';
import { api, createUser, uniqueName } from './helpers.js';
import { addMember, newProject } from './project-helpers.js';

afterAll(async () => {
  await closeQueues();
  await closeEmitter();
});

describe('POST /api/projects', () => {
  it('creates a project owned by the user, awaiting approval, with an unguessable URL-safe code', async () => {
    const owner = await createUser();
    const res = await api()
      .post('/api/projects')
      .set(owner.auth)
      .send({ name: '  Harbour Tower  ', description: 'Twelve floors of offices', city: 'Amman', country: 'Jordan', start_date: '2026-01-05', end_date: '2027-06-30', area: 12500, num_floors: 12, latitude: 31.95, longitude: 35.91 });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('success');
    expect(res.body.message).toBe('Project created successfully!');
    const p = res.body.data;
    expect(p).toMatchObject({
      name: 'Harbour Tower',
      description: 'Twelve floors of offices',
      city: 'Amman',
      start_date: '2026-01-05',
      end_date: '2027-06-30',
      area: 12500,
      num_floors: 12,
      latitude: 31.95,
      active: true,
      validated: false,
      starred: false,
      role: 'owner',
      can_manage: true,
      can_edit_sheets: true,
      owner: { id: owner.user.id, username: owner.user.username },
      categories: [],
      project_type: null,
      maps: [],
      pdf_uploads: [],
      sheets_count: 0,
      cover_url: null,
    });
    expect(p.project_code).toMatch(/^[a-z0-9]{12}$/);
    const again = await api().post('/api/projects').set(owner.auth).send({ name: 'Second' });
    expect(again.body.data.project_code).not.toBe(p.project_code);
  });

  it('answers 400 with the form message for a blank name, unknown fields and reversed dates; 401 without a token', async () => {
    const owner = await createUser();
    const blank = await api().post('/api/projects').set(owner.auth).send({ name: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Project name is required');
    const missing = await api().post('/api/projects').set(owner.auth).send({});
    expect(missing.status).toBe(400);
    const unknown = await api().post('/api/projects').set(owner.auth).send({ name: 'A', id_owner: 99 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Unknown field: id_owner.');
    const dates = await api().post('/api/projects').set(owner.auth).send({ name: 'A', start_date: '2026-05-01', end_date: '2026-04-01' });
    expect(dates.status).toBe(400);
    expect(dates.body.message).toBe('The end date must not be before the start date.');
    const badType = await api().post('/api/projects').set(owner.auth).send({ name: 'A', id_project_type: 999999 });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toBe('This project type does not exist.');
    expect((await api().post('/api/projects').send({ name: 'A' })).status).toBe(401);
    expect(await db()('projects').where({ id_owner: owner.user.id }).count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it("refuses another user's category, and keeps the user's own", async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const mine = (await api().post('/api/categories').set(owner.auth).send({ name: 'Residential' })).body.data;
    const theirs = (await api().post('/api/categories').set(stranger.auth).send({ name: 'Secret' })).body.data;
    const refused = await api().post('/api/projects').set(owner.auth).send({ name: 'A', categories: [mine.id, theirs.id] });
    expect(refused.status).toBe(400);
    const okRes = await api().post('/api/projects').set(owner.auth).send({ name: 'A', categories: [mine.id] });
    expect(okRes.body.data.categories).toEqual([{ id: mine.id, name: 'Residential' }]);
  });

  it('generates codes that are not, and do not contain, a reserved word of furl_blacklist', async () => {
    const { isAllowedCode, reservedWords, randomCode } = await import('@sitewalk/core/services/project-code.service.js');
    const reserved = reservedWords(' Admin, api ,showcase,,x');
    expect(reserved).toEqual(['admin', 'api', 'showcase', 'x']);
    expect(isAllowedCode('admin', reserved)).toBe(false);
    expect(isAllowedCode('k2apim8zzzzz', reserved)).toBe(false);
    expect(isAllowedCode('x', reserved)).toBe(false);
    expect(isAllowedCode('k2xpm8zzzzzz', reserved)).toBe(true);
    for (let i = 0; i < 200; i++) expect(randomCode()).toMatch(/^[a-hjkmnp-z2-9]{12}$/);
  });

  it('tells the super admins about a new project when notify_project_create is on', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    await saveSettings({ notify_project_create: true });
    try {
      const p = await newProject(owner, { name: 'Notify me' });
      const job = await queue('notifications').getJob(`notify-project-created-${p.id}-u${admin.user.id}`);
      expect(job?.data).toMatchObject({ user_id: admin.user.id, kind: 'project_created', link: '/approvals' });
      expect(job?.data.message).toContain('Notify me');
    } finally {
      await saveSettings({ notify_project_create: false });
    }
    const quiet = await newProject(owner, { name: 'Quiet' });
    expect(await queue('notifications').getJob(`notify-project-created-${quiet.id}-u${admin.user.id}`)).toBeUndefined();
  });
});

describe('GET /api/projects/{id} and access', () => {
  it("answers 404 for another user's project and for unknown ids, the same way", async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const p = await newProject(owner);
    const theirs = await api().get(`/api/projects/${p.id}`).set(stranger.auth);
    const unknown = await api().get('/api/projects/999999').set(stranger.auth);
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(theirs.body).toEqual(unknown.body);
    expect((await api().put(`/api/projects/${p.id}`).set(stranger.auth).send({ name: 'Mine now' })).status).toBe(404);
    expect((await api().delete(`/api/projects/${p.id}`).set(stranger.auth)).status).toBe(404);
    expect((await api().post('/api/projects/star').set(stranger.auth).send({ id_project: p.id, starred: true })).status).toBe(404);
    expect((await api().get('/api/projects/abc').set(owner.auth)).status).toBe(404);
    expect((await api().get(`/api/projects/${p.id}`)).status).toBe(401);
  });

  it('lets members read; only editors change sheets; only the owner or a super admin changes the project', async () => {
    const owner = await createUser();
    const viewer = await createUser();
    const editor = await createUser();
    const admin = await createUser({ super_admin: true });
    const p = await newProject(owner);
    await addMember(p.id, viewer, 'viewer');
    await addMember(p.id, editor, 'editor');

    const seen = await api().get(`/api/projects/${p.id}`).set(viewer.auth);
    expect(seen.status).toBe(200);
    expect(seen.body.data).toMatchObject({ role: 'viewer', can_manage: false, can_edit_sheets: false });
    expect((await api().get(`/api/projects/${p.id}`).set(editor.auth)).body.data).toMatchObject({ role: 'editor', can_manage: false, can_edit_sheets: true });
    expect((await api().get(`/api/projects/${p.id}`).set(admin.auth)).body.data).toMatchObject({ role: 'admin', can_manage: true });

    const refused = await api().put(`/api/projects/${p.id}`).set(editor.auth).send({ name: 'Renamed' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only the project owner can do this.');
    expect((await api().post('/api/maps').set(viewer.auth).send({ id_project: p.id, name: 'Level 1' })).status).toBe(403);
    expect((await api().post('/api/maps').set(editor.auth).send({ id_project: p.id, name: 'Level 1' })).status).toBe(201);
    const byAdmin = await api().put(`/api/projects/${p.id}`).set(admin.auth).send({ name: 'Renamed by admin' });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.data.name).toBe('Renamed by admin');
  });
});

describe('PUT /api/projects/{id}', () => {
  it('changes only the fields sent, replaces the categories and sets the type', async () => {
    const owner = await createUser();
    const admin = await createUser({ super_admin: true });
    const type = (await api().post('/api/project-types').set(admin.auth).send({ name: uniqueName('Hospital') })).body.data;
    const a = (await api().post('/api/categories').set(owner.auth).send({ name: 'Phase A' })).body.data;
    const b = (await api().post('/api/categories').set(owner.auth).send({ name: 'Phase B' })).body.data;
    const p = await newProject(owner, { name: 'Clinic', city: 'Irbid', categories: [a.id] });

    const res = await api().put(`/api/projects/${p.id}`).set(owner.auth).send({ description: 'New wing', id_project_type: type.id, categories: [b.id, a.id] });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Project updated successfully!');
    expect(res.body.data).toMatchObject({ name: 'Clinic', city: 'Irbid', description: 'New wing', id_project_type: type.id, project_type: { id: type.id, name: type.name } });
    expect(res.body.data.categories).toEqual([{ id: a.id, name: 'Phase A' }, { id: b.id, name: 'Phase B' }]);

    const cleared = await api().put(`/api/projects/${p.id}`).set(owner.auth).send({ categories: [], id_project_type: null, city: '' });
    expect(cleared.body.data).toMatchObject({ categories: [], project_type: null, city: '' });
  });

  it('answers 400 for an empty body, a blank name and an end date before the stored start date', async () => {
    const owner = await createUser();
    const p = await newProject(owner, { start_date: '2026-03-01' });
    const empty = await api().put(`/api/projects/${p.id}`).set(owner.auth).send({});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Nothing to update.');
    expect((await api().put(`/api/projects/${p.id}`).set(owner.auth).send({ name: '' })).body.message).toBe('Project name is required');
    const dates = await api().put(`/api/projects/${p.id}`).set(owner.auth).send({ end_date: '2026-02-01' });
    expect(dates.status).toBe(400);
    expect(dates.body.message).toBe('The end date must not be before the start date.');
  });
});

describe('GET /api/projects', () => {
  it('lists only what the user may see, with search, filters, sort and pages', async () => {
    const owner = await createUser();
    const other = await createUser();
    const admin = await createUser({ super_admin: true });
    const cat = (await api().post('/api/categories').set(owner.auth).send({ name: 'Towers' })).body.data;
    const type = (await api().post('/api/project-types').set(admin.auth).send({ name: uniqueName('Office') })).body.data;
    const alpha = await newProject(owner, { name: 'Alpha Tower', city: 'Aqaba', categories: [cat.id] });
    const beta = await newProject(owner, { name: 'beta house', id_project_type: type.id });
    const gamma = await newProject(owner, { name: 'Gamma 100%_done' });
    const shared = await newProject(other, { name: 'Shared site' });
    await newProject(other, { name: 'Private site' });
    await addMember(shared.id, owner);

    const all = await api().get('/api/projects?sort=name').set(owner.auth);
    expect(all.status).toBe(200);
    expect(all.body.data.items.map((p: { name: string }) => p.name)).toEqual(['Alpha Tower', 'beta house', 'Gamma 100%_done', 'Shared site']);
    expect(all.body.data).toMatchObject({ total: 4, page: 1, per_page: 20 });
    expect(all.body.data.items[3]).toMatchObject({ role: 'viewer', owner: { id: other.user.id } });

    const names = async (qs: string) => (await api().get(`/api/projects?${qs}`).set(owner.auth)).body.data.items.map((p: { name: string }) => p.name);
    expect(await names('search=TOWER')).toEqual(['Alpha Tower']);
    expect(await names('search=aqaba')).toEqual(['Alpha Tower']);
    expect(await names('search=100%25_')).toEqual(['Gamma 100%_done']);
    expect(await names('search=%25')).toEqual(['Gamma 100%_done']);
    expect(await names(`id_category=${cat.id}`)).toEqual(['Alpha Tower']);
    expect(await names(`id_project_type=${type.id}`)).toEqual(['beta house']);
    expect(await names('sort=name&order=desc')).toEqual(['Shared site', 'Gamma 100%_done', 'beta house', 'Alpha Tower']);
    await api().post('/api/projects/star').set(owner.auth).send({ id_project: gamma.id, starred: true });
    expect(await names('starred=true')).toEqual(['Gamma 100%_done']);
    expect(await names('starred=false&sort=name')).toEqual(['Alpha Tower', 'beta house', 'Shared site']);

    const page2 = await api().get('/api/projects?sort=name&per_page=3&page=2').set(owner.auth);
    expect(page2.body.data.items.map((p: { name: string }) => p.name)).toEqual(['Shared site']);
    expect(page2.body.data).toMatchObject({ total: 4, page: 2, per_page: 3 });

    expect(alpha.id).toBeLessThan(beta.id);
  });

  it('shows every project to a super admin with scope=all (the approvals list) and refuses it to others with 403', async () => {
    const owner = await createUser();
    const admin = await createUser({ super_admin: true });
    const p = await newProject(owner, { name: uniqueName('Awaiting') });
    const pending = await api().get(`/api/projects?scope=all&validated=false&search=${p.name}`).set(admin.auth);
    expect(pending.body.data.items.map((x: { id: number }) => x.id)).toEqual([p.id]);
    expect(pending.body.data.items[0].role).toBe('admin');
    const mineOnly = await api().get(`/api/projects?search=${p.name}`).set(admin.auth);
    expect(mineOnly.body.data.total).toBe(0);
    const refused = await api().get('/api/projects?scope=all').set(owner.auth);
    expect(refused.status).toBe(403);
  });

  it('answers 400 for bad query values', async () => {
    const owner = await createUser();
    expect((await api().get('/api/projects?sort=owner').set(owner.auth)).status).toBe(400);
    expect((await api().get('/api/projects?per_page=500').set(owner.auth)).status).toBe(400);
    expect((await api().get('/api/projects?starred=maybe').set(owner.auth)).body.message).toBe('starred must be true or false.');
    expect((await api().get('/api/projects?evil=1').set(owner.auth)).status).toBe(400);
    expect((await api().get('/api/projects?evil=1').set(owner.auth)).body.message).toBe('Unknown query parameter: evil.');
    const nul = await api().get('/api/projects?search=%00').set(owner.auth);
    expect(nul.status).toBe(400);
    expect(nul.body.message).toMatch(/^The query parameter "search" contains a character that cannot be stored/);
    expect((await api().get('/api/projects?search=a%00b&page=1').set(owner.auth)).status).toBe(400);
  });

  it('marks answers with private data as not to be stored by browsers or proxies', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    for (const path of ['/api/projects', `/api/projects/${p.id}`, '/api/projects/recent', '/api/notifications', `/api/users/${owner.user.id}/profile`]) {
      const res = await api().get(path).set(owner.auth);
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control'], path).toBe('no-store');
    }
    // Refusals too (they may name what exists), and writes.
    expect((await api().get('/api/projects/999999999').set(owner.auth)).headers['cache-control']).toBe('no-store');
    expect((await api().post('/api/projects/star').set(owner.auth).send({ id_project: p.id, starred: true })).headers['cache-control']).toBe('no-store');
    // What anyone may read keeps its own rule.
    expect((await api().get('/api/settings')).headers['cache-control']).toBe('no-cache');
  });
});

describe('GET /api/projects/recent', () => {
  it("lists the user's most recently changed projects first, limited", async () => {
    const owner = await createUser();
    const first = await newProject(owner, { name: 'First' });
    await newProject(owner, { name: 'Second' });
    await newProject(owner, { name: 'Third' });
    await api().put(`/api/projects/${first.id}`).set(owner.auth).send({ description: 'touched' });
    const res = await api().get('/api/projects/recent?limit=2').set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual(['First', 'Third']);
    expect((await api().get('/api/projects/recent?limit=50').set(owner.auth)).status).toBe(400);
    expect((await api().get('/api/projects/recent')).status).toBe(401);
  });
});

describe('POST /api/projects/star', () => {
  it('stars and unstars for this user only, idempotently', async () => {
    const owner = await createUser();
    const member = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, member);
    for (let i = 0; i < 2; i++) {
      const res = await api().post('/api/projects/star').set(owner.auth).send({ id_project: p.id, starred: true });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id_project: p.id, starred: true });
    }
    expect((await api().get(`/api/projects/${p.id}`).set(owner.auth)).body.data.starred).toBe(true);
    expect((await api().get(`/api/projects/${p.id}`).set(member.auth)).body.data.starred).toBe(false);
    await api().post('/api/projects/star').set(owner.auth).send({ id_project: p.id, starred: false });
    expect((await api().get(`/api/projects/${p.id}`).set(owner.auth)).body.data.starred).toBe(false);
    expect((await api().post('/api/projects/star').set(owner.auth).send({ id_project: p.id })).status).toBe(400);
  });
});

describe('approvals: activate, deactivate, validate, invalidate', () => {
  it('lets super admins change the flags and refuses everybody else with 403', async () => {
    const owner = await createUser();
    const admin = await createUser({ super_admin: true });
    const p = await newProject(owner);
    for (const action of ['activate', 'deactivate', 'validate', 'invalidate']) {
      const res = await api().post(`/api/projects/${action}/${p.id}`).set(owner.auth);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Only administrators can do this.');
    }
    const validated = await api().post(`/api/projects/validate/${p.id}`).set(admin.auth);
    expect(validated.status).toBe(200);
    expect(validated.body.data).toMatchObject({ validated: true, active: true });
    expect(validated.body.data.validated_at).toEqual(expect.any(String));
    expect((await api().post(`/api/projects/deactivate/${p.id}`).set(admin.auth)).body.data.active).toBe(false);
    expect((await api().post(`/api/projects/activate/${p.id}`).set(admin.auth)).body.data.active).toBe(true);
    const invalidated = await api().post(`/api/projects/invalidate/${p.id}`).set(admin.auth);
    expect(invalidated.body.data).toMatchObject({ validated: false, validated_at: null });
    expect((await api().post('/api/projects/validate/999999').set(admin.auth)).status).toBe(404);
    expect((await api().post(`/api/projects/validate/${p.id}`)).status).toBe(401);
  });

  it('creates projects of super admins already validated', async () => {
    const admin = await createUser({ super_admin: true });
    expect((await newProject(admin)).validated).toBe(true);
  });
});

describe('DELETE /api/projects/{id}', () => {
  it('deletes the project with its sheets, and refuses viewers with 403', async () => {
    const owner = await createUser();
    const viewer = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, viewer);
    await api().post('/api/maps').set(owner.auth).send({ id_project: p.id, name: 'Ground floor' });
    expect((await api().delete(`/api/projects/${p.id}`).set(viewer.auth)).status).toBe(403);
    const bad = await api().delete(`/api/projects/${p.id}`).set(owner.auth).send({ id_user: 'me' });
    expect(bad.status).toBe(400);
    const res = await api().delete(`/api/projects/${p.id}`).set(owner.auth).send({ id_user: owner.user.id });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Project deleted successfully!');
    expect((await api().get(`/api/projects/${p.id}`).set(owner.auth)).status).toBe(404);
    expect(await db()('maps').where({ id_project: p.id }).first()).toBeUndefined();
  });
});
