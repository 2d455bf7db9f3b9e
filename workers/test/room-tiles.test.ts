import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { io as connect, type Socket } from 'socket.io-client';
import { LIVE_WAIT_MS, connected } from '../../test/support/socket-connected.js';
import type { ClientToServerEvents, JobOf, JobProgressEvent, Room as RoomDto, ServerToClientEvents, VisitDetail } from '@sitewalk/proto';
import { Room, closeDb } from '@sitewalk/core/db';
import { closeQueues, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis } from '@sitewalk/core/redis.js';
import { putBuffer, readBuffer } from '@sitewalk/core/storage';
import { isStored, storedNames } from '../../test/support/stored.js';
import { attachRealtime } from '../../api/src/realtime/index.js';
import { createApp } from '../../api/src/app.js';
import { canAccessProject } from '@sitewalk/core/services/access.service.js';
import { api, createUser, type TestUser } from '../../api/test/helpers.js';
import { addMember, newProject } from '../../api/test/project-helpers.js';
import { handlers } from '../src/jobs/index.js';
import { roomTiles } from '../src/jobs/room-tiles.js';
import { PANORAMA_DAMAGED, panoramaGrid, panoramaLevels } from '../src/adapters/panorama-tiles.js';
import { startWorkers } from '../src/runner.js';
import { settled, useOwnRedisPrefix, waitFor } from './helpers.js';
import { GREEN, RED, colourAt, equirectangular, looksLike } from './panorama-fixtures.js';

useOwnRedisPrefix('room-tiles');

afterAll(async () => {
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

/** A stand-in for BullMQ's job when a test calls the handler directly. */
function fakeJob(roomId: number, attemptsMade = 0, attempts = 3): Job<JobOf<'room.tiles'>> {
  return {
    id: `room-tiles-${roomId}`,
    name: 'room.tiles',
    data: { id_room: roomId },
    opts: { attempts },
    attemptsMade,
    updateProgress: async () => undefined,
  } as unknown as Job<JobOf<'room.tiles'>>;
}

async function newVisit(owner: TestUser): Promise<VisitDetail> {
  const p = await newProject(owner);
  const res = await api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: 'Walk', date: '2026-03-02' });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** A room whose photo is stored as the API stores it, without queueing its job (the test runs the handler itself). */
async function roomWith(owner: TestUser, photo: Buffer, ext = 'jpg'): Promise<Room> {
  const visit = await newVisit(owner);
  const key = `projects/${visit.id_project}/visits/${visit.id}/originals/${Math.random().toString(36).slice(2)}.${ext}`;
  await putBuffer(key, photo);
  const meta = await sharp(photo).metadata().catch(() => ({ width: 0, height: 0 }));
  return Room.query().insertAndFetch({
    id_visit: visit.id,
    id_user: owner.user.id,
    name: 'Room',
    status: 'queued',
    original_name: `photo.${ext}`,
    size_bytes: photo.length,
    width: meta.width ?? 0,
    height: meta.height ?? 0,
    file_key: key,
  });
}

/** A photo cut off in transfer: its header is whole, its pixels end early. */
async function truncatedPhoto(): Promise<Buffer> {
  const whole = await equirectangular(2048, 1024);
  return whole.subarray(0, Math.floor(whole.length * 0.6));
}

/** A tile read through storage (the same on local disk and S3). */
const tileKey = (room: Room, level: number, col: number, row: number) => `${room.folder}/tiles/${level}/${col}_${row}.jpeg`;
const tileFile = (room: Room, level: number, col: number, row: number) => readBuffer(tileKey(room, level, col, row));
const tileCount = async (room: Room, level: number) => (await storedNames(`${room.folder}/tiles/${level}`)).length;

describe('the tile grid of a panorama', () => {
  it('keeps the photo\'s resolution in square tiles of 512 to 1023 pixels, a power-of-two number of columns, levels halving down', () => {
    expect(panoramaGrid(4096)).toEqual({ tileSize: 512, cols: 8, width: 4096 });
    expect(panoramaGrid(5376)).toEqual({ tileSize: 672, cols: 8, width: 5376 });
    expect(panoramaGrid(8000)).toEqual({ tileSize: 1000, cols: 8, width: 8000 });
    expect(panoramaGrid(16384)).toEqual({ tileSize: 512, cols: 32, width: 16384 });
    expect(panoramaGrid(1024)).toEqual({ tileSize: 512, cols: 2, width: 1024 });
    // A width that is no whole number of tiles is brought to the nearest one.
    expect(panoramaGrid(4100)).toEqual({ tileSize: 513, cols: 8, width: 4104 });
    expect(panoramaLevels(panoramaGrid(8192), 2048).map((l) => l.level)).toEqual([
      { width: 4096, cols: 8, rows: 4, zoomRange: [0, 50] },
      { width: 8192, cols: 16, rows: 8, zoomRange: [50, 100] },
    ]);
    expect(panoramaLevels(panoramaGrid(1024), 1024).map((l) => l.level)).toEqual([{ width: 1024, cols: 2, rows: 1, zoomRange: [0, 100] }]);
  });
});

describe('room.tiles: a 360 photo becomes a tiled panorama', () => {
  it('cuts an 8192 × 4096 panorama into two levels of 512-pixel tiles, a 2048 × 1024 base and a thumbnail, with markers where they belong', async () => {
    const owner = await createUser();
    const markers = [
      { x: 6000, y: 1500, size: 96, color: RED },
      { x: 100, y: 3900, size: 96, color: GREEN },
    ];
    const room = await roomWith(owner, await equirectangular(8192, 4096, markers));
    const result = await roomTiles({ id_room: room.id }, fakeJob(room.id));
    expect(result).toEqual({ status: 'done', tiles: 32 + 128 });
    const ready = (await Room.query().findById(room.id))!;
    expect(ready).toMatchObject({ status: 'ready', error: null, tile_size: 512, pano_width: 8192 });
    expect(ready.levels).toEqual([
      { width: 4096, cols: 8, rows: 4, zoomRange: [0, 50] },
      { width: 8192, cols: 16, rows: 8, zoomRange: [50, 100] },
    ]);
    expect([await tileCount(ready, 0), await tileCount(ready, 1)]).toEqual([32, 128]);
    for (const [level, col, row] of [[0, 0, 0], [0, 7, 3], [1, 15, 7], [1, 8, 2]]) {
      const meta = await sharp(await tileFile(ready, level, col, row)).metadata();
      expect([meta.format, meta.width, meta.height], `tile ${level}/${col}_${row}`).toEqual(['jpeg', 512, 512]);
    }
    expect(await isStored(tileKey(ready, 1, 16, 0))).toBe(false);

    // The red marker's centre (6048, 1548) is in tile (11, 3) of the largest level, at (416, 12) in it; half that in the smaller level.
    expect(looksLike(await colourAt(await tileFile(ready, 1, 11, 3), 414, 10), RED)).toBe(true);
    expect(looksLike(await colourAt(await tileFile(ready, 0, 5, 1), 462, 260), RED)).toBe(true);
    // The green one (148, 3948) is in tile (0, 7) at (148, 364); the tile beside it has only the gradient.
    expect(looksLike(await colourAt(await tileFile(ready, 1, 0, 7), 146, 362), GREEN)).toBe(true);
    expect(looksLike(await colourAt(await tileFile(ready, 1, 1, 7), 146, 362), GREEN)).toBe(false);

    const base = await readBuffer(`${ready.folder}/base.jpg`);
    expect(await sharp(base).metadata()).toMatchObject({ format: 'jpeg', width: 2048, height: 1024 });
    expect(looksLike(await colourAt(base, 1510, 385), RED)).toBe(true);
    expect(await sharp(await readBuffer(`${ready.folder}/thumb.jpg`)).metadata()).toMatchObject({ width: 480, height: 240 });

    // The API gives the viewer what it needs to load it.
    const dto: RoomDto = (await api().get(`/api/rooms/${room.id}`).set(owner.auth)).body.data;
    expect(dto.panorama).toMatchObject({ width: 8192, tile_size: 512, levels: ready.levels });
    const tile = await api().get(dto.panorama!.tile_url_template.replace('{level}', '1').replace('{col}', '11').replace('{row}', '3')).redirects(1);
    expect(tile.status).toBe(200);
    expect(tile.headers['content-type']).toBe('image/jpeg');
    expect((await api().get(dto.panorama!.base_url).redirects(1)).status).toBe(200);
    expect((await api().get(dto.thumbnail_url!).redirects(1)).status).toBe(200);

    // Running it again changes nothing.
    expect(await roomTiles({ id_room: room.id }, fakeJob(room.id))).toEqual({ status: 'skipped', reason: 'the room is already ready' });
    expect((await Room.query().findById(room.id))!.folder).toBe(ready.folder);
  });

  it('tiles a 16384 × 8192 (134 MP) panorama in three levels with bounded memory', { timeout: 180_000 }, async () => {
    const owner = await createUser();
    const room = await roomWith(owner, await equirectangular(16384, 8192, [{ x: 16000, y: 8000, size: 128, color: RED }], 75));
    let peak = 0;
    const before = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
    try {
      expect(await roomTiles({ id_room: room.id }, fakeJob(room.id))).toEqual({ status: 'done', tiles: 32 + 128 + 512 });
    } finally {
      clearInterval(sampler);
    }
    const ready = (await Room.query().findById(room.id))!;
    expect(ready.levels!.map((l) => [l.width, l.cols, l.rows])).toEqual([[4096, 8, 4], [8192, 16, 8], [16384, 32, 16]]);
    expect([await tileCount(ready, 0), await tileCount(ready, 1), await tileCount(ready, 2)]).toEqual([32, 128, 512]);
    // Marker centre (16064, 8064): tile (31, 15) at (192, 384).
    expect(looksLike(await colourAt(await tileFile(ready, 2, 31, 15), 190, 382), RED)).toBe(true);
    // A decoded 16K photo alone would be 400 MB; streaming keeps the process far below that.
    expect(peak - before).toBeLessThan(400 * 1024 * 1024);
  });

  it('fits a photo a few pixels off the grid onto whole tiles, and keeps a 1024 × 512 one as a single level', async () => {
    const owner = await createUser();
    const odd = await roomWith(owner, await equirectangular(4100, 2050), 'jpg');
    await roomTiles({ id_room: odd.id }, fakeJob(odd.id));
    const r1 = (await Room.query().findById(odd.id))!;
    expect([r1.status, r1.tile_size, r1.pano_width]).toEqual(['ready', 513, 4104]);
    expect(r1.levels!.map((l) => l.width)).toEqual([2052, 4104]);
    expect(await sharp(await tileFile(r1, 1, 7, 3)).metadata()).toMatchObject({ width: 513, height: 513 });

    const small = await roomWith(owner, await sharp(await equirectangular(1024, 512)).png().toBuffer(), 'png');
    await roomTiles({ id_room: small.id }, fakeJob(small.id));
    const r2 = (await Room.query().findById(small.id))!;
    expect(r2.levels).toEqual([{ width: 1024, cols: 2, rows: 1, zoomRange: [0, 100] }]);
    expect(await tileCount(r2, 0)).toBe(2);
    expect(await sharp(await readBuffer(`${r2.folder}/base.jpg`)).metadata()).toMatchObject({ width: 1024, height: 512 });
  });

  it('fails a damaged photo at once with a clear message on the room, and one that is not 2:1', async () => {
    const owner = await createUser();
    const damaged = await roomWith(owner, await truncatedPhoto());
    await expect(roomTiles({ id_room: damaged.id }, fakeJob(damaged.id))).rejects.toMatchObject({ name: 'UnrecoverableError', message: PANORAMA_DAMAGED });
    const row = (await Room.query().findById(damaged.id))!;
    expect(row).toMatchObject({ status: 'failed', error: PANORAMA_DAMAGED, folder: null });
    const dto: RoomDto = (await api().get(`/api/rooms/${damaged.id}`).set(owner.auth)).body.data;
    expect(dto).toMatchObject({ status: 'failed', error: PANORAMA_DAMAGED, panorama: null, thumbnail_url: null });
    // No tiles of the failed attempt are left in storage.
    const visit = (await api().get(`/api/visits/${damaged.id_visit}`).set(owner.auth)).body.data as VisitDetail;
    expect(await isStored(`projects/${visit.id_project}/visits/${visit.id}/rooms/${damaged.id}`)).toBe(false);

    const flat = await roomWith(owner, await equirectangular(1600, 1200));
    await expect(roomTiles({ id_room: flat.id }, fakeJob(flat.id))).rejects.toThrow(/^This photo is 1600 × 1200 pixels, so it is not a 360 photo/);
    expect((await Room.query().findById(flat.id))!.status).toBe('failed');
    // A failed room is not retried by a rerun.
    expect(await roomTiles({ id_room: flat.id }, fakeJob(flat.id))).toEqual({ status: 'skipped', reason: 'the room already failed' });
  });

  it('starts over cleanly after a crash, and skips a room deleted meanwhile', async () => {
    const owner = await createUser();
    const room = await roomWith(owner, await equirectangular(2048, 1024));
    const visit = (await api().get(`/api/visits/${room.id_visit}`).set(owner.auth)).body.data as VisitDetail;
    const roomDir = `projects/${visit.id_project}/visits/${visit.id}/rooms/${room.id}`;
    // What a worker killed half-way leaves: a folder of some tiles and the room still processing.
    await putBuffer(`${roomDir}/deadbeef/tiles/0/0_0.jpeg`, Buffer.from('half'));
    await Room.query().patch({ status: 'processing' }).where({ id: room.id });
    expect((await roomTiles({ id_room: room.id }, fakeJob(room.id, 1))).status).toBe('done');
    const ready = (await Room.query().findById(room.id))!;
    expect(await storedNames(roomDir)).toEqual([path.basename(ready.folder!)]);

    const gone = await roomWith(owner, await equirectangular(2048, 1024));
    await api().delete(`/api/rooms/${gone.id}`).set(owner.auth);
    expect(await roomTiles({ id_room: gone.id }, fakeJob(gone.id))).toEqual({ status: 'skipped', reason: 'the room no longer exists' });
  });
});

describe('room.tiles through the queue', () => {
  it('tiles each uploaded photo and reports progress live to the uploader, the owner and the project room', { timeout: 120_000 }, async () => {
    const workers = startWorkers(handlers, { queues: ['rooms'] });
    const owner = await createUser();
    const editor = await createUser();
    const visit = await newVisit(owner);
    await addMember(visit.id_project, editor, 'editor');
    const server = http.createServer(createApp({ serveClient: false }).callback());
    const realtime = attachRealtime(server, { canJoinProject: canAccessProject });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const open = (token: string): Socket<ServerToClientEvents, ClientToServerEvents> =>
      connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    const ownerSocket = open(owner.token);
    const editorSocket = open(editor.token);
    const ownerEvents: JobProgressEvent[] = [];
    const editorEvents: JobProgressEvent[] = [];
    ownerSocket.on('job:progress', (e) => ownerEvents.push(e));
    editorSocket.on('job:progress', (e) => editorEvents.push(e));
    try {
      await Promise.all([connected(ownerSocket), connected(editorSocket)]);
      const sent = [];
      for (const [name, photo] of [['Hall.jpg', await equirectangular(4096, 2048)], ['Broken.jpg', await truncatedPhoto()]] as const) {
        const res = await api().post('/api/rooms').set(editor.auth).field('id_visit', String(visit.id)).attach('file', photo, name);
        expect(res.status).toBe(202);
        sent.push(res.body.data as RoomDto);
      }
      const [hall, broken] = sent;
      const states = [];
      for (const r of sent) states.push((await settled(await waitFor(() => queue('rooms').getJob(`room-tiles-${r.id}`), 'the room job'), 60_000)).state);
      expect(states).toEqual(['completed', 'failed']);

      const detail: VisitDetail = (await api().get(`/api/visits/${visit.id}`).set(owner.auth)).body.data;
      expect(detail.rooms.map((r) => [r.name, r.status])).toEqual([['Hall', 'ready'], ['Broken', 'failed']]);
      expect(detail.rooms[1].error).toBe(PANORAMA_DAMAGED);
      expect(detail).toMatchObject({ rooms_count: 2, rooms_ready: 1 });
      expect(detail.thumbnail_url).not.toBeNull();

      await waitFor(() => ownerEvents.some((e) => e.subject.id === broken.id && e.state === 'failed'), 'the failed event');
      const ofHall = ownerEvents.filter((e) => e.subject.id === hall.id);
      expect(ofHall.every((e) => e.job === 'room.tiles' && e.subject.kind === 'room' && e.project_id === visit.id_project)).toBe(true);
      expect(ofHall.map((e) => [e.state, e.percent, e.message])).toEqual([['active', 5, 'Cutting tiles'], ['completed', 100, 'Ready']]);
      expect(ofHall.at(-1)!.detail).toEqual({ id_visit: visit.id, id_room: hall.id, status: 'ready' });
      expect(ownerEvents.find((e) => e.subject.id === broken.id && e.state === 'failed')).toMatchObject({ message: PANORAMA_DAMAGED, detail: { status: 'failed' } });
      await waitFor(() => editorEvents.some((e) => e.subject.id === hall.id && e.state === 'completed'), "the uploader's completed event");

      // Joining the project's room brings the events of rooms others upload.
      expect(await ownerSocket.timeout(LIVE_WAIT_MS).emitWithAck('project:join', visit.id_project)).toBe(true);
      ownerEvents.length = 0;
      const third = (await api().post('/api/rooms').set(editor.auth).field('id_visit', String(visit.id)).attach('file', await equirectangular(2048, 1024), 'Roof.jpg')).body.data as RoomDto;
      await waitFor(() => ownerEvents.filter((e) => e.subject.id === third.id && e.state === 'completed').length === 2, 'the completed event in both of the owner\'s rooms');
    } finally {
      ownerSocket.close();
      editorSocket.close();
      await realtime.close();
      server.close();
      await workers.close();
    }
  });
});
