import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SECRET_PLACEHOLDER } from '@sitewalk/proto';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { config } from '@sitewalk/core/config.js';
import * as storage from '@sitewalk/core/storage';
import { copyStorage } from '@sitewalk/core/storage/copy.js';
import type { StorageDriver } from '@sitewalk/core/storage/driver.js';
import { localDriver } from '@sitewalk/core/storage/local-driver.js';
import { s3Driver } from '@sitewalk/core/storage/s3-driver.js';
import { startS3StandIn, type S3StandIn } from '../../test/support/s3-stand-in.js';
import { api, createUser } from './helpers.js';
import { lockSettings } from './settings-lock.js';
import { newProject } from './project-helpers.js';

let s3: S3StandIn;
let tmp: string;
const bucketDriver = () =>
  s3Driver({ type: 'custom', bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });

beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'sitewalk-storage-test-'));
  s3 = await startS3StandIn(path.join(tmp, 's3'), 'storage-test');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  storage.refreshStorage();
  await s3.close();
  await fsp.rm(tmp, { recursive: true, force: true });
  await closeQueues();
  await closeEmitter();
});

const text = async (r: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
};
const keysOf = async (d: StorageDriver, folder: string) => {
  const out: string[] = [];
  for await (const o of d.list(folder)) out.push(o.key);
  return out.sort();
};

describe.each([
  ['local disk', () => localDriver(path.join(tmp, 'disk'))],
  ['S3', bucketDriver],
])('the %s driver', (_name, make) => {
  it('stores, reads, sizes, lists and removes files and whole folders', async () => {
    const d = make();
    await d.putBuffer('projects/1/a.txt', Buffer.from('alpha'));
    await d.putStream('projects/1/sub/b.txt', Readable.from([Buffer.from('be'), Buffer.from('ta')]));
    const src = path.join(tmp, `upload-${d.kind}.bin`);
    await fsp.writeFile(src, 'gamma');
    await d.moveFile('projects/2/c.txt', src);
    expect(fs.existsSync(src)).toBe(false);
    expect(await text(await d.readStream('projects/1/sub/b.txt'))).toBe('beta');
    expect([await d.size('projects/1/a.txt'), await d.size('projects/1/none.txt')]).toEqual([5, null]);
    expect(await keysOf(d, 'projects/1')).toEqual(['projects/1/a.txt', 'projects/1/sub/b.txt']);
    await d.remove('projects/1');
    await d.remove('projects/9/never-there.txt');
    expect(await keysOf(d, 'projects')).toEqual(['projects/2/c.txt']);
  });

  it('streams a file larger than one upload part (multipart on S3) intact', async () => {
    const d = make();
    const big = Buffer.alloc(19 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    const parts = [big.subarray(0, 7_000_000), big.subarray(7_000_000)];
    await d.putStream('videos/big.bin', Readable.from(parts));
    expect(await d.size('videos/big.bin')).toBe(big.length);
    const back: Buffer[] = [];
    for await (const c of await d.readStream('videos/big.bin')) back.push(c as Buffer);
    expect(Buffer.concat(back).equals(big)).toBe(true);
  });
});

describe('a file on disk moved into the bucket in parts read from the file', () => {
  it('holds every byte, and the file on disk is gone', async () => {
    const d = bucketDriver();
    const data = crypto.randomBytes(19 * 1024 * 1024 + 123);
    const file = path.join(tmp, 'walk-on-disk.bin');
    await fsp.writeFile(file, data);
    await d.moveFile('videos/moved.bin', file);
    const back: Buffer[] = [];
    for await (const c of await d.readStream('videos/moved.bin')) back.push(c as Buffer);
    expect(Buffer.concat(back).equals(data)).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
  });
});

/** Within the calling describe block, this process stores its files in the stand-in bucket. */
function storesInTheBucket() {
  beforeAll(() => {
    vi.stubEnv('STORAGE_DRIVER', 's3');
    for (const [k, v] of Object.entries(s3.env)) vi.stubEnv(k, v);
    storage.refreshStorage();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    storage.refreshStorage();
  });
}

describe('tools on S3: scratch folders', () => {
  storesInTheBucket();
  const scratchLeft = () => (fs.existsSync(config.scratchDir) ? fs.readdirSync(config.scratchDir).filter((n) => n.startsWith(`job-${process.pid}-`)) : []);

  it('a work folder is fetched, changed on disk, and only its changes go back; the scratch folder is removed', async () => {
    await storage.putBuffer('work/v1/keep.txt', Buffer.from('keep'));
    await storage.putBuffer('work/v1/change.txt', Buffer.from('old'));
    await storage.putBuffer('work/v1/gone/x.txt', Buffer.from('x'));
    const seen = await storage.withLocalFolder(
      'work/v1',
      async (dir) => {
        const before = await fsp.readFile(path.join(dir, 'change.txt'), 'utf8');
        await fsp.writeFile(path.join(dir, 'change.txt'), 'new!');
        await fsp.rm(path.join(dir, 'gone'), { recursive: true });
        await fsp.mkdir(path.join(dir, 'made', '.staging-1'), { recursive: true });
        await fsp.writeFile(path.join(dir, 'made', 'y.txt'), 'y');
        await fsp.writeFile(path.join(dir, 'made', '.staging-1', 'half.txt'), 'half');
        return before;
      },
      { read: true },
    );
    expect(seen).toBe('old');
    expect((await storage.listFolder('work/v1')).map((o) => o.key).sort()).toEqual(['work/v1/change.txt', 'work/v1/keep.txt', 'work/v1/made/y.txt']);
    expect((await storage.readBuffer('work/v1/change.txt')).toString()).toBe('new!');
    expect(scratchLeft()).toEqual([]);
  });

  it('a tool that fails uploads nothing and leaves no scratch folder', async () => {
    await expect(
      storage.withLocalFolder('work/v2', async (dir) => {
        await fsp.writeFile(path.join(dir, 'partial.txt'), 'p');
        throw new Error('ffmpeg died');
      }),
    ).rejects.toThrow('ffmpeg died');
    expect(await storage.listFolder('work/v2')).toEqual([]);
    await storage.putBuffer('work/v3/in.txt', Buffer.from('input'));
    expect(await storage.withLocalFile('work/v3/in.txt', (p) => fsp.readFile(p, 'utf8'))).toBe('input');
    expect(scratchLeft()).toEqual([]);
  });

  it('a signed file URL answers with a redirect to a presigned GET of the bucket; a bad signature is 404', async () => {
    await storage.putBuffer('avatars/1/face.txt', Buffer.from('hello'));
    const url = storage.signedUrl('avatars/1/face.txt')!;
    const res = await api().get(url).redirects(0);
    expect(res.status).toBe(302);
    const presigned = new URL(res.headers.location!);
    expect(presigned.origin).toBe(s3.endpoint);
    expect(presigned.searchParams.get('X-Amz-Signature')).toBeTruthy();
    const got = await fetch(presigned);
    expect([got.status, await got.text()]).toEqual([200, 'hello']);
    expect((await api().get(url.replace(/sig=[^&]+/, 'sig=bad')).redirects(0)).status).toBe(404);
  });
});

describe('resumable video uploads with the files in a bucket', () => {
  storesInTheBucket();

  it('a walk is received straight into the bucket under the video key, resumed after a dropped piece from the parts the bucket holds, with nothing on the API disk; a cancelled one leaves nothing', async () => {
    const { execFileSync } = await import('node:child_process');
    const { videoUploadDir, BUCKET_PART_BYTES } = await import('@sitewalk/core/services/video-uploads.service.js');
    // Noise, coded without loss: a real video of more than two parts.
    const file = path.join(tmp, 'walk.mp4');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'nullsrc=s=640x320:r=20,geq=random(1)*255:128:128', '-t', '4', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', file]);
    const bytes = await fsp.readFile(file);
    expect(bytes.length).toBeGreaterThan(2 * BUCKET_PART_BYTES);
    const owner = await createUser();
    const p = await newProject(owner);
    const visit = (await api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: 'Walk', date: '2026-03-02' })).body.data as { id: number };
    const tus = { 'Tus-Resumable': '1.0.0' };
    const meta = `visit_id ${Buffer.from(String(visit.id)).toString('base64')},filename ${Buffer.from('walk.mp4').toString('base64')}`;
    const send = (location: string, offset: number, piece: Buffer) =>
      api().patch(location).set(owner.auth).set(tus).set('Upload-Offset', String(offset)).set('Content-Type', 'application/offset+octet-stream').send(piece);
    const onApiDisk = () => (fs.existsSync(videoUploadDir()) ? fs.readdirSync(videoUploadDir()) : []);

    const created = await api().post('/api/uploads/videos').set(owner.auth).set(tus).set('Upload-Length', String(bytes.length)).set('Upload-Metadata', meta);
    expect(created.status).toBe(201);
    const location = created.headers.location as string;
    // A piece that stops inside the second part, as a dropped connection does: only the whole first part is kept.
    const first = await send(location, 0, bytes.subarray(0, BUCKET_PART_BYTES + 1000));
    expect(first.status).toBe(204);
    expect(first.headers['upload-offset']).toBe(String(BUCKET_PART_BYTES));
    expect(onApiDisk()).toEqual([]);
    // The offset comes from the upload's row and the bucket, not from this process: any API machine answers the same.
    const head = await api().head(location).set(owner.auth).set(tus);
    expect(head.headers['upload-offset']).toBe(String(BUCKET_PART_BYTES));
    const last = await send(location, BUCKET_PART_BYTES, bytes.subarray(BUCKET_PART_BYTES));
    expect(last.status).toBe(200);
    const video = last.body.data as { id: number; duration: number };
    expect(video.duration).toBeCloseTo(4, 0);
    const { db } = await import('@sitewalk/core/db');
    const row = (await db()('videos').where({ id: video.id }).first('file_key')) as { file_key: string };
    // The very bytes sent, in the bucket under the video's own key; the API machine's disk never held them.
    const back: Buffer[] = [];
    for await (const c of await bucketDriver().readStream(row.file_key)) back.push(c as Buffer);
    expect(Buffer.concat(back).equals(bytes)).toBe(true);
    expect(onApiDisk()).toEqual([]);
    expect(await storage.listFolder(row.file_key.replace(/\/source\.mp4$/, ''))).toEqual([{ key: row.file_key, size: bytes.length }]);

    // Cancelled after a part: nothing in the visit's folder of the bucket stays, and the upload is gone.
    const again = await api().post('/api/uploads/videos').set(owner.auth).set(tus).set('Upload-Length', String(bytes.length)).set('Upload-Metadata', meta);
    const againLocation = again.headers.location as string;
    expect((await send(againLocation, 0, bytes.subarray(0, BUCKET_PART_BYTES))).status).toBe(204);
    expect((await api().delete(againLocation).set(owner.auth).set(tus)).status).toBe(204);
    expect((await api().head(againLocation).set(owner.auth).set(tus)).status).toBe(404);
    const videoKeys = async () => (await storage.listFolder(row.file_key.split('/videos/')[0])).map((o) => o.key).filter((k) => k.includes('/videos/'));
    expect(await videoKeys()).toEqual([row.file_key]);

    // A file that is not a video, received whole: refused by its content, and nothing of it stays in the bucket.
    const text = Buffer.alloc(BUCKET_PART_BYTES + 5000, 'not a video ');
    const fake = await api().post('/api/uploads/videos').set(owner.auth).set(tus).set('Upload-Length', String(text.length)).set('Upload-Metadata', meta);
    const refused = await send(fake.headers.location as string, 0, text);
    expect(refused.status).toBe(415);
    expect(JSON.parse(refused.text)).toMatchObject({ status: 'error', message: expect.stringMatching(/not a video/i) });
    expect(await videoKeys()).toEqual([row.file_key]);
  });
});

describe('abandoned uploads in the bucket', () => {
  storesInTheBucket();

  it('are swept with what the bucket took once quiet for the whole expiry; one still arriving stays', async () => {
    const { sweepVideoUploads } = await import('@sitewalk/core/services/video-uploads.service.js');
    const { db } = await import('@sitewalk/core/db');
    const owner = await createUser();
    const p = await newProject(owner);
    const visit = (await api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: 'Walk', date: '2026-03-02' })).body.data as { id: number };
    const tus = { 'Tus-Resumable': '1.0.0' };
    const meta = `visit_id ${Buffer.from(String(visit.id)).toString('base64')},filename ${Buffer.from('walk.mp4').toString('base64')}`;
    const start = async () => (await api().post('/api/uploads/videos').set(owner.auth).set(tus).set('Upload-Length', String(20 * 1024 * 1024)).set('Upload-Metadata', meta)).headers.location as string;
    const stale = await start();
    const fresh = await start();
    const piece = crypto.randomBytes(8 * 1024 * 1024);
    for (const at of [stale, fresh]) {
      const sent = await api().patch(at).set(owner.auth).set(tus).set('Upload-Offset', '0').set('Content-Type', 'application/offset+octet-stream').send(piece);
      expect(sent.headers['upload-offset']).toBe(String(piece.length));
    }
    const idOf = (at: string) => at.split('/').pop()!;
    await db()('video_uploads').where({ id: idOf(stale) }).update({ updated_at: new Date(Date.now() - 48 * 3600_000) });
    await sweepVideoUploads();
    expect((await api().head(stale).set(owner.auth).set(tus)).status).toBe(404);
    expect(await db()('video_upload_parts').where({ id_upload: idOf(stale) }).first()).toBeUndefined();
    const kept = await api().head(fresh).set(owner.auth).set(tus);
    expect(kept.status).toBe(200);
    expect(kept.headers['upload-offset']).toBe(String(piece.length));
  });
});

describe('copying between the disk and the bucket', () => {
  it('copies every file, verified; a second run copies nothing; a damaged copy is copied again; and back to disk', async () => {
    const disk = localDriver(path.join(tmp, 'copy-disk'));
    const bucket = bucketDriver();
    await disk.putBuffer('projects/5/a.txt', Buffer.from('one'));
    await disk.putBuffer('projects/5/maps/7/tiles/0/0/0.jpg', Buffer.from('tile'));
    await disk.putBuffer('videos/3/work/.process-1/half.jpg', Buffer.from('staging'));
    const manifest = path.join(tmp, 'copy.jsonl');
    const first = await copyStorage(disk, bucket, { folder: '', manifest });
    expect([first.total, first.copied, first.skipped, first.failed]).toEqual([2, 2, 0, []]);
    expect(await keysOf(bucket, 'projects/5')).toEqual(['projects/5/a.txt', 'projects/5/maps/7/tiles/0/0/0.jpg']);
    expect(await keysOf(bucket, 'videos/3')).toEqual([]);

    const again = await copyStorage(disk, bucket, { manifest });
    expect([again.copied, again.skipped]).toEqual([0, 2]);

    // Same size, other bytes: found by the checksum once the manifest is forgotten.
    await bucket.putBuffer('projects/5/a.txt', Buffer.from('owe'));
    const fresh = await copyStorage(disk, bucket, {});
    expect([fresh.copied, fresh.skipped]).toEqual([1, 1]);
    expect(await text(await bucket.readStream('projects/5/a.txt'))).toBe('one');

    const back = localDriver(path.join(tmp, 'copy-back'));
    const home = await copyStorage(bucket, back, { folder: 'projects/5' });
    expect([home.copied, home.failed]).toEqual([2, []]);
    expect(await text(await back.readStream('projects/5/maps/7/tiles/0/0/0.jpg'))).toBe('tile');
  });
});

describe('Storage settings', () => {
  it('"Test storage" writes, reads and deletes a file, and says in words what failed; only super admins may run it', async () => {
    const admin = await createUser({ super_admin: true });
    const user = await createUser();
    const good = { aws_s3_type: 'custom', aws_s3_endpoint: s3.endpoint, aws_s3_bucket: s3.bucket, aws_s3_key: s3.accessKeyId, aws_s3_secret: s3.secretAccessKey };
    const ok = await api().post('/api/settings/storage-check').set(admin.auth).send(good);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ ok: true, step: null, message: `The bucket "${s3.bucket}" works: a file was written, read back and deleted.` });
    expect(await keysOf(bucketDriver(), 'sitewalk-storage-check')).toEqual([]);

    const noBucket = await api().post('/api/settings/storage-check').set(admin.auth).send({ ...good, aws_s3_bucket: 'missing-bucket' });
    expect(noBucket.body.data).toMatchObject({ ok: false, step: 'write', message: `Writing a test file to the bucket failed: the bucket "missing-bucket" does not exist on ${s3.endpoint}.` });

    const closed = await api().post('/api/settings/storage-check').set(admin.auth).send({ ...good, aws_s3_endpoint: 'http://127.0.0.1:9' });
    expect(closed.body.data).toMatchObject({ ok: false, step: 'write', message: 'Writing a test file to the bucket failed: nothing answers at http://127.0.0.1:9 (connection refused).' });

    const incomplete = await api().post('/api/settings/storage-check').set(admin.auth).send({ aws_s3_type: 'custom', aws_s3_endpoint: '' });
    expect(incomplete.body.data).toMatchObject({ ok: false, step: 'settings' });

    const bad = await api().post('/api/settings/storage-check').set(admin.auth).send({ aws_s3_type: 'ftp' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/aws_s3_type must be empty \(local disk\), aws, r2 or custom\./);
    expect((await api().post('/api/settings/storage-check').set(user.auth).send(good)).status).toBe(403);
  });

  it('switching on the bucket stores new files there (the secret sealed and never shown); incomplete settings are refused', async () => {
    const lock = await lockSettings();
    // This test process follows the settings; the others in the run keep the driver of their environment.
    vi.stubEnv('STORAGE_DRIVER', '');
    try {
      const admin = await createUser({ super_admin: true });
      const refused = await api().put('/api/settings').set(admin.auth).send({ aws_s3_type: 'custom', aws_s3_endpoint: s3.endpoint, aws_s3_vt_auto: true });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Files cannot be stored in the bucket yet: The bucket name is missing.');

      await lock.set({ aws_s3_key: '', aws_s3_secret: '' });
      const saved = await api()
        .put('/api/settings')
        .set(admin.auth)
        .send({ aws_s3_type: 'custom', aws_s3_endpoint: s3.endpoint, aws_s3_bucket: s3.bucket, aws_s3_key: s3.accessKeyId, aws_s3_secret: s3.secretAccessKey, aws_s3_vt_auto: true });
      expect(saved.status).toBe(200);
      expect(saved.body.data.aws_s3_secret).toBe(SECRET_PLACEHOLDER);
      expect(JSON.stringify((await api().get('/api/settings')).body)).not.toContain(s3.secretAccessKey);
      const { db } = await import('@sitewalk/core/db');
      const row = await db()('settings').where({ key: 'aws_s3_secret' }).first('value');
      expect(JSON.stringify(row.value)).not.toContain(s3.secretAccessKey);

      const owner = await createUser();
      const p = await newProject(owner);
      const sharp = (await import('sharp')).default;
      const jpeg = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#336699' } }).jpeg().toBuffer();
      const up = await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).attach('file', jpeg, 'cover.jpg');
      expect(up.status).toBe(200);
      const key = decodeURIComponent(new URL(up.body.data.cover_url, 'http://x').pathname.replace(/^\/api\/files\//, ''));
      expect(await bucketDriver().size(key)).toBeGreaterThan(0);
      expect(fs.existsSync(storage.localPath(key))).toBe(false);
      const shown = await api().get(up.body.data.cover_url).redirects(1);
      expect([shown.status, shown.headers['content-type']]).toEqual([200, 'image/webp']);
    } finally {
      vi.unstubAllEnvs();
      await lock.set({ aws_s3_vt_auto: false });
      await lock.release();
      storage.refreshStorage();
    }
  });
});
