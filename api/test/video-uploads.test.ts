import { execFileSync } from 'node:child_process';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoDetail, VisitDetail } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { sweepVideoUploads, videoUploadDir } from '@sitewalk/core/services/video-uploads.service.js';
import { api, createUser, testApp, type TestUser } from './helpers.js';
import { newProject } from './project-helpers.js';

/**
 * Resumable uploads (tus 1.0.0) of walk-through videos: what a browser on a
 * site connection goes through — create, send in pieces, lose the
 * connection, ask where the server stopped, carry on — and what it gets at
 * the end: the same check and the same video as the multipart upload.
 */

let dir: string;
let video: Buffer;
let server: http.Server;
let port: number;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sitewalk-tus-'));
  const file = path.join(dir, 'walk.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=256x128:rate=10', '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', file]);
  video = await fsp.readFile(file);
  // A real socket for the dropped connection (supertest cannot cut a request half-way).
  server = http.createServer(testApp().callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server?.close();
  await closeQueues();
  await closeEmitter();
  await fsp.rm(dir, { recursive: true, force: true });
});

const TUS = { 'Tus-Resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function newVisit(owner: TestUser): Promise<VisitDetail> {
  const p = await newProject(owner);
  const res = await api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: 'Walk', date: '2026-03-02' });
  expect(res.status).toBe(201);
  return res.body.data as VisitDetail;
}

/** POST: a new upload of `length` bytes for the visit; answers the response. */
const create = (who: TestUser, visitId: number | string, length: number, name = 'walk.mp4') =>
  api()
    .post('/api/uploads/videos')
    .set(who.auth)
    .set(TUS)
    .set('Upload-Length', String(length))
    .set('Upload-Metadata', `visit_id ${b64(String(visitId))},filename ${b64(name)},filetype ${b64('video/mp4')}`);

const patch = (who: TestUser, location: string, offset: number, bytes: Buffer) =>
  api()
    .patch(location)
    .set(who.auth)
    .set(TUS)
    .set('Upload-Offset', String(offset))
    .set('Content-Type', 'application/offset+octet-stream')
    .send(bytes);

const head = (who: TestUser, location: string) => api().head(location).set(who.auth).set(TUS);

/** Sends `bytes` as a PATCH on a raw socket and cuts the connection once they are written, as a dropped site link does. */
async function patchAndDrop(who: TestUser, location: string, offset: number, bytes: Buffer): Promise<void> {
  await new Promise<void>((resolve) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: location,
      method: 'PATCH',
      headers: { ...who.auth, ...TUS, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(bytes.length * 2) },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    // Half of what was announced, then the line goes.
    req.write(bytes, () => setImmediate(() => req.destroy()));
  });
}

/** HEAD until the server has settled the offset after a drop (its write ends when it notices the socket closed). */
async function settledOffset(who: TestUser, location: string, atLeast: number): Promise<number> {
  for (;;) {
    const res = await head(who, location);
    if (res.status === 200 && Number(res.headers['upload-offset']) >= atLeast) return Number(res.headers['upload-offset']);
    if (res.status !== 423 && res.status !== 200) throw new Error(`HEAD answered ${res.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const uploadRow = (id: string) => db()('video_uploads').where({ id }).first();
const idOf = (location: string) => location.split('/').pop()!;

describe('resumable video uploads (tus)', () => {
  it('takes a video in pieces, resumes after a dropped connection, checks it once and the run starts', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const created = await create(owner, visit.id, video.length);
    expect(created.status).toBe(201);
    const location = created.headers.location as string;
    // A name the server chose, never the file's.
    expect(location).toMatch(/^\/api\/uploads\/videos\/[a-f0-9]{32}$/);
    expect(location).not.toContain('walk');

    const third = Math.floor(video.length / 3);
    const first = await patch(owner, location, 0, video.subarray(0, third));
    expect(first.status).toBe(204);
    expect(Number(first.headers['upload-offset'])).toBe(third);

    // The connection drops in the middle of the second piece.
    await patchAndDrop(owner, location, third, video.subarray(third, 2 * third));
    const offset = await settledOffset(owner, location, third);
    expect(offset).toBeGreaterThanOrEqual(third);
    expect(offset).toBeLessThanOrEqual(2 * third);

    // A PATCH from the wrong place is refused without touching the file.
    expect((await patch(owner, location, 0, video.subarray(0, 10))).status).toBe(409);

    // Resume from where the server stopped: the last piece brings the checked video.
    const last = await patch(owner, location, offset, video.subarray(offset));
    expect(last.status).toBe(200);
    const v = last.body.data as VideoDetail;
    expect(v).toMatchObject({ id_visit: visit.id, kind: '360', width: 256, height: 128, original_name: 'walk.mp4', size_bytes: video.length });
    expect(v.run.status).toBe('uploaded');

    // The stored file is the uploaded one, byte for byte.
    const stored = await api().get(v.url!).buffer(true).parse((res, cb) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => cb(null, Buffer.concat(parts)));
    });
    expect(Buffer.compare(stored.body as Buffer, video)).toBe(0);

    // Asking again (a lost answer, a reopened tab) finds it complete; nothing is made twice.
    const again = await head(owner, location);
    expect(again.status).toBe(200);
    expect(Number(again.headers['upload-offset'])).toBe(video.length);
    expect(await db()('videos').where({ id_visit: visit.id }).count('* as n').first()).toMatchObject({ n: 1 });
    expect((await uploadRow(idOf(location)))?.status).toBe('accepted');
    // A finished upload is the video now: cancelling it is refused.
    expect((await api().delete(location).set(owner.auth).set(TUS)).status).toBe(409);

    const run = await api().post('/api/python/videos/process').set(owner.auth).send({ video_id: v.id });
    expect(run.status).toBe(202);
    expect(run.body.data.run.status).toBe('queued');
  });

  it('refuses a file that is not a video with a clear message and keeps nothing', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const fake = Buffer.from('These are my site notes, not a video.\n'.repeat(200));
    const created = await create(owner, visit.id, fake.length, 'notes.mp4');
    expect(created.status).toBe(201);
    const location = created.headers.location as string;
    const res = await patch(owner, location, 0, fake);
    expect(res.status).toBe(415);
    expect(JSON.parse(res.text)).toMatchObject({ status: 'error', message: expect.stringMatching(/not a video/i) });
    expect((await api().get(`/api/visits/${visit.id}/video`).set(owner.auth)).body.data).toBeNull();
    expect(await uploadRow(idOf(location))).toBeUndefined();
    await expect(fsp.access(path.join(videoUploadDir(), idOf(location)))).rejects.toThrow();
    expect((await head(owner, location)).status).toBe(404);
  });

  it("answers 404 to another user for the visit and for someone else's upload", async () => {
    const owner = await createUser();
    const other = await createUser();
    const visit = await newVisit(owner);
    const refused = await create(other, visit.id, video.length);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toMatch(/not found/i);

    const location = (await create(owner, visit.id, video.length)).headers.location as string;
    expect((await head(other, location)).status).toBe(404);
    expect((await patch(other, location, 0, video.subarray(0, 100))).status).toBe(404);
    expect((await api().delete(location).set(other.auth).set(TUS)).status).toBe(404);
    // The owner's upload is untouched.
    expect(Number((await head(owner, location)).headers['upload-offset'])).toBe(0);
  });

  it('refuses a file over VIDEO_MAX_BYTES with 413 and a sentence, before a byte is sent', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const before = process.env.VIDEO_MAX_BYTES;
    process.env.VIDEO_MAX_BYTES = '4096';
    try {
      const res = await create(owner, visit.id, 5000);
      expect(res.status).toBe(413);
      expect(res.body.message).toMatch(/too large\. The limit is/i);
    } finally {
      if (before === undefined) delete process.env.VIDEO_MAX_BYTES;
      else process.env.VIDEO_MAX_BYTES = before;
    }
    const noLength = await api().post('/api/uploads/videos').set(owner.auth).set(TUS).set('Upload-Metadata', `visit_id ${b64(String(visit.id))}`);
    expect(noLength.status).toBe(400);
    expect(noLength.body.message).toMatch(/Upload-Length/);
    const noVisit = await api().post('/api/uploads/videos').set(owner.auth).set(TUS).set('Upload-Length', '100');
    expect(noVisit.status).toBe(400);
    expect(noVisit.body.message).toMatch(/visit_id/);
    expect((await api().post('/api/uploads/videos').set(TUS).set('Upload-Length', '100')).status).toBe(401);
  });

  it('cancels an upload: what was received is removed', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const location = (await create(owner, visit.id, video.length)).headers.location as string;
    expect((await patch(owner, location, 0, video.subarray(0, 1000))).status).toBe(204);
    const del = await api().delete(location).set(owner.auth).set(TUS);
    expect(del.status).toBe(204);
    expect(await uploadRow(idOf(location))).toBeUndefined();
    await expect(fsp.access(path.join(videoUploadDir(), idOf(location)))).rejects.toThrow();
    expect((await head(owner, location)).status).toBe(404);
  });

  it('sweeps uploads abandoned longer than the expiry, and keeps those still arriving', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const stale = (await create(owner, visit.id, video.length)).headers.location as string;
    const fresh = (await create(owner, visit.id, video.length)).headers.location as string;
    await patch(owner, stale, 0, video.subarray(0, 500));
    // The stale one's last byte arrived two days ago.
    const old = new Date(Date.now() - 48 * 3600_000);
    await db()('video_uploads').where({ id: idOf(stale) }).update({ updated_at: old });
    await fsp.utimes(path.join(videoUploadDir(), idOf(stale)), old, old);
    await sweepVideoUploads();
    expect(await uploadRow(idOf(stale))).toBeUndefined();
    await expect(fsp.access(path.join(videoUploadDir(), idOf(stale)))).rejects.toThrow();
    expect(await uploadRow(idOf(fresh))).toBeDefined();
    expect((await head(owner, fresh)).status).toBe(200);
  });
});
