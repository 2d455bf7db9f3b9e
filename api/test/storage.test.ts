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
import { growingFileReady } from '@sitewalk/core/storage/s3-file-parts.js';
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

describe('a file still being written, sent to the bucket in parts as it grows', () => {
  const growing = async (file: string, data: Buffer, pieces: number) => {
    await fsp.writeFile(file, Buffer.alloc(0));
    const step = Math.ceil(data.length / pieces);
    for (let at = 0; at < data.length; at += step) {
      await new Promise((r) => setTimeout(r, 20));
      await fsp.appendFile(file, data.subarray(at, at + step));
    }
  };

  it('holds every byte once the last one is written, each part read from the file; a cancelled one leaves nothing behind', async () => {
    const d = bucketDriver();
    const data = crypto.randomBytes(19 * 1024 * 1024 + 123);
    const file = path.join(tmp, 'growing.bin');
    let cancelled = false;
    const ready = growingFileReady(file, { cancelled: () => cancelled, idleLimitMs: 60_000, pollMs: 10 });
    await Promise.all([d.putFileInParts('videos/growing.bin', file, data.length, ready), growing(file, data, 7)]);
    const back: Buffer[] = [];
    for await (const c of await d.readStream('videos/growing.bin')) back.push(c as Buffer);
    expect(Buffer.concat(back).equals(data)).toBe(true);

    // Cancelled after its first part: the upload fails, and the bucket holds no object under the key.
    const half = path.join(tmp, 'half.bin');
    await fsp.writeFile(half, data.subarray(0, 9 * 1024 * 1024));
    const stopped = d.putFileInParts('videos/half.bin', half, data.length, growingFileReady(half, { cancelled: () => cancelled, idleLimitMs: 60_000, pollMs: 10 }));
    setTimeout(() => (cancelled = true), 300);
    await expect(stopped).rejects.toThrow('upload cancelled');
    expect(await d.size('videos/half.bin')).toBeNull();
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

  it('a walk sent in pieces is in the bucket when its last byte is in: stored under the video key, nothing left on the API disk; a cancelled one leaves nothing', async () => {
    const { execFileSync } = await import('node:child_process');
    const { videoUploadDir } = await import('@sitewalk/core/services/video-uploads.service.js');
    const file = path.join(tmp, 'walk.mp4');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x160:rate=10', '-t', '3', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', file]);
    const bytes = await fsp.readFile(file);
    const owner = await createUser();
    const p = await newProject(owner);
    const visit = (await api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: 'Walk', date: '2026-03-02' })).body.data as { id: number };
    const tus = { 'Tus-Resumable': '1.0.0' };
    const meta = `visit_id ${Buffer.from(String(visit.id)).toString('base64')},filename ${Buffer.from('walk.mp4').toString('base64')}`;
    const send = (location: string, offset: number, piece: Buffer) =>
      api().patch(location).set(owner.auth).set(tus).set('Upload-Offset', String(offset)).set('Content-Type', 'application/offset+octet-stream').send(piece);

    const created = await api().post('/api/uploads/videos').set(owner.auth).set(tus).set('Upload-Length', String(bytes.length)).set('Upload-Metadata', meta);
    expect(created.status).toBe(201);
    const location = created.headers.location as string;
    const half = Math.floor(bytes.length / 2);
    const { logger } = await import('@sitewalk/core/logger.js');
    const said = vi.spyOn(logger, 'info');
    expect((await send(location, 0, bytes.subarray(0, half))).status).toBe(204);
    const last = await send(location, half, bytes.subarray(half));
    expect(last.status).toBe(200);
    // Sent on to the bucket while it arrived (by the mirror's thread), not copied again once complete.
    expect(said.mock.calls.some(([, msg]) => msg === 'video upload already in the bucket as it arrived')).toBe(true);
    said.mockRestore();
    const video = last.body.data as { id: number };
    const { db } = await import('@sitewalk/core/db');
    const row = (await db()('videos').where({ id: video.id }).first('file_key')) as { file_key: string };
    // The very bytes sent, in the bucket under the video's own key; the API machine's disk keeps no copy.
    const back: Buffer[] = [];
    for await (const c of await bucketDriver().readStream(row.file_key)) back.push(c as Buffer);
    expect(Buffer.concat(back).equals(bytes)).toBe(true);
    expect(fs.readdirSync(videoUploadDir()).filter((n) => location.endsWith(n.replace(/\.json$/, '')))).toEqual([]);
    expect(await storage.listFolder(row.file_key.replace(/\/source\.mp4$/, ''))).toEqual([{ key: row.file_key, size: bytes.length }]);

    // Cancelled half-way: neither the bytes on disk nor anything in the visit's folder of the bucket stays.
    const again = await api().post('/api/uploads/videos').set(owner.auth).set(tus).set('Upload-Length', String(bytes.length)).set('Upload-Metadata', meta);
    expect((await send(again.headers.location as string, 0, bytes.subarray(0, half))).status).toBe(204);
    expect((await api().delete(again.headers.location as string).set(owner.auth).set(tus)).status).toBe(204);
    const videoKeys = async () => (await storage.listFolder(row.file_key.split('/videos/')[0])).map((o) => o.key).filter((k) => k.includes('/videos/'));
    // A guard, not a measure: removing the cancelled parts can take seconds on a busy machine.
    await expect.poll(videoKeys, { timeout: 60_000 }).toEqual([row.file_key]);
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
