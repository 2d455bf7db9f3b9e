import fs from 'node:fs';
import { withoutIsolates } from '@sitewalk/proto';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Room as RoomDto, VisitDetail } from '@sitewalk/proto';
import { Room, Sheet, db } from '@sitewalk/core/db';
import { closeQueues, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { putBuffer } from '@sitewalk/core/storage';
import { isStored, storedNames } from '../../test/support/stored.js';
import { uploadTempRoot } from '../src/http/upload.js';
import { viewerPage } from '../src/http/viewer-page.js';
import { planPdf, PAPER } from '../../workers/test/pdf-fixtures.js';
import { api, createUser, type TestUser } from './helpers.js';
import { addMember, newProject } from './project-helpers.js';
import { lockSettings } from './settings-lock.js';

afterAll(async () => {
  await closeQueues();
  await closeEmitter();
});

/** A small equirectangular photo (sky over ground). */
const pano = (width = 2048, height = width / 2) =>
  sharp({ create: { width, height, channels: 3, background: { r: 120, g: 170, b: 220 } } })
    .jpeg({ quality: 70 })
    .toBuffer();

/** A JPEG whose header claims another size (the API reads only the header before it refuses). */
async function jpegClaiming(width: number, height: number): Promise<Buffer> {
  const buf = Buffer.from(await pano(1024, 512));
  for (let i = 0; i < buf.length - 9; i++) {
    if (buf[i] === 0xff && buf[i + 1] >= 0xc0 && buf[i + 1] <= 0xc2) {
      buf.writeUInt16BE(height, i + 5);
      buf.writeUInt16BE(width, i + 7);
      return buf;
    }
  }
  throw new Error('no SOF marker');
}

const keyOf = (url: string) => decodeURIComponent(new URL(url, 'http://x').pathname.replace(/^\/api\/files\//, ''));
const leftUploadFiles = () => (fs.existsSync(uploadTempRoot()) ? fs.readdirSync(uploadTempRoot(), { recursive: true }) : []);

async function newVisit(owner: TestUser, projectId: number, fields: Record<string, unknown> = {}): Promise<VisitDetail> {
  const res = await api().post('/api/visits').set(owner.auth).send({ id_project: projectId, name: 'Walk', date: '2026-03-02', ...fields });
  if (res.status !== 201) throw new Error(`visit not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function upload(user: TestUser, visitId: number, name = 'Lobby.jpg', file?: Buffer): Promise<RoomDto> {
  const res = await api().post('/api/rooms').set(user.auth).field('id_visit', String(visitId)).attach('file', file ?? (await pano()), name);
  if (res.status !== 202) throw new Error(`room not uploaded: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Makes a room look as the room.tiles worker leaves it: ready, with a base image, thumbnail and one tile. */
async function markReady(roomId: number) {
  const room = (await Room.query().findById(roomId))!;
  const folder = `${keyOf('/api/files/' + (room.file_key ?? '')).replace(/\/originals\/.*$/, '')}/rooms/${room.id}/t1`;
  await putBuffer(`${folder}/base.jpg`, Buffer.from('base'));
  await putBuffer(`${folder}/thumb.jpg`, Buffer.from('thumb'));
  await putBuffer(`${folder}/tiles/0/1_0.jpeg`, Buffer.from('tile'));
  await Room.query()
    .patch({ status: 'ready', folder, tile_size: 512, pano_width: 2048, levels: [{ width: 2048, cols: 4, rows: 2, zoomRange: [0, 100] }] })
    .where({ id: roomId });
}

async function readySheet(projectId: number, name = 'Level 1') {
  const map = await Sheet.query().insertAndFetch({ id_project: projectId, name, status: 'ready', width: 2000, height: 1000, dpi: 200, tile_size: 256, max_zoom: 3 });
  const folder = `projects/${projectId}/maps/${map.id}`;
  await putBuffer(`${folder}/thumbnail.jpg`, Buffer.from('thumb'));
  await putBuffer(`${folder}/tiles/0/0/0.jpg`, Buffer.from('tile'));
  return Sheet.query().patchAndFetchById(map.id, { folder, thumbnail: `${folder}/thumbnail.jpg` });
}

describe('visits', () => {
  it('creates a visit from JSON or a form, with an unguessable code, reads, lists with room counts, updates, stars and deletes it', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const map = await readySheet(p.id);
    const created = await api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: ' Week 12 ', date: '2026-03-20', id_map: map.id, description: 'Slab pour' });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Visit created successfully!');
    const v: VisitDetail = created.body.data;
    expect(v).toMatchObject({ id_project: p.id, project_name: p.name, id_map: map.id, map_name: 'Level 1', name: 'Week 12', date: '2026-03-20', description: 'Slab pour', starred: false, rooms_count: 0, rooms_ready: 0, can_edit: true, rooms: [] });
    expect(v.code).toMatch(/^[a-z0-9]{12}$/);
    expect(v.maps.map((m) => [m.id, m.tile_url_template !== null])).toEqual([[map.id, true]]);

    // A form (as SPEC's multipart call sends it); without a date it is today's visit.
    const form = await api().post('/api/visits').set(owner.auth).field('id_project', String(p.id)).field('name', 'Week 13').field('id_map', '');
    expect(form.status).toBe(201);
    expect(form.body.data).toMatchObject({ name: 'Week 13', id_map: null });
    expect(form.body.data.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(form.body.data.code).not.toBe(v.code);
    const withFile = await api().post('/api/visits').set(owner.auth).field('id_project', String(p.id)).field('name', 'x').attach('file', await pano(), 'a.jpg');
    expect(withFile.status).toBe(400);
    expect(withFile.body.message).toBe('A visit is created without files: add its 360 photos with POST /rooms.');

    await upload(owner, v.id);
    const room = await upload(owner, v.id, 'Kitchen.jpg');
    await markReady(room.id);
    const list = await api().get(`/api/visits?id_project=${p.id}`).set(owner.auth);
    expect(list.status).toBe(200);
    expect(list.body.data).toMatchObject({ total: 2, page: 1, per_page: 20 });
    const listed = list.body.data.items.find((x: { id: number }) => x.id === v.id);
    expect(listed).toMatchObject({ rooms_count: 2, rooms_ready: 1 });
    expect(listed.thumbnail_url).toContain(`/rooms/${room.id}/t1/thumb.jpg`);
    expect((await api().get(`/api/visits?id_map=${map.id}`).set(owner.auth)).body.data.items.map((x: { id: number }) => x.id)).toEqual([v.id]);
    expect((await api().get('/api/visits?sort=name&order=asc').set(owner.auth)).body.data.items.map((x: { name: string }) => x.name)).toEqual(['Week 12', 'Week 13']);

    const star = await api().post('/api/visits/star').set(owner.auth).send({ id_visit: v.id, starred: true });
    expect(star.body).toMatchObject({ status: 'success', data: { id_visit: v.id, starred: true } });
    expect((await api().get('/api/visits?starred=true').set(owner.auth)).body.data.items.map((x: { id: number }) => x.id)).toEqual([v.id]);
    expect((await api().get(`/api/visits/${v.id}`).set(owner.auth)).body.data.starred).toBe(true);

    const updated = await api().put(`/api/visits/${v.id}`).set(owner.auth).send({ name: 'Week 12 (final)', id_map: null });
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe('Visit updated successfully!');
    expect(updated.body.data).toMatchObject({ name: 'Week 12 (final)', id_map: null, date: '2026-03-20' });

    const files = `projects/${p.id}/visits/${v.id}`;
    expect(await isStored(files)).toBe(true);
    const del = await api().delete(`/api/visits/${v.id}`).set(owner.auth);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ message: 'Visit deleted successfully!', data: { id: v.id, id_project: p.id } });
    expect(await isStored(files)).toBe(false);
    expect(await Room.query().where({ id_visit: v.id })).toEqual([]);
    expect((await api().get(`/api/visits/${v.id}`).set(owner.auth)).status).toBe(404);
  });

  it('pages through more than a hundred visits: each once, newest first, with the total; a page larger than 100 is refused', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const n = 105;
    const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    for (let from = 0; from < n; from += 15) {
      const batch = Array.from({ length: Math.min(15, n - from) }, (_, j) => from + j);
      const answers = await Promise.all(batch.map((i) => api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: `Walk ${i + 1}`, date: day(i) })));
      expect(answers.map((a) => a.status)).toEqual(batch.map(() => 201));
    }
    const page = async (q: string) => (await api().get(`/api/visits?id_project=${p.id}&${q}`).set(owner.auth)).body.data as { items: { name: string; date: string }[]; total: number; page: number; per_page: number };
    const first = await page('per_page=100');
    const second = await page('per_page=100&page=2');
    expect(first).toMatchObject({ total: n, page: 1, per_page: 100 });
    expect(second).toMatchObject({ total: n, page: 2, per_page: 100 });
    expect(first.items).toHaveLength(100);
    expect(second.items).toHaveLength(5);
    const names = [...first.items, ...second.items].map((v) => v.name);
    expect(new Set(names).size).toBe(n);
    // Newest first across the page boundary: Walk 105 … Walk 1.
    expect(names).toEqual(Array.from({ length: n }, (_, i) => `Walk ${n - i}`));
    // The screen's pages of 20: the sixth holds the last five.
    expect((await page('per_page=20&page=6')).items.map((v) => v.name)).toEqual(['Walk 5', 'Walk 4', 'Walk 3', 'Walk 2', 'Walk 1']);
    expect((await page('per_page=20&page=7')).items).toEqual([]);
    for (const q of ['per_page=101', 'page=0', 'per_page=abc']) {
      const bad = await api().get(`/api/visits?id_project=${p.id}&${q}`).set(owner.auth);
      expect(bad.status, q).toBe(400);
      expect(bad.body.message, q).toMatch(/page/);
    }
  });

  it('answers 400 for bad bodies, 401 without a token, 404 for a visit of a project the user cannot see, 403 for read-only members', async () => {
    const owner = await createUser();
    const viewer = await createUser();
    const editor = await createUser();
    const stranger = await createUser();
    const p = await newProject(owner);
    const other = await newProject(owner);
    const otherMap = await readySheet(other.id);
    await addMember(p.id, viewer);
    await addMember(p.id, editor, 'editor');
    const v = await newVisit(owner, p.id);

    const bad = async (body: object, message: string) => {
      const res = await api().post('/api/visits').set(owner.auth).send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(message);
    };
    await bad({ id_project: p.id, name: '  ' }, 'Visit name is required');
    await bad({ name: 'x' }, 'id_project is required.');
    await bad({ id_project: p.id, name: 'x', date: '20/03/2026' }, 'Use a date like 2026-03-31.');
    await bad({ id_project: p.id, name: 'x', id_map: otherMap.id }, "This sheet is not in the visit's project.");
    await bad({ id_project: p.id, name: 'x', colour: 'red' }, 'Unknown field: colour.');
    expect((await api().put(`/api/visits/${v.id}`).set(owner.auth).send({})).body.message).toBe('Nothing to update.');
    expect((await api().get('/api/visits?sort=colour').set(owner.auth)).status).toBe(400);
    expect((await api().post('/api/visits/star').set(owner.auth).send({ id_visit: v.id, starred: 'yes' })).status).toBe(400);

    // Guessing ids of someone else's private project reveals nothing.
    const hidden = await api().get(`/api/visits/${v.id}`).set(stranger.auth);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe('Visit not found.');
    expect((await api().get('/api/visits/99999999').set(stranger.auth)).body).toEqual(hidden.body);
    expect((await api().put(`/api/visits/${v.id}`).set(stranger.auth).send({ name: 'x' })).status).toBe(404);
    expect((await api().delete(`/api/visits/${v.id}`).set(stranger.auth)).status).toBe(404);
    expect((await api().post('/api/visits/star').set(stranger.auth).send({ id_visit: v.id, starred: true })).status).toBe(404);
    expect((await api().post('/api/visits').set(stranger.auth).send({ id_project: p.id, name: 'Mine' })).status).toBe(404);
    expect((await api().get(`/api/visits?id_project=${p.id}`).set(stranger.auth)).status).toBe(404);
    expect((await api().get('/api/visits').set(stranger.auth)).body.data.total).toBe(0);

    expect((await api().get(`/api/visits/${v.id}`).set(viewer.auth)).body.data.can_edit).toBe(false);
    const ro = await api().put(`/api/visits/${v.id}`).set(viewer.auth).send({ name: 'x' });
    expect(ro.status).toBe(403);
    expect(ro.body.message).toBe('You can view this visit but not change it.');
    expect((await api().post('/api/visits').set(viewer.auth).send({ id_project: p.id, name: 'x' })).status).toBe(403);
    expect((await api().put(`/api/visits/${v.id}`).set(editor.auth).send({ name: 'By the editor' })).status).toBe(200);

    const admin = await createUser({ super_admin: true });
    expect((await api().get(`/api/visits/${v.id}`).set(admin.auth)).status).toBe(200);

    expect((await api().get('/api/visits')).status).toBe(401);
    expect((await api().get(`/api/visits/${v.id}`)).status).toBe(401);
    expect((await api().post('/api/visits').send({ id_project: p.id, name: 'x' })).status).toBe(401);
  });
});

describe('news of a new visit', () => {
  it('tells the project owner when a member adds a visit, and super admins when notify_vt_create is on', async () => {
    const owner = await createUser();
    const editor = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, editor, 'editor');
    const settings = await lockSettings();
    try {
      await settings.set({ notify_vt_create: true });
      const admin = await createUser({ super_admin: true });
      const v = await newVisit(editor, p.id, { name: 'Level 3 walk' });
      const job = await queue('notifications').getJob(`notify-visit-created-${v.id}-u${owner.user.id}`);
      expect(job?.data).toMatchObject({ user_id: owner.user.id, kind: 'visit_created', title: 'New visit', title_key: 'New visit', link: `/visits/${v.id}` });
      // The job carries the keys and values (each reader gets their language) and the English text.
      expect(job?.data.params).toMatchObject({ by: editor.user.username, visit: 'Level 3 walk', date: { day: '2026-03-02' }, project: p.name });
      expect(withoutIsolates(job?.data.message)).toBe(`${editor.user.username} added the visit "Level 3 walk" (Mar 2, 2026) to "${p.name}".`);
      expect(await queue('notifications').getJob(`notify-visit-created-${v.id}-u${editor.user.id}`)).toBeUndefined();
      expect(await queue('notifications').getJob(`notify-visit-created-admin-${v.id}-u${admin.user.id}`)).toBeDefined();
    } finally {
      await settings.release();
    }
  });
});

describe('rooms', () => {
  it('stores an uploaded 360 photo under a server-chosen name, adds the room at the end of the visit and queues its tiling', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const v = await newVisit(owner, p.id);
    const first = await upload(owner, v.id, '../../Lobby 01.jpg');
    expect(first).toMatchObject({ id_visit: v.id, name: 'Lobby 01', original_name: 'Lobby 01.jpg', status: 'queued', position: 0, width: 2048, height: 1024, panorama: null, thumbnail_url: null, hotspots: [], pois_count: 0 });
    const named = await api().post('/api/rooms').set(owner.auth).field('id_visit', String(v.id)).field('name', 'Stairs').attach('file', await pano(2000, 1000), 'IMG_2.jpg');
    expect(named.status).toBe(202);
    expect(named.body.message).toBe('The photo is uploaded. It is being prepared for the viewer.');
    expect(named.body.data).toMatchObject({ name: 'Stairs', position: 1 });
    const row = (await Room.query().findById(first.id))!;
    expect(row.file_key).toMatch(new RegExp(`^projects/${p.id}/visits/${v.id}/originals/[0-9a-f-]{36}\\.jpg$`));
    expect(await isStored(row.file_key!)).toBe(true);
    const job = await queue('rooms').getJob(`room-tiles-${first.id}`);
    expect(job?.name).toBe('room.tiles');
    expect(job?.data).toEqual({ id_room: first.id, id_user: owner.user.id });
    expect((await api().get(`/api/rooms/${first.id}`).set(owner.auth)).body.data.name).toBe('Lobby 01');
    expect(leftUploadFiles()).toEqual([]);
  });

  it('marks a room failed when its tiling job was lost, instead of showing progress for ever', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const v = await newVisit(owner, p.id);
    const lost = await upload(owner, v.id, 'Lost.jpg');
    const waiting = await upload(owner, v.id, 'Waiting.jpg');
    await (await queue('rooms').getJob(`room-tiles-${lost.id}`))!.remove();
    const longAgo = new Date(Date.now() - 5 * 60_000);
    await db()('rooms').update({ updated_at: longAgo }).whereIn('id', [lost.id, waiting.id]);
    const rooms = (await api().get(`/api/visits/${v.id}`).set(owner.auth)).body.data.rooms as RoomDto[];
    expect(rooms.map((r) => [r.name, r.status, r.error])).toEqual([
      ['Lost', 'failed', 'Preparing this photo stopped unexpectedly. Delete the room and upload the photo again.'],
      ['Waiting', 'queued', null],
    ]);
  });

  it('refuses what is not a 360 photo: 415 not an image, 422 not 2:1 or too small, 413 above 16384 × 8192, 400 damaged or missing; stores nothing', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const v = await newVisit(owner, p.id);
    const send = (file: Buffer, name = 'a.jpg') => api().post('/api/rooms').set(owner.auth).field('id_visit', String(v.id)).attach('file', file, name);

    const pdf = await send(await planPdf([{ size: PAPER.A6 }]), 'pano.jpg');
    expect(pdf.status).toBe(415);
    expect(pdf.body.message).toBe('This file is not a JPEG, PNG or WebP photo. Accepted: JPEG, PNG, WEBP.');
    expect((await send(Buffer.from('hello, not a picture'))).status).toBe(415);

    const flat = await send(await pano(1600, 1200));
    expect(flat.status).toBe(422);
    expect(flat.body.message).toBe(
      "This photo is 1600 × 1200 pixels, so it is not a 360 photo. A 360 photo (equirectangular) is exactly twice as wide as it is high; export it from the camera's app as an equirectangular JPEG.",
    );
    // Within 1 % of 2:1 is fine; 3 % off is not.
    expect((await send(await pano(2048, 1034))).status).toBe(202);
    expect((await send(await pano(2048, 1056))).status).toBe(422);
    const small = await send(await pano(800, 400));
    expect(small.status).toBe(422);
    expect(small.body.message).toBe('This 360 photo is only 800 × 400 pixels. Upload one at least 1024 × 512.');

    const huge = await send(await jpegClaiming(20000, 10000));
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe('The photo is too large: 20000 × 10000 pixels. The largest 360 photo accepted is 16384 × 8192 (134 megapixels); reduce it and upload it again.');
    expect((await send(await jpegClaiming(16400, 8200))).status).toBe(413);
    const declared = await api()
      .post('/api/rooms')
      .set(owner.auth)
      .set('Content-Type', 'multipart/form-data; boundary=x')
      .set('Content-Length', String(200 * 1024 * 1024))
      .send('--x--');
    expect([413, 400]).toContain(declared.status);

    const noFile = await api().post('/api/rooms').set(owner.auth).field('id_visit', String(v.id));
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe('Choose a file to upload (field "file").');
    expect((await api().post('/api/rooms').set(owner.auth).attach('file', await pano(), 'a.jpg')).body.message).toBe('id_visit is required.');
    expect((await api().post('/api/rooms').set(owner.auth).send({ id_visit: v.id })).status).toBe(400);

    expect((await Room.query().where({ id_visit: v.id })).length).toBe(1);
    expect((await storedNames(`projects/${p.id}/visits/${v.id}/originals`)).length).toBe(1);
    expect(leftUploadFiles()).toEqual([]);
  });

  it('renames, reorders, places on a sheet and deletes rooms; refuses others (404), read-only members (403) and anonymous callers (401)', async () => {
    const owner = await createUser();
    const viewer = await createUser();
    const stranger = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, viewer);
    const map = await readySheet(p.id);
    const otherMap = await readySheet((await newProject(owner)).id);
    const v = await newVisit(owner, p.id);
    const a = await upload(owner, v.id, 'A.jpg');
    const b = await upload(owner, v.id, 'B.jpg');
    const c = await upload(owner, v.id, 'C.jpg');

    const renamed = await api().put(`/api/rooms/${a.id}`).set(owner.auth).send({ name: ' Entrance ' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('Entrance');
    const placed = await api().put(`/api/rooms/${a.id}`).set(owner.auth).send({ id_map: map.id, x: 100, y: 200, heading: -Math.PI });
    expect(placed.body.data).toMatchObject({ id_map: map.id, x: 100, y: 200, heading: Math.PI });
    expect((await api().get(`/api/maps/${map.id}/rooms?id_visit=${v.id}`).set(owner.auth)).body.data.map((r: { id: number }) => r.id)).toEqual([a.id]);
    expect((await api().put(`/api/rooms/${a.id}`).set(owner.auth).send({ id_map: otherMap.id })).body.message).toBe("This sheet is not in the visit's project.");
    expect((await api().put(`/api/rooms/${a.id}`).set(owner.auth).send({ x: 5000, y: 1 })).body.message).toBe('The room is outside the sheet: positions go from 0,0 to 2000,1000.');
    expect((await api().put(`/api/rooms/${a.id}`).set(owner.auth).send({ x: 5 })).body.message).toBe('Give x and y together.');
    expect((await api().put(`/api/rooms/${b.id}`).set(owner.auth).send({ x: 5, y: 5 })).body.message).toBe('Choose the sheet (id_map) the room is placed on.');
    expect((await api().put(`/api/rooms/${a.id}`).set(owner.auth).send({ heading: 7 })).status).toBe(400);
    expect((await api().put(`/api/rooms/${a.id}`).set(owner.auth).send({ name: '' })).body.message).toBe('Room name is required');
    const off = await api().put(`/api/rooms/${a.id}`).set(owner.auth).send({ id_map: null });
    expect(off.body.data).toMatchObject({ id_map: null, x: null, y: null, heading: null });

    const order = await api().put(`/api/visits/${v.id}/room-order`).set(owner.auth).send({ ids: [c.id, a.id, b.id] });
    expect(order.status).toBe(200);
    expect(order.body.data.map((r: RoomDto) => [r.id, r.position])).toEqual([[c.id, 0], [a.id, 1], [b.id, 2]]);
    expect((await api().get(`/api/visits/${v.id}`).set(owner.auth)).body.data.rooms.map((r: RoomDto) => r.id)).toEqual([c.id, a.id, b.id]);
    expect((await api().put(`/api/visits/${v.id}/room-order`).set(owner.auth).send({ ids: [c.id, a.id] })).body.message).toBe('Give every room of the visit once: it has 3 rooms, the order names 2.');
    expect((await api().put(`/api/visits/${v.id}/room-order`).set(owner.auth).send({ ids: [c.id, a.id, a.id] })).body.message).toBe('Each room may appear only once.');
    expect((await api().put(`/api/visits/${v.id}/room-order`).set(owner.auth).send({ ids: [c.id, a.id, 99999999] })).body.message).toBe('Room 99999999 is not in this visit.');

    for (const [method, path] of [['get', `/api/rooms/${a.id}`], ['put', `/api/rooms/${a.id}`], ['delete', `/api/rooms/${a.id}`], ['get', `/api/rooms/${a.id}/pois`]] as const) {
      const res = await api()[method](path).set(stranger.auth).send(method === 'put' ? { name: 'x' } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.message).toBe('Room not found.');
    }
    const strangerUpload = await api().post('/api/rooms').set(stranger.auth).field('id_visit', String(v.id)).attach('file', await pano(), 'x.jpg');
    expect(strangerUpload.status).toBe(404);
    expect(strangerUpload.body.message).toBe('Visit not found.');
    expect((await api().put(`/api/visits/${v.id}/room-order`).set(stranger.auth).send({ ids: [a.id] })).status).toBe(404);
    expect((await api().get(`/api/rooms/${a.id}`).set(viewer.auth)).status).toBe(200);
    expect((await api().put(`/api/rooms/${a.id}`).set(viewer.auth).send({ name: 'x' })).status).toBe(403);
    expect((await api().delete(`/api/rooms/${a.id}`).set(viewer.auth)).status).toBe(403);
    expect((await api().post('/api/rooms').set(viewer.auth).field('id_visit', String(v.id)).attach('file', await pano(), 'x.jpg')).status).toBe(403);
    expect((await api().get(`/api/rooms/${a.id}`)).status).toBe(401);
    expect((await api().post('/api/rooms').field('id_visit', String(v.id)).attach('file', await pano(), 'x.jpg')).status).toBe(401);

    await markReady(b.id);
    const bRow = (await Room.query().findById(b.id))!;
    const del = await api().delete(`/api/rooms/${b.id}`).set(owner.auth);
    expect(del.body).toMatchObject({ message: 'Room deleted.', data: { id: b.id, id_visit: v.id } });
    expect(await isStored(bRow.file_key!)).toBe(false);
    expect(await isStored(bRow.folder!)).toBe(false);
    expect((await api().get(`/api/rooms/${b.id}`).set(owner.auth)).status).toBe(404);
  });

  it('links rooms with hotspots in a direction, moves a link bound again, and unbinds one or all links of a room', async () => {
    const owner = await createUser();
    const viewer = await createUser();
    const stranger = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, viewer);
    const v = await newVisit(owner, p.id);
    const other = await newVisit(owner, p.id);
    const a = await upload(owner, v.id, 'A.jpg');
    const b = await upload(owner, v.id, 'B.jpg');
    const c = await upload(owner, v.id, 'C.jpg');
    const elsewhere = await upload(owner, other.id, 'X.jpg');

    const bound = await api().post(`/api/visits/${v.id}/bind-hotspot`).set(owner.auth).send({ id_room: a.id, id_room_target: b.id, yaw: -Math.PI / 2, pitch: -0.2 });
    expect(bound.status).toBe(200);
    expect(bound.body.message).toBe('Rooms linked.');
    expect(bound.body.data).toMatchObject({ id_room: a.id, id_room_target: b.id, target_name: 'B', pitch: -0.2 });
    expect(bound.body.data.yaw).toBeCloseTo((3 * Math.PI) / 2);
    const moved = await api().post(`/api/visits/${v.id}/bind-hotspot`).set(owner.auth).send({ id_room: a.id, id_room_target: b.id, yaw: 1, pitch: 0 });
    expect(moved.body.data).toMatchObject({ id: bound.body.data.id, yaw: 1, pitch: 0 });
    await api().post(`/api/visits/${v.id}/bind-hotspot`).set(owner.auth).send({ id_room: a.id, id_room_target: c.id, yaw: 2, pitch: 0 });
    await api().post(`/api/visits/${v.id}/bind-hotspot`).set(owner.auth).send({ id_room: b.id, id_room_target: a.id, yaw: 4, pitch: 0 });
    const detail = (await api().get(`/api/visits/${v.id}`).set(owner.auth)).body.data as VisitDetail;
    expect(detail.rooms.find((r) => r.id === a.id)!.hotspots.map((h) => [h.id_room_target, h.yaw])).toEqual([[b.id, 1], [c.id, 2]]);

    const bad = async (body: object, message: string, status = 400) => {
      const res = await api().post(`/api/visits/${v.id}/bind-hotspot`).set(owner.auth).send(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toBe(message);
    };
    await bad({ id_room: a.id, id_room_target: a.id, yaw: 0, pitch: 0 }, 'A room cannot link to itself.');
    await bad({ id_room: a.id, id_room_target: elsewhere.id, yaw: 0, pitch: 0 }, `Room ${elsewhere.id} is not in this visit.`);
    await bad({ id_room: a.id, id_room_target: b.id, yaw: 0, pitch: 2 }, 'pitch must be between -π/2 and π/2 radians.');
    await bad({ id_room: a.id, id_room_target: b.id, yaw: '90deg', pitch: 0 }, 'yaw must be an angle in radians.');
    await bad({ id_room: a.id, yaw: 0, pitch: 0 }, 'id_room_target is required.');
    expect((await api().post(`/api/visits/${v.id}/bind-hotspot`).set(viewer.auth).send({ id_room: a.id, id_room_target: b.id, yaw: 0, pitch: 0 })).status).toBe(403);
    expect((await api().post(`/api/visits/${v.id}/bind-hotspot`).set(stranger.auth).send({ id_room: a.id, id_room_target: b.id, yaw: 0, pitch: 0 })).status).toBe(404);
    expect((await api().post(`/api/visits/${v.id}/unbind-hotspot`).set(stranger.auth).send({ id_room: a.id })).status).toBe(404);
    expect((await api().post(`/api/visits/${v.id}/bind-hotspot`).send({ id_room: a.id, id_room_target: b.id, yaw: 0, pitch: 0 })).status).toBe(401);

    const one = await api().post(`/api/visits/${v.id}/unbind-hotspot`).set(owner.auth).send({ id_room: a.id, id_room_target: c.id });
    expect(one.body).toMatchObject({ message: 'Link removed.', data: { removed: 1 } });
    const all = await api().post(`/api/visits/${v.id}/unbind-hotspot`).set(owner.auth).send({ id_room: a.id });
    expect(all.body.data).toEqual({ removed: 1 });
    expect((await api().post(`/api/visits/${v.id}/unbind-hotspot`).set(owner.auth).send({ id_room: a.id })).body.message).toBe('There was no link to remove.');
    // Deleting a room removes the links that lead to it.
    await api().delete(`/api/rooms/${a.id}`).set(owner.auth);
    expect(((await api().get(`/api/rooms/${b.id}`).set(owner.auth)).body.data as RoomDto).hotspots).toEqual([]);
  });
});

describe('points of interest', () => {
  it('adds, edits and deletes points of interest with an attached image or PDF; refuses others and bad bodies', async () => {
    const owner = await createUser();
    const viewer = await createUser();
    const stranger = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, viewer);
    const v = await newVisit(owner, p.id);
    const room = await upload(owner, v.id);

    const created = await api().post('/api/pois').set(owner.auth).send({ id_room: room.id, title: 'Crack in slab', text: 'Check with the engineer', link: 'https://example.test/ncr/12', yaw: 7 - 2 * Math.PI, pitch: -0.5 });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Point of interest added.');
    const poi = created.body.data;
    expect(poi).toMatchObject({ id_room: room.id, title: 'Crack in slab', link: 'https://example.test/ncr/12', pitch: -0.5, file: null });
    expect(poi.yaw).toBeCloseTo(7 - 2 * Math.PI);

    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c00' } }).png().toBuffer();
    const attached = await api().post(`/api/pois/${poi.id}/file`).set(owner.auth).attach('file', photo, 'crack.png');
    expect(attached.status).toBe(200);
    expect(attached.body.data.file).toMatchObject({ name: 'crack.png', mime: 'image/png', kind: 'image', size_bytes: photo.length });
    const firstKey = keyOf(attached.body.data.file.url);
    expect((await api().get(attached.body.data.file.url).redirects(1)).status).toBe(200);
    const pdf = await api().post(`/api/pois/${poi.id}/file`).set(owner.auth).attach('file', await planPdf([{ size: PAPER.A6 }]), 'ncr.pdf');
    expect(pdf.body.data.file).toMatchObject({ name: 'ncr.pdf', mime: 'application/pdf', kind: 'document' });
    expect(await isStored(firstKey)).toBe(false);
    const text = await api().post(`/api/pois/${poi.id}/file`).set(owner.auth).attach('file', Buffer.from('plain words'), 'note.png');
    expect(text.status).toBe(415);

    const edited = await api().put(`/api/pois/${poi.id}`).set(owner.auth).send({ title: 'Crack (fixed)', link: '' });
    expect(edited.body.data).toMatchObject({ title: 'Crack (fixed)', link: '', text: 'Check with the engineer' });
    expect((await api().get(`/api/rooms/${room.id}/pois`).set(viewer.auth)).body.data.map((x: { title: string }) => x.title)).toEqual(['Crack (fixed)']);
    expect((await api().get(`/api/rooms/${room.id}`).set(owner.auth)).body.data.pois_count).toBe(1);

    expect((await api().post('/api/pois').set(owner.auth).send({ id_room: room.id, title: 'x', link: 'javascript:alert(1)', yaw: 0, pitch: 0 })).body.message).toBe('The link must start with http:// or https://.');
    expect((await api().post('/api/pois').set(owner.auth).send({ id_room: room.id, title: '', yaw: 0, pitch: 0 })).body.message).toBe('Title is required');
    expect((await api().post('/api/pois').set(owner.auth).send({ id_room: room.id, title: 'x', pitch: 0 })).body.message).toBe('yaw is required.');
    expect((await api().put(`/api/pois/${poi.id}`).set(owner.auth).send({})).body.message).toBe('Nothing to update.');
    const hiddenRoom = await api().post('/api/pois').set(stranger.auth).send({ id_room: room.id, title: 'x', yaw: 0, pitch: 0 });
    expect(hiddenRoom.status).toBe(404);
    expect(hiddenRoom.body.message).toBe('Room not found.');
    for (const res of [
      await api().put(`/api/pois/${poi.id}`).set(stranger.auth).send({ title: 'x' }),
      await api().delete(`/api/pois/${poi.id}`).set(stranger.auth),
      await api().delete(`/api/pois/${poi.id}/file`).set(stranger.auth),
      await api().post(`/api/pois/${poi.id}/file`).set(stranger.auth).attach('file', photo, 'a.png'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Point of interest not found.');
    }
    expect((await api().put(`/api/pois/${poi.id}`).set(viewer.auth).send({ title: 'x' })).status).toBe(403);
    expect((await api().post('/api/pois').set(viewer.auth).send({ id_room: room.id, title: 'x', yaw: 0, pitch: 0 })).status).toBe(403);
    expect((await api().post('/api/pois').send({ id_room: room.id, title: 'x', yaw: 0, pitch: 0 })).status).toBe(401);

    const pdfKey = keyOf(pdf.body.data.file.url);
    const detached = await api().delete(`/api/pois/${poi.id}/file`).set(owner.auth);
    expect(detached.body.data.file).toBeNull();
    expect(await isStored(pdfKey)).toBe(false);
    const del = await api().delete(`/api/pois/${poi.id}`).set(owner.auth);
    expect(del.body).toMatchObject({ message: 'Point of interest deleted.', data: { id: poi.id, id_room: room.id } });
    expect((await api().put(`/api/pois/${poi.id}`).set(owner.auth).send({ title: 'x' })).status).toBe(404);
    expect(leftUploadFiles()).toEqual([]);
  });
});

describe('public viewer', () => {
  it('opens a visit by its code without sign-in: ready rooms with tiles, hotspots, the sheet and positions, nothing private', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const map = await readySheet(p.id);
    const v = await newVisit(owner, p.id, { id_map: map.id, description: 'Handover walk' });
    const a = await upload(owner, v.id, 'Hall.jpg');
    const b = await upload(owner, v.id, 'Office.jpg');
    const pending = await upload(owner, v.id, 'Still processing.jpg');
    await markReady(a.id);
    await markReady(b.id);
    await api().put(`/api/maps/${map.id}/room-positions`).set(owner.auth).send({ rooms: [{ id: a.id, x: 10, y: 20, heading: 0.5 }] });
    await api().post(`/api/visits/${v.id}/bind-hotspot`).set(owner.auth).send({ id_room: a.id, id_room_target: b.id, yaw: 1, pitch: 0 });
    await api().post(`/api/visits/${v.id}/bind-hotspot`).set(owner.auth).send({ id_room: a.id, id_room_target: pending.id, yaw: 2, pitch: 0 });
    const poi = (await api().post('/api/pois').set(owner.auth).send({ id_room: b.id, title: 'Socket missing', yaw: 1, pitch: 0 })).body.data;

    const res = await api().get(`/api/viewer-visit?code=${v.code}`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ code: v.code, name: 'Walk', description: 'Handover walk', date: '2026-03-02', project_name: p.name, start_room: a.id, poi: null });
    expect(data.rooms.map((r: { id: number }) => r.id)).toEqual([a.id, b.id]);
    const hall = data.rooms[0];
    expect(hall).toMatchObject({ name: 'Hall', id_map: map.id, x: 10, y: 20, heading: 0.5, pois_count: 0 });
    expect(hall.hotspots).toEqual([{ id_room_target: b.id, target_name: 'Office', yaw: 1, pitch: 0 }]);
    expect(hall.panorama).toMatchObject({ width: 2048, tile_size: 512, levels: [{ width: 2048, cols: 4, rows: 2, zoomRange: [0, 100] }] });
    const tile = await api().get(hall.panorama.tile_url_template.replace('{level}', '0').replace('{row}', '0').replace('{col}', '1')).redirects(1);
    expect(tile.status).toBe(200);
    expect((await api().get(hall.panorama.base_url).redirects(1)).status).toBe(200);
    expect(data.maps).toEqual([expect.objectContaining({ id: map.id, width: 2000, height: 1000, tile_size: 256, max_zoom: 3 })]);
    expect((await api().get(data.maps[0].tile_url_template.replace('{z}', '0').replace('{y}', '0').replace('{x}', '0')).redirects(1)).status).toBe(200);
    const text = JSON.stringify(res.body);
    for (const secret of [owner.user.email, owner.user.username, 'original_name', 'id_project', 'file_key', 'Hall.jpg', 'size_bytes']) expect(text).not.toContain(secret);

    const withPoi = await api().get(`/api/viewer-visit?code=${v.code}&poi=${poi.id}`);
    expect(withPoi.body.data).toMatchObject({ start_room: b.id, poi: { id: poi.id, title: 'Socket missing' } });
    expect((await api().get(`/api/viewer-visit?code=${v.code}&poi=99999999`)).status).toBe(404);

    const pois = await api().get(`/api/viewer-room-pois?code=${v.code}&id_room=${b.id}`);
    expect(pois.body.data).toMatchObject({ id_room: b.id, can_edit: false, pois: [{ id: poi.id, title: 'Socket missing' }] });

    const unknown = await api().get('/api/viewer-visit?code=nosuchcode12');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('No visit has this code. Check the link you were given.');
    expect((await api().get('/api/viewer-visit')).status).toBe(400);
    expect((await api().get(`/api/viewer-visit?code=${v.code}&extra=1`)).status).toBe(400);
    // A room of another visit, or one not ready, is not in this visit's viewer.
    const other = await newVisit(owner, p.id);
    const foreign = await upload(owner, other.id);
    await markReady(foreign.id);
    expect((await api().get(`/api/viewer-room-pois?code=${v.code}&id_room=${foreign.id}`)).status).toBe(404);
    expect((await api().get(`/api/viewer-room-pois?code=${v.code}&id_room=${pending.id}`)).status).toBe(404);

    // A deactivated project's visits leave the public viewer; the team still sees them.
    await db()('projects').where({ id: p.id }).update({ active: false });
    expect((await api().get(`/api/viewer-visit?code=${v.code}`)).body.message).toBe('No visit has this code. Check the link you were given.');
    expect((await api().get(`/api/visits/${v.id}`).set(owner.auth)).status).toBe(200);
  });

  it("serves the viewer's page naming the start room's low-resolution sphere, so the browser fetches it at once", async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head><meta charset="UTF-8" /><script>preload()</script></head><body></body></html>');
    const owner = await createUser();
    const p = await newProject(owner);
    const v = await newVisit(owner, p.id);
    const a = await upload(owner, v.id, 'Hall.jpg');
    const b = await upload(owner, v.id, 'Office.jpg');
    const pending = await upload(owner, v.id, 'Still processing.jpg');
    await markReady(a.id);
    await markReady(b.id);
    const poi = (await api().post('/api/pois').set(owner.auth).send({ id_room: b.id, title: 'Crack', yaw: 1, pitch: 0 })).body.data;
    const named = async (pathname: string) => {
      const html = await viewerPage(dist, pathname, '198.51.100.9');
      if (html === null) return null;
      const m = /<meta charset="UTF-8" \/>\s*<meta name="sw-viewer-start" content="([^"]+)" \/>\s*<script>/.exec(html);
      expect(m, 'the tag comes before the preload script that reads it').not.toBeNull();
      return m![1]!.replace(/&amp;/g, '&');
    };
    const visit = (await api().get(`/api/viewer-visit?code=${v.code}`)).body.data;
    const baseOf = (id: number) => visit.rooms.find((r: { id: number }) => r.id === id).panorama.base_url as string;
    // The same room the viewer opens: the first, the asked one, the point of interest's.
    expect(await named(`/viewer/${v.code}`)).toBe(baseOf(a.id));
    expect(await named(`/viewer/${v.code}/${b.id}`)).toBe(baseOf(b.id));
    expect(await named(`/viewer/${v.code}/${a.id}/${poi.id}`)).toBe(baseOf(b.id));
    expect(await named(`/viewer/${v.code}/${pending.id}`)).toBe(baseOf(a.id));
    expect((await api().get(baseOf(a.id)).redirects(1)).status).toBe(200);
    // Nothing for what the viewer would not show.
    expect(await named('/viewer/nosuchcode12')).toBeNull();
    expect(await named(`/viewer/${v.code}/${a.id}/99999999`)).toBeNull();
    expect(await named('/projects')).toBeNull();
    const empty = await newVisit(owner, p.id);
    expect(await named(`/viewer/${empty.code}`)).toBeNull();
    const settings = await lockSettings();
    try {
      await settings.set({ maintenance_viewer: true, maintenance_ip: '203.0.113.7' });
      expect(await named(`/viewer/${v.code}`)).toBeNull();
    } finally {
      await settings.set({ maintenance_viewer: false });
      await settings.release();
    }
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('honours edit_room only for a signed-in user who may edit the visit', async () => {
    const owner = await createUser();
    const viewer = await createUser();
    const stranger = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, viewer);
    const v = await newVisit(owner, p.id);
    const room = await upload(owner, v.id);
    await markReady(room.id);
    const path = `/api/viewer-room-pois?code=${v.code}&id_room=${room.id}&edit_room=true`;
    const anon = await api().get(path);
    expect(anon.status).toBe(403);
    expect(anon.body.message).toBe('Sign in to edit the points of interest of this room.');
    expect((await api().get(path).set(stranger.auth)).status).toBe(403);
    expect((await api().get(path).set(viewer.auth)).status).toBe(403);
    const mine = await api().get(path).set(owner.auth);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({ id_room: room.id, can_edit: true, pois: [] });
    expect((await api().get(`/api/viewer-room-pois?code=${v.code}&id_room=${room.id}&edit_room=maybe`)).status).toBe(400);
  });

  it('answers 503 with a message while maintenance_viewer is on, except to the maintenance_ip address', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const v = await newVisit(owner, p.id);
    const settings = await lockSettings();
    try {
      await settings.set({ maintenance_viewer: true, maintenance_ip: '203.0.113.7' });
      const down = await api().get(`/api/viewer-visit?code=${v.code}`).set('X-Forwarded-For', '198.51.100.1');
      expect(down.status).toBe(503);
      expect(down.body.message).toBe('The visit viewer is down for maintenance. Please try again later.');
      expect((await api().get(`/api/viewer-room-pois?code=${v.code}&id_room=1`).set('X-Forwarded-For', '198.51.100.1')).status).toBe(503);
      const admin = await api().get(`/api/viewer-visit?code=${v.code}`).set('X-Forwarded-For', '203.0.113.7');
      expect(admin.status).toBe(200);
      // The signed-in app keeps working.
      expect((await api().get(`/api/visits/${v.id}`).set(owner.auth).set('X-Forwarded-For', '198.51.100.1')).status).toBe(200);
      await settings.set({ maintenance_viewer: false });
      expect((await api().get(`/api/viewer-visit?code=${v.code}`).set('X-Forwarded-For', '198.51.100.1')).status).toBe(200);
    } finally {
      await settings.release();
    }
  });
});

describe('a project deleted with its visits', () => {
  it('removes visits, rooms and their files with the project', async () => {
    const owner = await createUser();
    const p = await newProject(owner);
    const v = await newVisit(owner, p.id);
    const room = await upload(owner, v.id);
    expect((await api().delete(`/api/projects/${p.id}`).set(owner.auth)).status).toBe(200);
    expect(await db()('visits').where({ id: v.id }).first()).toBeUndefined();
    expect(await Room.query().findById(room.id)).toBeUndefined();
    expect(await isStored(`projects/${p.id}`)).toBe(false);
  });
});
