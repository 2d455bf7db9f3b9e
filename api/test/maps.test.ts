import { describe, expect, it } from 'vitest';
import { Room, Sheet, Visit, db } from '@sitewalk/core/db';
import { putBuffer } from '@sitewalk/core/storage';
import { isStored } from '../../test/support/stored.js';
import { api, createUser } from './helpers.js';
import { addMember, newProject } from './project-helpers.js';

/** A sheet as the PDF worker leaves it: ready, sized, with a thumbnail and a tile on disk. */
async function readySheet(projectId: number, name = 'Level 2') {
  const map = await Sheet.query().insertAndFetch({ id_project: projectId, name, status: 'ready', width: 2000, height: 1000, dpi: 200, tile_size: 256, max_zoom: 3 });
  const folder = `projects/${projectId}/maps/${map.id}`;
  await putBuffer(`${folder}/thumbnail.jpg`, Buffer.from('thumb'));
  await putBuffer(`${folder}/tiles/0/0/0.jpg`, Buffer.from('tile'));
  return Sheet.query().patchAndFetchById(map.id, { folder, thumbnail: `${folder}/thumbnail.jpg` });
}

/** A visit of the project, as the visits feature makes them. */
const newVisit = (projectId: number, name = 'Walk') =>
  Visit.query().insertAndFetch({ id_project: projectId, name, date: '2026-03-01', code: `c${Math.random().toString(36).slice(2, 14)}` });

describe('POST /api/maps and GET/PUT /api/maps/{id}', () => {
  it('creates an empty sheet in the project, reads it and renames it', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const created = await api().post('/api/maps').set(owner.auth).send({ id_project: p.id, name: ' Basement ' });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Sheet created successfully!');
    expect(created.body.data).toMatchObject({
      id_project: p.id,
      name: 'Basement',
      page_label: '',
      page: null,
      status: 'empty',
      width: null,
      thumbnail_url: null,
      tile_url_template: null,
      max_zoom: null,
      min_zoom: 0,
      id_upload: null,
    });
    const id = created.body.data.id;
    expect((await api().get(`/api/maps/${id}`).set(owner.auth)).body.data.name).toBe('Basement');
    const renamed = await api().put(`/api/maps/${id}`).set(owner.auth).send({ name: 'Basement B1', page_label: 'S-001' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.message).toBe('Sheet updated successfully!');
    expect(renamed.body.data).toMatchObject({ name: 'Basement B1', page_label: 'S-001' });
    expect((await api().get(`/api/projects/${p.id}`).set(owner.auth)).body.data.maps.map((m: { name: string }) => m.name)).toEqual(['Basement B1']);
  });

  it('gives a ready sheet its signed tile URL template, sizes and zoom levels', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const map = await readySheet(p.id);
    const res = await api().get(`/api/maps/${map.id}`).set(owner.auth);
    expect(res.body.data).toMatchObject({ status: 'ready', width: 2000, height: 1000, dpi: 200, tile_size: 256, min_zoom: 0, max_zoom: 3 });
    const template: string = res.body.data.tile_url_template;
    expect(template).toContain(`/api/files/projects/${p.id}/maps/${map.id}/tiles/{z}/{y}/{x}.jpg?`);
    const tile = await api().get(template.replace('{z}', '0').replace('{y}', '0').replace('{x}', '0'));
    expect(tile.status).toBe(200);
    expect(tile.body.toString()).toBe('tile');
    expect((await api().get(res.body.data.thumbnail_url)).status).toBe(200);
  });

  it('answers 400 for a blank name or a missing project, 404 for a project or sheet the user cannot see, 403 for viewers, 401 without a token', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const viewer = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, viewer);
    const map = (await api().post('/api/maps').set(owner.auth).send({ id_project: p.id, name: 'L1' })).body.data;

    const blank = await api().post('/api/maps').set(owner.auth).send({ id_project: p.id, name: '' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Sheet name is required');
    expect((await api().post('/api/maps').set(owner.auth).send({ name: 'L2' })).body.message).toBe('id_project is required.');
    expect((await api().put(`/api/maps/${map.id}`).set(owner.auth).send({})).body.message).toBe('Nothing to update.');

    expect((await api().post('/api/maps').set(stranger.auth).send({ id_project: p.id, name: 'Mine' })).status).toBe(404);
    const hidden = await api().get(`/api/maps/${map.id}`).set(stranger.auth);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe('Sheet not found.');
    expect((await api().get('/api/maps/999999').set(stranger.auth)).body).toEqual(hidden.body);
    expect((await api().put(`/api/maps/${map.id}`).set(stranger.auth).send({ name: 'x' })).status).toBe(404);
    expect((await api().delete(`/api/maps/${map.id}`).set(stranger.auth)).status).toBe(404);

    expect((await api().get(`/api/maps/${map.id}`).set(viewer.auth)).status).toBe(200);
    expect((await api().put(`/api/maps/${map.id}`).set(viewer.auth).send({ name: 'x' })).status).toBe(403);
    expect((await api().delete(`/api/maps/${map.id}`).set(viewer.auth)).status).toBe(403);
    expect((await api().get(`/api/maps/${map.id}`)).status).toBe(401);
    expect((await api().post('/api/maps').send({ id_project: p.id, name: 'x' })).status).toBe(401);
  });
});

describe('DELETE /api/maps/{id}', () => {
  it('deletes the sheet and its files, and frees its rooms from it', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const map = await readySheet(p.id);
    const room = await Room.query().insertAndFetch({ id_map: map.id, name: 'Lobby', x: 10, y: 20 });
    expect(await isStored(map.folder!)).toBe(true);
    const res = await api().delete(`/api/maps/${map.id}`).set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Sheet deleted successfully!');
    expect(res.body.data).toEqual({ id: map.id, id_project: p.id });
    expect(await isStored(map.folder!)).toBe(false);
    expect((await api().get(`/api/maps/${map.id}`).set(owner.auth)).status).toBe(404);
    expect(await Room.query().findById(room.id)).toMatchObject({ id_map: null });
  });
});

describe('rooms on a sheet', () => {
  it('lists the rooms of a sheet, filtered by visit and cluster', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const map = await readySheet(p.id);
    const other = await readySheet(p.id, 'Other');
    const [v1, v2] = [await newVisit(p.id), await newVisit(p.id)];
    const a = await Room.query().insertAndFetch({ id_map: map.id, id_visit: v1.id, name: 'Lobby', x: 1, y: 2, osfm_cluster: 0 });
    const b = await Room.query().insertAndFetch({ id_map: map.id, id_visit: v2.id, name: 'Hall', osfm_cluster: 1, heading: 1.5 });
    await Room.query().insert({ id_map: other.id, name: 'Elsewhere' });

    const all = await api().get(`/api/maps/${map.id}/rooms`).set(owner.auth);
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      { id: a.id, id_map: map.id, id_visit: v1.id, name: 'Lobby', x: 1, y: 2, heading: null, status: 'queued', thumbnail_url: null, osfm_cluster: 0 },
      { id: b.id, id_map: map.id, id_visit: v2.id, name: 'Hall', x: null, y: null, heading: 1.5, status: 'queued', thumbnail_url: null, osfm_cluster: 1 },
    ]);
    const names = async (qs: string) => (await api().get(`/api/maps/${map.id}/rooms?${qs}`).set(owner.auth)).body.data.map((r: { name: string }) => r.name);
    expect(await names(`id_visit=${v2.id}`)).toEqual(['Hall']);
    expect(await names(`id_map=${map.id}&osfm_cluster=0`)).toEqual(['Lobby']);
    expect((await api().get(`/api/maps/${map.id}/rooms?id_map=${other.id}`).set(owner.auth)).status).toBe(400);
    expect((await api().get(`/api/maps/${map.id}/rooms?osfm_cluster=x`).set(owner.auth)).status).toBe(400);
  });

  it('stores room positions all at once, only for rooms of the sheet\'s project and inside it', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const viewer = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, viewer);
    const map = await readySheet(p.id);
    const a = await Room.query().insertAndFetch({ id_map: map.id, name: 'A' });
    const b = await Room.query().insertAndFetch({ id_map: map.id, name: 'B' });
    const elsewhere = await Room.query().insertAndFetch({ name: 'Unplaced' });
    const otherProject = await newProject(owner);
    const foreignRoom = await Room.query().insertAndFetch({ id_visit: (await newVisit(otherProject.id)).id, name: 'Other project' });
    const visitRoom = await Room.query().insertAndFetch({ id_visit: (await newVisit(p.id)).id, name: 'Not placed yet' });

    const res = await api().put(`/api/maps/${map.id}/room-positions`).set(owner.auth).send({ rooms: [{ id: a.id, x: 100.5, y: 50 }, { id: b.id, x: 2000, y: 1000 }] });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Room positions saved.');
    expect(res.body.data.map((r: { id: number; x: number; y: number }) => [r.id, r.x, r.y])).toEqual([
      [a.id, 100.5, 50],
      [b.id, 2000, 1000],
    ]);

    const foreign = await api().put(`/api/maps/${map.id}/room-positions`).set(owner.auth).send({ rooms: [{ id: a.id, x: 1, y: 1 }, { id: elsewhere.id, x: 1, y: 1 }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe(`Room ${elsewhere.id} is not in this sheet's project.`);
    const otherProjects = await api().put(`/api/maps/${map.id}/room-positions`).set(owner.auth).send({ rooms: [{ id: foreignRoom.id, x: 1, y: 1 }] });
    expect(otherProjects.body.message).toBe(`Room ${foreignRoom.id} is not in this sheet's project.`);
    // A room of a visit of the project is placed on the sheet, with the direction it faces.
    const placed = await api().put(`/api/maps/${map.id}/room-positions`).set(owner.auth).send({ rooms: [{ id: visitRoom.id, x: 30, y: 40, heading: -Math.PI / 2 }] });
    expect(placed.status).toBe(200);
    expect(placed.body.data[0]).toMatchObject({ id: visitRoom.id, id_map: map.id, x: 30, y: 40 });
    expect(placed.body.data[0].heading).toBeCloseTo((3 * Math.PI) / 2);
    const outside = await api().put(`/api/maps/${map.id}/room-positions`).set(owner.auth).send({ rooms: [{ id: a.id, x: 5, y: 5 }, { id: b.id, x: 2001, y: 5 }] });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe(`Room ${b.id} is outside the sheet: positions go from 0,0 to 2000,1000.`);
    // Nothing of a refused request is stored.
    expect(await Room.query().findById(a.id)).toMatchObject({ x: 100.5, y: 50 });

    expect((await api().put(`/api/maps/${map.id}/room-positions`).set(owner.auth).send({ rooms: [] })).body.message).toBe('Give at least one room.');
    expect((await api().put(`/api/maps/${map.id}/room-positions`).set(owner.auth).send({ rooms: [{ id: a.id, x: 'left', y: 1 }] })).status).toBe(400);
    expect((await api().put(`/api/maps/${map.id}/room-positions`).set(owner.auth).send({ rooms: [{ id: a.id, x: 1, y: 1 }, { id: a.id, x: 2, y: 2 }] })).body.message).toBe('Each room may appear only once.');
    expect((await api().put(`/api/maps/${map.id}/room-positions`).set(viewer.auth).send({ rooms: [{ id: a.id, x: 1, y: 1 }] })).status).toBe(403);
    expect((await api().put(`/api/maps/${map.id}/room-positions`).set(stranger.auth).send({ rooms: [{ id: a.id, x: 1, y: 1 }] })).status).toBe(404);
    expect((await api().get(`/api/maps/${map.id}/rooms`).set(stranger.auth)).status).toBe(404);
    expect((await api().put(`/api/maps/${map.id}/room-positions`).send({ rooms: [{ id: a.id, x: 1, y: 1 }] })).status).toBe(401);
    expect(await db()('rooms').where({ id: a.id }).first('x')).toEqual({ x: 100.5 });
  });
});
