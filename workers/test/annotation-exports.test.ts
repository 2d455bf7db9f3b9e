import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import { parse as parseCsv } from 'csv-parse/sync';
import yauzl from 'yauzl';
import { io as connect, type Socket } from 'socket.io-client';
import { connected } from '../../test/support/socket-connected.js';
import type { AnnotationDetail, AnnotationExport, ClientToServerEvents, JobProgressEvent, ServerToClientEvents, VisitDetail } from '@sitewalk/proto';
import { Room, Sheet, closeDb, db } from '@sitewalk/core/db';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis } from '@sitewalk/core/redis.js';
import { localPath, putBuffer } from '@sitewalk/core/storage';
import { hmac } from '@sitewalk/core/secrets.js';
import { attachRealtime } from '../../api/src/realtime/index.js';
import { createApp } from '../../api/src/app.js';
import { canAccessProject } from '@sitewalk/core/services/access.service.js';
import { api, createUser, type TestUser } from '../../api/test/helpers.js';
import { addMember, newProject } from '../../api/test/project-helpers.js';
import { handlers } from '../src/jobs/index.js';
import { writeSheetImages } from '../src/adapters/pdf-page-tiles.js';
import { startWorkers, type RunningWorkers } from '../src/runner.js';
import { useOwnRedisPrefix, waitFor } from './helpers.js';
import { equirectangular, RED } from './panorama-fixtures.js';

useOwnRedisPrefix('annotation-exports');

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
let workers: RunningWorkers;
let server: http.Server;
let realtime: { close: () => Promise<void> };
const sockets: Client[] = [];

beforeAll(async () => {
  workers = startWorkers(handlers, { queues: ['exports'] });
  server = http.createServer(createApp({ serveClient: false }).callback());
  realtime = attachRealtime(server, { canJoinProject: canAccessProject });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await realtime?.close();
  server?.close();
  await workers?.close();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

async function socketOf(user: TestUser): Promise<{ events: JobProgressEvent[] }> {
  const s: Client = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { auth: { token: user.token }, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(s);
  const events: JobProgressEvent[] = [];
  s.on('job:progress', (e) => events.push(e));
  await connected(s);
  return { events };
}

interface World {
  owner: TestUser;
  assignee: TestUser;
  project: number;
  snags: AnnotationDetail[];
  stranger: TestUser;
  strangerSnag: AnnotationDetail;
}

/**
 * A project with a real sheet (tiles cut from a drawn plan) and a visit with
 * a ready room (its base panorama stored); two snags, one pinned in the room
 * and on the sheet; and someone else's project with a snag of its own.
 */
async function world(): Promise<World> {
  const owner = await createUser({ first_name: 'Sam', last_name: 'Supervisor' });
  const assignee = await createUser({ first_name: 'Rana', last_name: 'Haddad' });
  const p = await newProject(owner, { name: `Tower ${crypto.randomBytes(3).toString('hex')}` });
  await addMember(p.id, assignee, 'editor');
  const folder = `projects/${p.id}/maps/test-${crypto.randomBytes(4).toString('hex')}`;
  const plan = await sharp({ create: { width: 2000, height: 1400, channels: 3, background: { r: 255, g: 255, b: 255 } } })
    .composite([{ input: { create: { width: 200, height: 200, channels: 3, background: { r: 0, g: 0, b: 255 } } }, left: 900, top: 600 }])
    .removeAlpha()
    .raw()
    .toBuffer();
  const sheet = await writeSheetImages({ data: plan, width: 2000, height: 1400 }, localPath(folder));
  const map = await Sheet.query().insertAndFetch({ id_project: p.id, name: 'Level 3', status: 'ready', width: 2000, height: 1400, dpi: 150, tile_size: sheet.tileSize, max_zoom: sheet.maxZoom, folder });
  const v = await api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: 'Level 3 walk', date: '2026-11-20', id_map: map.id });
  expect(v.status).toBe(201);
  const visit = v.body.data as VisitDetail;
  const roomFolder = `projects/${p.id}/visits/${visit.id}/rooms/test/${crypto.randomBytes(4).toString('hex')}`;
  await putBuffer(`${roomFolder}/base.jpg`, await equirectangular(2048, 1024, [{ x: 1024 - 80, y: 512 - 80, size: 160, color: RED }]));
  const room = await Room.query().insertAndFetch({ id_visit: visit.id, name: 'Lobby', status: 'ready', folder: roomFolder, id_map: map.id, x: 950, y: 800, heading: 0, position: 0 } as Partial<Room>);

  const snag = async (user: TestUser, body: Record<string, unknown>) => {
    const res = await api().post('/api/annotations').set(user.auth).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as AnnotationDetail;
  };
  const a = await snag(owner, {
    id_visit: visit.id, id_room: room.id, yaw: 0, pitch: 0, zoom: 50, id_map: map.id, x: 1000, y: 700,
    title: 'Cracked floor tile', description: 'By the lift, two rows.', priority: 'high', id_assignee: assignee.user.id, due_date: '2026-11-24',
  });
  const moved = await api().put(`/api/annotations/${a.id}`).set(assignee.auth).send({ status: 'in_progress', comment: 'On it tomorrow' });
  expect(moved.status).toBe(200);
  const b = await snag(owner, { id_visit: visit.id, title: '=HYPERLINK("http://evil.example")', description: 'شرخ في جدار الممر' });

  const stranger = await createUser();
  const sp = await newProject(stranger);
  const sv = await api().post('/api/visits').set(stranger.auth).send({ id_project: sp.id, name: 'Other walk' });
  const strangerSnag = await snag(stranger, { id_visit: sv.body.data.id, title: 'Not yours to see' });
  return { owner, assignee, project: p.id, snags: [moved.body.data, b], stranger, strangerSnag };
}

async function finished(user: TestUser, id: number): Promise<AnnotationExport> {
  return waitFor(async () => {
    const res = await api().get(`/api/annotation-exports/${id}`).set(user.auth);
    expect(res.status).toBe(200);
    const e = res.body.data as AnnotationExport;
    return e.status === 'completed' || e.status === 'failed' ? e : null;
  }, `export ${id} to finish`, 120_000);
}

/** Downloads a link as a browser would (no bearer header unless given). */
const download = (url: string, auth?: { Authorization: string }) => {
  const req = api().get(url).buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });
  return auth ? req.set(auth) : req;
};

function unzipNames(buf: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

let w: World;
beforeAll(async () => {
  w = await world();
}, 60_000);

describe('snag-list exports', () => {
  it('makes a CSV of the snags the user sees under the filters, with live progress, downloadable through a short-lived link', async () => {
    const live = await socketOf(w.owner);
    const strangerLive = await socketOf(w.stranger);
    const start = await api().post('/api/annotation-exports').set(w.owner.auth).send({ format: 'csv', id_project: w.project, sort: 'title', order: 'asc' });
    expect(start.status).toBe(202);
    expect(start.body.data).toMatchObject({ format: 'csv', status: 'queued', download_url: null });
    const done = await finished(w.owner, start.body.data.id);
    expect(done).toMatchObject({ status: 'completed', percent: 100, total: 2, message: 'Ready' });
    expect(done.file_name).toMatch(/^snags-\d{4}-\d{2}-\d{2}-[0-9a-f]{4}\.csv$/);
    expect(done.download_url).toMatch(new RegExp(`^/api/annotation-exports/${done.id}/download\\?exp=\\d+&sig=`));
    expect(new Date(done.expires_at!).getTime()).toBeGreaterThan(Date.now());

    const res = await download(done.download_url!);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain(`attachment; filename="${done.file_name}"`);
    const rows: string[][] = parseCsv(res.body as Buffer, { bom: true });
    expect(rows).toHaveLength(3);
    expect(rows.slice(1).map((r) => r[1])).toEqual([`'${w.snags[1].title}`, 'Cracked floor tile']);
    expect(rows[2][3]).toBe('In progress');
    expect(rows[2][5]).toBe('Rana Haddad');
    expect(rows.flat().join(' ')).not.toContain('Not yours to see');

    await waitFor(() => live.events.some((e) => e.subject.kind === 'annotation-export' && e.subject.id === done.id && e.state === 'completed'), 'the completed event');
    const mine = live.events.filter((e) => e.subject.id === done.id && e.subject.kind === 'annotation-export');
    expect(mine.every((e) => e.job === 'annotations.export')).toBe(true);
    expect(mine.at(-1)).toMatchObject({ state: 'completed', percent: 100, message: 'Ready' });
    expect(strangerLive.events.filter((e) => e.subject.kind === 'annotation-export' && e.subject.id === done.id)).toEqual([]);
  });

  it('only the requester can follow or download an export: anyone else, a wrong or an expired link get 404', async () => {
    const start = await api().post('/api/annotation-exports').set(w.owner.auth).send({ format: 'csv' });
    const done = await finished(w.owner, start.body.data.id);
    expect(done.status).toBe('completed');
    // Another signed-in user: the export does not exist for them, and the requester's link refuses them.
    expect((await api().get(`/api/annotation-exports/${done.id}`).set(w.stranger.auth)).status).toBe(404);
    expect((await download(done.download_url!, w.stranger.auth)).status).toBe(404);
    expect((await download(done.download_url!, w.assignee.auth)).status).toBe(404);
    // Without a link, or with a tampered one.
    expect((await api().get(`/api/annotation-exports/${done.id}/download`).set(w.owner.auth)).status).toBe(404);
    const url = new URL(done.download_url!, 'http://x');
    const exp = url.searchParams.get('exp')!;
    expect((await download(`/api/annotation-exports/${done.id}/download?exp=${Number(exp) + 3600}&sig=${url.searchParams.get('sig')}`)).status).toBe(404);
    expect((await download(`/api/annotation-exports/${done.id + 1}/download?exp=${exp}&sig=${url.searchParams.get('sig')}`)).status).toBe(404);
    // A correctly signed link whose time is up.
    const past = Math.floor(Date.now() / 1000) - 5;
    const expired = await download(`/api/annotation-exports/${done.id}/download?exp=${past}&sig=${hmac(`annotation-export|${done.id}|${w.owner.user.id}|${past}`)}`);
    expect(expired.status).toBe(404);
    expect(JSON.parse(expired.body.toString()).message).toMatch(/expired/);
    // The requester's own link works, signed in or not.
    expect((await download(done.download_url!, w.owner.auth)).status).toBe(200);
  });

  it('refuses bad requests with a message', async () => {
    expect((await api().post('/api/annotation-exports').send({ format: 'csv' })).status).toBe(401);
    const bad = await api().post('/api/annotation-exports').set(w.owner.auth).send({ format: 'xls' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('format must be one of pdf, csv, bcf.');
    const unknown = await api().post('/api/annotation-exports').set(w.owner.auth).send({ format: 'csv', colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('colour');
    expect((await api().post('/api/annotation-exports').set(w.owner.auth).send({ format: 'csv', status: 'lost' })).status).toBe(400);
    expect((await api().get('/api/annotation-exports/abc').set(w.owner.auth)).status).toBe(404);
    expect((await api().get('/api/annotation-exports/999999999').set(w.owner.auth)).status).toBe(404);
  });

  it('makes a PDF report with a cover and a page per snag, with the 360 view and the sheet around the pin', async () => {
    const start = await api().post('/api/annotation-exports').set(w.owner.auth).send({ format: 'pdf', id_project: w.project });
    const done = await finished(w.owner, start.body.data.id);
    expect(done).toMatchObject({ status: 'completed', total: 2 });
    const res = await download(done.download_url!);
    expect(res.headers['content-type']).toBe('application/pdf');
    const doc = await PDFDocument.load(res.body as Buffer);
    expect(doc.getPageCount()).toBe(3);
    // The pinned snag's page carries its two pictures (the 360 view and the sheet crop), the other none.
    const file = path.join(os.tmpdir(), `snag-report-${done.id}.pdf`);
    await fsp.writeFile(file, res.body as Buffer);
    const imagesOn = (page: number) =>
      execFileSync('pdfimages', ['-list', '-f', String(page), '-l', String(page), file]).toString().trim().split('\n').slice(2).filter((l) => / image /.test(l)).length;
    expect([imagesOn(2), imagesOn(3)].sort()).toEqual([0, 2]);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text).toContain('Cracked floor tile');
    expect(text).toContain('On it tomorrow');
    await fsp.rm(file, { force: true });
  });

  it('makes a BCF 2.1 zip with a topic folder per snag', async () => {
    const start = await api().post('/api/annotation-exports').set(w.owner.auth).send({ format: 'bcf', id_project: w.project });
    const done = await finished(w.owner, start.body.data.id);
    expect(done.file_name).toMatch(/\.bcfzip$/);
    const res = await download(done.download_url!);
    expect(res.headers['content-type']).toBe('application/zip');
    const names = await unzipNames(res.body as Buffer);
    expect(names).toContain('bcf.version');
    expect(names.filter((n) => n.endsWith('/markup.bcf'))).toHaveLength(2);
    expect(names.filter((n) => n.endsWith('/viewpoint.bcfv'))).toHaveLength(2);
    expect(names.filter((n) => n.endsWith('/snapshot.jpg'))).toHaveLength(1);
  });

  it('an export of snags the user cannot see holds none of them', async () => {
    const start = await api().post('/api/annotation-exports').set(w.stranger.auth).send({ format: 'csv', id_project: w.project });
    const done = await finished(w.stranger, start.body.data.id);
    expect(done).toMatchObject({ status: 'completed', total: 0 });
    const rows: string[][] = parseCsv((await download(done.download_url!)).body as Buffer, { bom: true });
    expect(rows).toHaveLength(1);
  });

  it('old exports are swept with their files', async () => {
    const start = await api().post('/api/annotation-exports').set(w.stranger.auth).send({ format: 'csv' });
    const done = await finished(w.stranger, start.body.data.id);
    const row = await db()('annotation_exports').where({ id: done.id }).first();
    await db()('annotation_exports').where({ id: done.id }).update({ finished_at: new Date(Date.now() - 25 * 3600_000) });
    const { sweepExports } = await import('@sitewalk/core/services/annotation-exports.service.js');
    expect(await sweepExports()).toBeGreaterThanOrEqual(1);
    expect(await db()('annotation_exports').where({ id: done.id }).first()).toBeUndefined();
    const { exists } = await import('@sitewalk/core/storage');
    expect(await exists(row.file_key)).toBe(false);
  });
});
