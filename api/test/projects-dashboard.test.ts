import { describe, expect, it } from 'vitest';
import { api, createUser } from './helpers.js';
import { addMember, newProject } from './project-helpers.js';

describe('what the dashboard shows of projects', () => {
  it('counts the projects the user owns or belongs to and their sheets, lists recent and starred ones', async () => {
    const me = await createUser();
    const other = await createUser();
    const a = await newProject(me, { name: 'Alpha' });
    const b = await newProject(me, { name: 'Bravo' });
    const joined = await newProject(other, { name: 'Joined' });
    await newProject(other, { name: 'Not mine' });
    await addMember(joined.id, me);
    for (const [id, name] of [[a.id, 'A1'], [a.id, 'A2'], [b.id, 'B1']] as const) {
      await api().post('/api/maps').set(me.auth).send({ id_project: id, name }).expect(201);
    }
    await api().post('/api/maps').set(other.auth).send({ id_project: joined.id, name: 'J1' }).expect(201);
    await api().post('/api/projects/star').set(me.auth).send({ id_project: joined.id, starred: true }).expect(200);

    const profile = await api().get(`/api/users/${me.user.id}/profile`).set(me.auth);
    expect(profile.status).toBe(200);
    expect(profile.body.data.user_stats).toMatchObject({ projects: 3, sheets: 4 });

    const recent = await api().get('/api/projects/recent').set(me.auth);
    expect(recent.body.data.map((p: { name: string }) => p.name)).toEqual(['Joined', 'Bravo', 'Alpha']);
    expect(recent.body.data[0]).toMatchObject({ sheets_count: 1, starred: true, role: 'viewer' });

    const starred = await api().get('/api/projects?starred=true&per_page=5').set(me.auth);
    expect(starred.body.data.items.map((p: { name: string }) => p.name)).toEqual(['Joined']);
    expect((await api().get('/api/projects').set(me.auth)).body.data.total).toBe(3);
  });
});
