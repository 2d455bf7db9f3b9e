import { describe, expect, it } from 'vitest';
import { api, createUser, uniqueName } from './helpers.js';
import { addMember, newProject } from './project-helpers.js';

describe('categories', () => {
  it('creates, lists (by name, with project counts), renames and deletes the user\'s own categories', async () => {
    const me = await createUser();
    const other = await createUser();
    const created = await api().post('/api/categories').set(me.auth).send({ name: '  Residential ' });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Category created successfully!');
    expect(created.body.data).toMatchObject({ name: 'Residential', projects_count: 0 });
    const b = (await api().post('/api/categories').set(me.auth).send({ name: 'commercial' })).body.data;
    await api().post('/api/categories').set(other.auth).send({ name: 'Theirs' });
    await newProject(me, { categories: [b.id] });

    const list = await api().get('/api/categories').set(me.auth);
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { name: string; projects_count: number }) => [c.name, c.projects_count])).toEqual([
      ['commercial', 1],
      ['Residential', 0],
    ]);

    const renamed = await api().put(`/api/categories/${created.body.data.id}`).set(me.auth).send({ name: 'Housing' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('Housing');

    const deleted = await api().delete(`/api/categories/${b.id}`).set(me.auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: b.id });
    expect((await api().get('/api/categories').set(me.auth)).body.data.map((c: { name: string }) => c.name)).toEqual(['Housing']);
  });

  it('answers 409 for a name the user already has, whatever its case, but lets another user use it', async () => {
    const me = await createUser();
    const other = await createUser();
    const first = (await api().post('/api/categories').set(me.auth).send({ name: 'Towers' })).body.data;
    const dup = await api().post('/api/categories').set(me.auth).send({ name: 'TOWERS' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('You already have a category named "TOWERS".');
    expect((await api().post('/api/categories').set(other.auth).send({ name: 'Towers' })).status).toBe(201);
    const second = (await api().post('/api/categories').set(me.auth).send({ name: 'Bridges' })).body.data;
    const renameDup = await api().put(`/api/categories/${second.id}`).set(me.auth).send({ name: 'towers' });
    expect(renameDup.status).toBe(409);
    expect((await api().put(`/api/categories/${first.id}`).set(me.auth).send({ name: 'towers' })).status).toBe(200);
  });

  it("answers 404 for another user's category, 400 for a blank name, 401 without a token", async () => {
    const me = await createUser();
    const other = await createUser();
    const theirs = (await api().post('/api/categories').set(other.auth).send({ name: 'Private' })).body.data;
    expect((await api().put(`/api/categories/${theirs.id}`).set(me.auth).send({ name: 'Mine' })).status).toBe(404);
    expect((await api().delete(`/api/categories/${theirs.id}`).set(me.auth)).status).toBe(404);
    const blank = await api().post('/api/categories').set(me.auth).send({ name: ' ' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Category name is required');
    expect((await api().post('/api/categories').set(me.auth).send({ name: 'x'.repeat(101) })).status).toBe(400);
    expect((await api().get('/api/categories')).status).toBe(401);
    expect((await api().post('/api/categories').send({ name: 'A' })).status).toBe(401);
  });

  it('assigns and removes a category on a project, idempotently, and lists a project\'s categories', async () => {
    const owner = await createUser();
    const viewer = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, viewer);
    const cat = (await api().post('/api/categories').set(owner.auth).send({ name: 'Phase 1' })).body.data;

    for (let i = 0; i < 2; i++) {
      const res = await api().post('/api/categories/assign').set(owner.auth).send({ id_category: cat.id, id_project: p.id });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([{ id: cat.id, name: 'Phase 1' }]);
    }
    // A team member sees the project's categories, though they are the owner's.
    const ofProject = await api().get(`/api/categories?id_project=${p.id}`).set(viewer.auth);
    expect(ofProject.body.data.map((c: { id: number }) => c.id)).toEqual([cat.id]);
    expect((await api().get('/api/categories').set(viewer.auth)).body.data).toEqual([]);

    const removed = await api().post('/api/categories/remove').set(owner.auth).send({ id_category: cat.id, id_project: p.id });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual([]);
    expect((await api().get(`/api/projects/${p.id}`).set(owner.auth)).body.data.categories).toEqual([]);
  });

  it('refuses assignments across owners and by those who may not change the project', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const viewer = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, viewer);
    const mine = (await api().post('/api/categories').set(owner.auth).send({ name: 'Mine' })).body.data;
    const theirs = (await api().post('/api/categories').set(stranger.auth).send({ name: 'Theirs' })).body.data;
    const strangersProject = await newProject(stranger);

    // A stranger cannot see the project: 404, as if it did not exist.
    expect((await api().post('/api/categories/assign').set(stranger.auth).send({ id_category: theirs.id, id_project: p.id })).status).toBe(404);
    expect((await api().get(`/api/categories?id_project=${p.id}`).set(stranger.auth)).status).toBe(404);
    // The owner cannot put a stranger's category on their project, nor theirs on the stranger's.
    expect((await api().post('/api/categories/assign').set(owner.auth).send({ id_category: theirs.id, id_project: p.id })).status).toBe(404);
    expect((await api().post('/api/categories/assign').set(owner.auth).send({ id_category: mine.id, id_project: strangersProject.id })).status).toBe(404);
    // A read-only member may look but not label.
    expect((await api().post('/api/categories/assign').set(viewer.auth).send({ id_category: mine.id, id_project: p.id })).status).toBe(403);
    expect((await api().post('/api/categories/assign').set(owner.auth).send({ id_category: mine.id })).status).toBe(400);
    expect((await api().post('/api/categories/assign').send({ id_category: mine.id, id_project: p.id })).status).toBe(401);
  });
});

describe('project types', () => {
  it('are listed to every signed-in user and managed by super admins only', async () => {
    const admin = await createUser({ super_admin: true });
    const user = await createUser();
    const name = uniqueName('Bridge');
    const created = await api().post('/api/project-types').set(admin.auth).send({ name });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Project type created successfully!');
    const type = created.body.data;
    expect(type).toMatchObject({ name, projects_count: 0 });
    await newProject(user, { id_project_type: type.id });

    const list = await api().get('/api/project-types').set(user.auth);
    expect(list.status).toBe(200);
    expect(list.body.data.find((t: { id: number }) => t.id === type.id)).toMatchObject({ name, projects_count: 1 });

    expect((await api().post('/api/project-types').set(user.auth).send({ name: 'Mine' })).status).toBe(403);
    expect((await api().put(`/api/project-types/${type.id}`).set(user.auth).send({ name: 'Mine' })).status).toBe(403);
    expect((await api().delete(`/api/project-types/${type.id}`).set(user.auth)).status).toBe(403);
    expect((await api().get('/api/project-types')).status).toBe(401);

    const renamed = await api().put(`/api/project-types/${type.id}`).set(admin.auth).send({ name: `${name} (road)` });
    expect(renamed.body.data.name).toBe(`${name} (road)`);
    expect((await api().put('/api/project-types/999999').set(admin.auth).send({ name: 'Nothing' })).status).toBe(404);
  });

  it('answers 409 for a duplicate name and 400 for a blank one; deleting a type leaves its projects without type', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const name = uniqueName('Stadium');
    const type = (await api().post('/api/project-types').set(admin.auth).send({ name })).body.data;
    const dup = await api().post('/api/project-types').set(admin.auth).send({ name: name.toUpperCase() });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(`A project type named "${name.toUpperCase()}" already exists.`);
    expect((await api().post('/api/project-types').set(admin.auth).send({ name: '' })).body.message).toBe('Project type name is required');
    const p = await newProject(owner, { id_project_type: type.id });
    expect((await api().delete(`/api/project-types/${type.id}`).set(admin.auth)).status).toBe(200);
    expect((await api().get(`/api/projects/${p.id}`).set(owner.auth)).body.data).toMatchObject({ id_project_type: null, project_type: null });
    expect((await api().delete(`/api/project-types/${type.id}`).set(admin.auth)).status).toBe(404);
  });
});
