import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { LIVE_WAIT_MS, connected } from '../../test/support/socket-connected.js';
import type { AnnotationChangedEvent, AnnotationDetail, ClientToServerEvents, ServerToClientEvents, VisitDetail } from '@sitewalk/proto';
import { createApp } from '../src/app.js';
import { Room, Sheet, db } from '@sitewalk/core/db';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { isStored } from '../../test/support/stored.js';
import { attachRealtime } from '../src/realtime/gateway.js';
import { canAccessProject } from '@sitewalk/core/services/access.service.js';
import { siteToday } from '@sitewalk/core/services/site-today.js';
import { lockSettings } from './settings-lock.js';
import { waitFor } from '../../workers/test/helpers.js';
import { api, createUser, type TestUser } from './helpers.js';
import { addMember, newProject } from './project-helpers.js';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
let server: { url: string; close: () => Promise<void> };
const clients: Client[] = [];

beforeAll(async () => {
  const s = http.createServer(createApp({ serveClient: false }).callback());
  const realtime = attachRealtime(s, { canJoinProject: canAccessProject });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  server = { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, close: realtime.close };
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await server?.close();
  await closeQueues();
  await closeEmitter();
});

const png = () => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
const keyOf = (url: string) => decodeURIComponent(new URL(url, 'http://x').pathname.replace(/^\/api\/files\//, ''));

interface World {
  owner: TestUser;
  project: number;
  visit: VisitDetail;
  room: number;
  map: number;
}

/** A project with a sheet, a visit walking it and one ready room placed on the sheet at (300, 400). */
async function world(): Promise<World> {
  const owner = await createUser();
  const p = await newProject(owner);
  const map = await Sheet.query().insertAndFetch({ id_project: p.id, name: 'Level 1', status: 'ready', width: 2000, height: 1000, dpi: 200, tile_size: 256, max_zoom: 3 });
  const res = await api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: 'Walk', date: '2026-03-02', id_map: map.id });
  expect(res.status).toBe(201);
  const room = await Room.query().insertAndFetch({ id_visit: res.body.data.id, name: 'Lobby', status: 'ready', id_map: map.id, x: 300, y: 400, position: 0 } as Partial<Room>);
  return { owner, project: p.id, visit: res.body.data, room: room.id, map: map.id };
}

async function newSnag(w: World, user: TestUser, fields: Record<string, unknown> = {}): Promise<AnnotationDetail> {
  const res = await api()
    .post('/api/annotations')
    .set(user.auth)
    .send({ id_visit: w.visit.id, id_room: w.room, yaw: 1.2, pitch: -0.3, zoom: 40, title: 'Cracked tile', ...fields });
  if (res.status !== 201) throw new Error(`snag not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

describe('snags: create, read, change, delete', () => {
  it('creates a snag pinned in the room and, through the room, on the sheet; reads it with its history', async () => {
    const w = await world();
    const worker = await createUser({ first_name: 'Sara', last_name: 'Haddad' });
    await addMember(w.project, worker, 'editor');
    const s = await newSnag(w, w.owner, { description: 'Near the door', priority: 'high', id_assignee: worker.user.id, due_date: '2026-04-01' });
    expect(s).toMatchObject({
      id_project: w.project,
      id_visit: w.visit.id,
      visit_code: w.visit.code,
      id_room: w.room,
      room_name: 'Lobby',
      zoom: 40,
      id_map: w.map,
      map_name: 'Level 1',
      x: 300,
      y: 400,
      title: 'Cracked tile',
      status: 'open',
      priority: 'high',
      id_assignee: worker.user.id,
      assignee: { id: worker.user.id, name: 'Sara Haddad' },
      due_date: '2026-04-01',
      id_author: w.owner.user.id,
      can_edit: true,
    });
    expect(s.yaw).toBeCloseTo(1.2);
    expect(s.history).toHaveLength(1);
    expect(s.history[0]).toMatchObject({ action: 'created', user: { id: w.owner.user.id } });

    const read = await api().get(`/api/annotations/${s.id}`).set(worker.auth);
    expect(read.status).toBe(200);
    expect(read.body.data.title).toBe('Cracked tile');

    const people = await api().get('/api/annotations/people').query({ id_project: w.project }).set(w.owner.auth);
    expect(people.body.data.map((p: { id: number }) => p.id).sort()).toEqual([w.owner.user.id, worker.user.id].sort());
  });

  it('moves a snag through its statuses, records who changed what, and refuses a move that skips the review', async () => {
    const w = await world();
    const s = await newSnag(w, w.owner);
    const skip = await api().put(`/api/annotations/${s.id}`).set(w.owner.auth).send({ status: 'closed', comment: 'x' });
    expect(skip.status).toBe(200); // open → closed is allowed (a supervisor closes a false alarm)
    const back = await api().put(`/api/annotations/${s.id}`).set(w.owner.auth).send({ status: 'in_progress' });
    expect(back.status).toBe(409);
    expect(back.body.message).toBe('A snag that is closed cannot be moved to in progress.');

    await api().put(`/api/annotations/${s.id}`).set(w.owner.auth).send({ status: 'open' });
    const work = await api().put(`/api/annotations/${s.id}`).set(w.owner.auth).send({ status: 'in_progress', priority: 'critical' });
    expect(work.body.data).toMatchObject({ status: 'in_progress', priority: 'critical' });
    expect(work.body.data.history[0]).toMatchObject({
      action: 'updated',
      changes: [
        { field: 'status', from: 'open', to: 'in_progress' },
        { field: 'priority', from: 'medium', to: 'critical' },
      ],
    });
    const note = await api().put(`/api/annotations/${s.id}`).set(w.owner.auth).send({ comment: 'Tiler booked for Monday' });
    expect(note.body.data.history[0]).toMatchObject({ action: 'comment', comment: 'Tiler booked for Monday', changes: [] });
    // created, closed, reopened, in progress, comment
    expect(note.body.data.history.map((h: { action: string }) => h.action)).toEqual(['comment', 'updated', 'updated', 'updated', 'created']);
  });

  it('refuses bad input with a message: a room of another visit, a stranger as assignee, an empty title, unknown fields', async () => {
    const w = await world();
    const other = await world();
    const stranger = await createUser();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ id_room: other.room }, 400, "This room is not in the snag's visit."],
      [{ id_assignee: stranger.user.id }, 400, "The assignee must be one of the project's people who may handle snags."],
      [{ title: '  ' }, 400, 'Title is required'],
      [{ id_room: w.room, yaw: undefined }, 400, 'A snag in a room needs yaw and pitch.'],
      [{ id_map: other.map, x: 1, y: 2, id_room: null }, 400, "This sheet is not in the snag's project."],
      [{ colour: 'red' }, 400, 'Unknown field: colour.'],
    ];
    for (const [fields, status, message] of cases) {
      const res = await api()
        .post('/api/annotations')
        .set(w.owner.auth)
        .send({ id_visit: w.visit.id, id_room: w.room, yaw: 1, pitch: 0, title: 'T', ...fields });
      expect([res.status, res.body.message]).toEqual([status, message]);
    }
    expect((await api().post('/api/annotations').set(w.owner.auth).send({ id_visit: 999999, title: 'T' })).status).toBe(404);
  });

  it('deletes a snag with its files', async () => {
    const w = await world();
    const up = await api().post('/api/annotations/file').set(w.owner.auth).field('id_visit', String(w.visit.id)).attach('file', await png(), 'photo.png');
    const s = await newSnag(w, w.owner, { files: [up.body.data.filename] });
    const key = keyOf(s.files[0].url);
    expect(await isStored(key)).toBe(true);
    const del = await api().delete(`/api/annotations/${s.id}`).set(w.owner.auth);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ id: s.id, id_project: w.project });
    expect(await isStored(key)).toBe(false);
    expect((await api().get(`/api/annotations/${s.id}`).set(w.owner.auth)).status).toBe(404);
    expect(await db()('annotation_history').where({ id_annotation: s.id })).toEqual([]);
  });
});

describe('snags: who sees and changes them', () => {
  it("answers 404 for another project's snag, on every call, and leaves it out of the list", async () => {
    const w = await world();
    const s = await newSnag(w, w.owner);
    const outsider = await createUser();
    expect((await api().get(`/api/annotations/${s.id}`).set(outsider.auth)).status).toBe(404);
    expect((await api().put(`/api/annotations/${s.id}`).set(outsider.auth).send({ title: 'Mine' })).status).toBe(404);
    expect((await api().delete(`/api/annotations/${s.id}`).set(outsider.auth)).status).toBe(404);
    expect((await api().post('/api/annotations').set(outsider.auth).send({ id_visit: w.visit.id, title: 'X' })).status).toBe(404);
    expect((await api().get('/api/annotations/people').query({ id_project: w.project }).set(outsider.auth)).status).toBe(404);
    const up = await api().post('/api/annotations/file').set(outsider.auth).field('id_visit', String(w.visit.id)).attach('file', await png(), 'a.png');
    expect(up.status).toBe(404);
    const list = await api().get('/api/annotations').query({ id_project: w.project }).set(outsider.auth);
    expect(list.body.data).toMatchObject({ items: [], total: 0 });
    expect((await api().get(`/api/annotations/${s.id}`)).status).toBe(401);
    expect((await api().get(`/api/annotations/${s.id}`).set(w.owner.auth)).body.data.title).toBe('Cracked tile');
  });

  it('lets a read-only member read but not change, create, delete or attach files', async () => {
    const w = await world();
    const s = await newSnag(w, w.owner);
    const reader = await createUser();
    await addMember(w.project, reader, 'viewer');
    const read = await api().get(`/api/annotations/${s.id}`).set(reader.auth);
    expect(read.status).toBe(200);
    expect(read.body.data.can_edit).toBe(false);
    const refused = [
      await api().put(`/api/annotations/${s.id}`).set(reader.auth).send({ status: 'in_progress' }),
      await api().delete(`/api/annotations/${s.id}`).set(reader.auth),
      await api().post('/api/annotations').set(reader.auth).send({ id_visit: w.visit.id, title: 'X' }),
      await api().post('/api/annotations/file').set(reader.auth).field('id_visit', String(w.visit.id)).attach('file', await png(), 'a.png'),
    ];
    for (const res of refused) expect([res.status, res.body.message]).toEqual([403, 'You can view the snags of this project but not change them.']);
    expect((await api().get(`/api/annotations/${s.id}`).set(w.owner.auth)).body.data.status).toBe('open');
  });

  it('follows the per-member "manage snags" permission the owner sets, whatever the role', async () => {
    const w = await world();
    const s = await newSnag(w, w.owner);
    const viewerAllowed = await createUser();
    const editorDenied = await createUser();
    await addMember(w.project, viewerAllowed, 'viewer', { manage_snags: true });
    await addMember(w.project, editorDenied, 'editor', { manage_snags: false });
    const moved = await api().put(`/api/annotations/${s.id}`).set(viewerAllowed.auth).send({ status: 'in_progress' });
    expect(moved.status).toBe(200);
    expect((await api().get(`/api/annotations/${s.id}`).set(viewerAllowed.auth)).body.data.can_edit).toBe(true);
    const refused = await api().put(`/api/annotations/${s.id}`).set(editorDenied.auth).send({ title: 'Renamed' });
    expect([refused.status, refused.body.message]).toEqual([403, 'You can view the snags of this project but not change them.']);
    const listed = await api().get('/api/annotations').query({ id_project: w.project }).set(editorDenied.auth);
    expect(listed.body.data.items.map((a: { can_edit: boolean }) => a.can_edit)).toEqual([false]);
    // Only people who may move a snag along can be given one.
    const people = await api().get('/api/annotations/people').query({ id_project: w.project }).set(w.owner.auth);
    const ids = people.body.data.map((p: { id: number }) => p.id);
    expect(ids).toContain(viewerAllowed.user.id);
    expect(ids).not.toContain(editorDenied.user.id);
    const toReader = await api().put(`/api/annotations/${s.id}`).set(w.owner.auth).send({ id_assignee: editorDenied.user.id });
    expect([toReader.status, toReader.body.message]).toEqual([400, "The assignee must be one of the project's people who may handle snags."]);
  });
});

describe('moving several snags at once (PUT /annotations/status)', () => {
  const statusOf = async (w: World, id: number) => (await api().get(`/api/annotations/${id}`).set(w.owner.auth)).body.data.status;

  it('moves every chosen snag in one call, each with its history entry, and answers them as they are now', async () => {
    const w = await world();
    const a = await newSnag(w, w.owner, { title: 'Crack A' });
    const b = await newSnag(w, w.owner, { title: 'Crack B' });
    const res = await api().put('/api/annotations/status').set(w.owner.auth).send({ ids: [b.id, a.id], status: 'in_progress' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Snags updated.');
    expect(res.body.data.items.map((s: AnnotationDetail) => [s.id, s.status, s.can_edit])).toEqual([
      [b.id, 'in_progress', true],
      [a.id, 'in_progress', true],
    ]);
    const detail = (await api().get(`/api/annotations/${a.id}`).set(w.owner.auth)).body.data as AnnotationDetail;
    expect(detail.history[0]).toMatchObject({ action: 'updated', changes: [{ field: 'status', from: 'open', to: 'in_progress' }], user: { id: w.owner.user.id } });
  });

  it("changes nothing when one id is another user's snag (404), one is read-only (403) or one move is refused (409)", async () => {
    const w = await world();
    const mine = await newSnag(w, w.owner, { title: 'Mine' });
    const other = await world();
    const theirs = await newSnag(other, other.owner, { title: 'Theirs' });

    const unseen = await api().put('/api/annotations/status').set(w.owner.auth).send({ ids: [mine.id, theirs.id], status: 'in_progress' });
    expect([unseen.status, unseen.body.message]).toEqual([404, 'Snag not found.']);
    expect(await statusOf(w, mine.id)).toBe('open');
    expect(await statusOf(other, theirs.id)).toBe('open');

    const reader = await createUser();
    await addMember(w.project, reader, 'viewer');
    const readOnly = await api().put('/api/annotations/status').set(reader.auth).send({ ids: [mine.id], status: 'closed' });
    expect([readOnly.status, readOnly.body.message]).toEqual([403, 'You can view the snags of this project but not change them.']);

    const closed = await newSnag(w, w.owner, { title: 'Done', status: 'open' });
    await api().put(`/api/annotations/${closed.id}`).set(w.owner.auth).send({ status: 'closed' });
    const refused = await api().put('/api/annotations/status').set(w.owner.auth).send({ ids: [mine.id, closed.id], status: 'in_progress' });
    expect([refused.status, refused.body.message]).toEqual([409, 'A snag that is closed cannot be moved to in progress. (Done)']);
    expect(await statusOf(w, mine.id)).toBe('open');
    expect((await api().get(`/api/annotations/${mine.id}`).set(w.owner.auth)).body.data.history).toHaveLength(1);
  });

  it('refuses a bad body with a sentence, and keeps PUT /annotations/{id} working beside it', async () => {
    const w = await world();
    const s = await newSnag(w, w.owner);
    const empty = await api().put('/api/annotations/status').set(w.owner.auth).send({ ids: [], status: 'closed' });
    expect([empty.status, empty.body.message]).toEqual([400, 'Choose at least one snag.']);
    const badStatus = await api().put('/api/annotations/status').set(w.owner.auth).send({ ids: [s.id], status: 'done' });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.message).toMatch(/^status must be one of/);
    expect((await api().put('/api/annotations/status').send({ ids: [s.id], status: 'closed' })).status).toBe(401);
    const single = await api().put(`/api/annotations/${s.id}`).set(w.owner.auth).send({ status: 'closed' });
    expect([single.status, single.body.data.status]).toEqual([200, 'closed']);
  });
});

describe('snag files', () => {
  it('stores a file named ../../etc/passwd under a server-chosen name and shows the sent name only as a label', async () => {
    const w = await world();
    const res = await api().post('/api/annotations/file').set(w.owner.auth).field('id_visit', String(w.visit.id)).attach('file', await png(), '../../etc/passwd');
    expect(res.status).toBe(201);
    const f = res.body.data;
    expect(f.filename).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(f.name).toBe('passwd');
    expect(f.mime).toBe('image/png');
    const key = keyOf(f.url);
    expect(key).toBe(`projects/${w.project}/visits/${w.visit.id}/annotations/${f.filename}`);
    expect(await isStored(key)).toBe(true);
  });

  it('refuses an executable renamed .jpg (422) and a file above the size limit (413), keeping nothing', async () => {
    const w = await world();
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(512, 1)]);
    const res = await api().post('/api/annotations/file').set(w.owner.auth).field('id_visit', String(w.visit.id)).attach('file', elf, 'photo.jpg');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('This file is not an image (JPEG, PNG or WebP) or a PDF. Accepted: JPEG, PNG, WEBP, PDF.');
    expect(await db()('annotation_files').where({ id_visit: w.visit.id })).toEqual([]);
    const big = await api().post('/api/annotations/file').set(w.owner.auth).field('id_visit', String(w.visit.id)).attach('file', Buffer.alloc(26 * 1024 * 1024, 0xff), 'big.jpg');
    expect(big.status).toBe(413);
  });

  it('attaches a file to a snag at upload, lists it, and deletes it by its server name only', async () => {
    const w = await world();
    const s = await newSnag(w, w.owner);
    const up = await api()
      .post('/api/annotations/file')
      .set(w.owner.auth)
      .field('id_visit', String(w.visit.id))
      .field('id_annotation', String(s.id))
      .attach('file', await png(), 'crack.png');
    expect(up.status).toBe(201);
    const after = (await api().get(`/api/annotations/${s.id}`).set(w.owner.auth)).body.data as AnnotationDetail;
    expect(after.files.map((f) => f.name)).toEqual(['crack.png']);
    expect(after.history[0]).toMatchObject({ action: 'file_added' });

    const traversal = await api().delete('/api/annotations/file/delete').query({ filename: '../../etc/passwd', id_visit: w.visit.id }).set(w.owner.auth);
    expect(traversal.status).toBe(400);
    const other = await world();
    const wrongVisit = await api().delete('/api/annotations/file/delete').query({ filename: up.body.data.filename, id_visit: other.visit.id }).set(other.owner.auth);
    expect(wrongVisit.status).toBe(404);

    const del = await api().delete('/api/annotations/file/delete').query({ filename: up.body.data.filename, id_visit: w.visit.id }).set(w.owner.auth);
    expect(del.status).toBe(200);
    expect(await isStored(keyOf(up.body.data.url))).toBe(false);
    const gone = (await api().get(`/api/annotations/${s.id}`).set(w.owner.auth)).body.data as AnnotationDetail;
    expect(gone.files).toEqual([]);
    expect(gone.history[0]).toMatchObject({ action: 'file_removed' });
  });

  it("refuses naming a file uploaded to another visit in a snag", async () => {
    const w = await world();
    const other = await world();
    const up = await api().post('/api/annotations/file').set(other.owner.auth).field('id_visit', String(other.visit.id)).attach('file', await png(), 'a.png');
    const res = await api().post('/api/annotations').set(w.owner.auth).send({ id_visit: w.visit.id, title: 'T', files: [up.body.data.filename] });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('was not uploaded for this visit');
  });
});

describe('the snag list', () => {
  it('lists the snags of all the user\'s projects with filters, sort, pages and counts by status', async () => {
    const w = await world();
    const w2 = await world();
    const me = w.owner;
    await addMember(w2.project, me, 'editor');
    const a = await newSnag(w, me, { title: 'Alpha', priority: 'low', id_assignee: me.user.id, due_date: '2020-01-01' });
    const b = await newSnag(w, me, { title: 'Bravo', priority: 'critical' });
    const c = await newSnag(w2, w2.owner, { title: 'Charlie', priority: 'high', id_room: null, id_map: w2.map, x: 5, y: 6 });
    await api().put(`/api/annotations/${b.id}`).set(me.auth).send({ status: 'in_progress' });
    const list = (q: Record<string, unknown>) => api().get('/api/annotations').query(q).set(me.auth);

    const all = await list({ sort: 'priority' });
    expect(all.status).toBe(200);
    expect(all.body.data.items.map((s: { id: number }) => s.id)).toEqual([b.id, c.id, a.id]);
    expect(all.body.data.total).toBe(3);
    expect(all.body.data.counts).toEqual({ open: 2, in_progress: 1, ready_for_review: 0, closed: 0, rejected: 0 });

    const open = await list({ status: 'open', sort: 'title', order: 'asc' });
    expect(open.body.data.items.map((s: { title: string }) => s.title)).toEqual(['Alpha', 'Charlie']);
    expect(open.body.data.counts.in_progress).toBe(1);

    expect((await list({ assignee: 'me' })).body.data.items.map((s: { id: number }) => s.id)).toEqual([a.id]);
    expect((await list({ due: 'overdue' })).body.data.items.map((s: { id: number }) => s.id)).toEqual([a.id]);
    expect((await list({ id_project: w2.project })).body.data.items.map((s: { id: number }) => s.id)).toEqual([c.id]);
    expect((await list({ id_map: w2.map })).body.data.items.map((s: { id: number }) => s.id)).toEqual([c.id]);
    expect((await list({ priority: 'low,critical', sort: 'title', order: 'asc' })).body.data.items.map((s: { title: string }) => s.title)).toEqual(['Alpha', 'Bravo']);
    expect((await list({ search: 'brav' })).body.data.items.map((s: { id: number }) => s.id)).toEqual([b.id]);
    const page2 = await list({ per_page: 2, page: 2, sort: 'priority' });
    expect(page2.body.data).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(page2.body.data.items.map((s: { id: number }) => s.id)).toEqual([a.id]);
    expect(all.body.data.items.find((s: { id: number }) => s.id === a.id).overdue).toBe(true);

    const bad = await list({ status: 'done' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('status must be one or more of open, in_progress, ready_for_review, closed, rejected.');
    expect((await list({ sort: 'colour' })).status).toBe(400);
    expect((await list({ serach: 'x' })).status).toBe(400);
  });
  it("reads a snag's due day in the site's time zone, as the overdue reminder does, also when the server's day is another", async () => {
    const settings = await lockSettings();
    try {
      // 23:30 and 00:30 in Amman (UTC+3) are two site days whatever the server's zone.
      await settings.set({ timezone: 'Asia/Amman' });
      expect(await siteToday(db(), new Date('2026-11-28T20:30:00Z'))).toBe('2026-11-28');
      expect(await siteToday(db(), new Date('2026-11-28T21:30:00Z'))).toBe('2026-11-29');

      // Now: a zone where it is still yesterday or already tomorrow against UTC (the server's zone here),
      // an hour or more away from the site's midnight so the day cannot turn during the test.
      await settings.set({ timezone: new Date().getUTCHours() < 11 ? 'Etc/GMT+12' : 'Pacific/Kiritimati' });
      const siteDay = await siteToday();
      expect(siteDay).not.toBe(new Date().toISOString().slice(0, 10));
      const w = await world();
      const s = await newSnag(w, w.owner, { title: 'Due on the site today', due_date: siteDay });
      const items = async (q: Record<string, unknown>) =>
        (await api().get('/api/annotations').query({ id_project: w.project, ...q }).set(w.owner.auth)).body.data.items.map((x: { id: number; overdue: boolean }) => x);
      expect((await items({ due: 'today' })).map((x: { id: number }) => x.id)).toEqual([s.id]);
      expect(await items({ due: 'overdue' })).toEqual([]);
      expect((await items({})).find((x: { id: number }) => x.id === s.id).overdue).toBe(false);
    } finally {
      await settings.release();
    }
  });
});

describe('live snag changes', () => {
  it("pushes 'annotation:changed' to the project's room, with what changed, and not to outsiders", async () => {
    const w = await world();
    const outsider = await createUser();
    const join = async (user: TestUser, projectId: number) => {
      const c: Client = connect(server.url, { auth: { token: user.token }, transports: ['websocket'], reconnection: false, forceNew: true });
      clients.push(c);
      await connected(c);
      const got: AnnotationChangedEvent[] = [];
      c.on('annotation:changed', (e) => got.push(e));
      const ok = await c.timeout(LIVE_WAIT_MS).emitWithAck('project:join', projectId);
      return { got, ok };
    };
    const mine = await join(w.owner, w.project);
    const theirs = await join(outsider, w.project);
    expect(mine.ok).toBe(true);
    expect(theirs.ok).toBe(false);

    const s = await newSnag(w, w.owner);
    await waitFor(() => mine.got.length === 1, 'the created event');
    expect(mine.got[0]).toMatchObject({ action: 'created', id_project: w.project, annotation: { id: s.id, title: 'Cracked tile' }, actor: { id: w.owner.user.id } });
    expect(mine.got[0].annotation).not.toHaveProperty('can_edit');

    await api().put(`/api/annotations/${s.id}`).set(w.owner.auth).send({ status: 'in_progress', comment: 'On it' });
    await waitFor(() => mine.got.length === 2, 'the updated event');
    expect(mine.got[1]).toMatchObject({ action: 'updated', changes: [{ field: 'status', from: 'open', to: 'in_progress' }], comment: 'On it', annotation: { status: 'in_progress' } });

    await api().delete(`/api/annotations/${s.id}`).set(w.owner.auth);
    await waitFor(() => mine.got.length === 3, 'the deleted event');
    expect(mine.got[2]).toMatchObject({ action: 'deleted', annotation: { id: s.id } });
    expect(theirs.got).toEqual([]);
  });
});
