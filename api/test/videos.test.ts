import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobOf, VideoDetail, VisitDetail } from '@sitewalk/proto';
import { MESSAGES } from '@sitewalk/proto';
import { Room, db } from '@sitewalk/core/db';
import { closeQueues, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { exists, putBuffer } from '@sitewalk/core/storage';
import { isStored } from '../../test/support/stored.js';
import { LOST_JOB_REASON, moveRun } from '@sitewalk/core/services/video-run.service.js';
import { api, createUser, type TestUser } from './helpers.js';
import { addMember, newProject } from './project-helpers.js';

let dir: string;
/** A 2-second 256 × 128 (2:1, so "360") test-pattern video, and a flat 160 × 120 one; tiny, made once. */
let video360: string;
let videoFlat: string;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sitewalk-videos-'));
  video360 = path.join(dir, 'walk.mp4');
  videoFlat = path.join(dir, 'flat.mp4');
  const make = (size: string, out: string) =>
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=10`, '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', out]);
  make('256x128', video360);
  make('160x120', videoFlat);
});

afterAll(async () => {
  await closeQueues();
  await closeEmitter();
  await fsp.rm(dir, { recursive: true, force: true });
});

async function newVisit(owner: TestUser): Promise<VisitDetail> {
  const p = await newProject(owner);
  const res = await api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: 'Walk', date: '2026-03-02' });
  expect(res.status).toBe(201);
  return res.body.data as VisitDetail;
}

const upload = (owner: TestUser | null, visitId: number, file: string, name = path.basename(file)) => {
  const req = api().post(`/api/visits/${visitId}/video`);
  if (owner) req.set(owner.auth);
  return req.attach('file', file, name);
};

describe('POST /visits/{id}/video', () => {
  it('keeps a real video, reads it with ffprobe and answers the run a reload shows', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const res = await upload(owner, visit.id, video360);
    expect(res.status).toBe(201);
    const v = res.body.data as VideoDetail;
    expect(v).toMatchObject({ id_visit: visit.id, kind: '360', width: 256, height: 128, codec: 'h264', rotation: 0, original_name: 'walk.mp4', can_edit: true });
    expect(v.duration).toBeGreaterThan(1.8);
    expect(v.fps).toBeCloseTo(10, 0);
    expect(v.url).toMatch(/^\/api\/files\/projects\/\d+\/visits\/\d+\/videos\/.+\/source\.mp4\?exp=/);
    expect(v.run).toMatchObject({ status: 'uploaded', generation: 0, step: null, error: null });
    expect(v.run.steps.map((s) => [s.step, s.status])).toEqual([
      ['process', 'pending'],
      ['generate-ply', 'pending'],
      ['project-points', 'pending'],
      ['confirm-projection', 'pending'],
    ]);
    const again = await api().get(`/api/visits/${visit.id}/video`).set(owner.auth);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: v.id, run: { status: 'uploaded' } });
    // The signed URL serves the stored file.
    const file = await api().get(v.url!);
    expect(file.status).toBe(200);
    expect(Number(file.headers['content-length'])).toBe(fs.statSync(video360).size);
  });

  it('says "flat" for a video that is not 2:1', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const res = await upload(owner, visit.id, videoFlat);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'flat', width: 160, height: 120 });
  });

  it('refuses a text file renamed .mp4 with 415 and a clear message, and keeps nothing', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const fake = path.join(dir, 'notes.mp4');
    await fsp.writeFile(fake, 'These are my site notes, not a video.\n'.repeat(200));
    const res = await upload(owner, visit.id, fake);
    expect(res.status).toBe(415);
    expect(res.body.status).toBe('error');
    expect(res.body.message).toMatch(/not a video/i);
    expect((await api().get(`/api/visits/${visit.id}/video`).set(owner.auth)).body.data).toBeNull();
  });

  it('refuses a cut-off video with 422 saying why', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const cut = path.join(dir, 'cut.mp4');
    const whole = await fsp.readFile(video360);
    await fsp.writeFile(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const res = await upload(owner, visit.id, cut);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/cannot be read|cut off|damaged/i);
  });

  it('refuses a file over VIDEO_MAX_BYTES with 413', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const before = process.env.VIDEO_MAX_BYTES;
    process.env.VIDEO_MAX_BYTES = '4096';
    try {
      const res = await upload(owner, visit.id, video360);
      expect(res.status).toBe(413);
      expect(res.body.message).toMatch(/too large/i);
    } finally {
      if (before === undefined) delete process.env.VIDEO_MAX_BYTES;
      else process.env.VIDEO_MAX_BYTES = before;
    }
  });

  it('answers 401 without sign-in, 404 for another user\'s visit, 403 for a member who may only look', async () => {
    const owner = await createUser();
    const other = await createUser();
    const viewer = await createUser();
    const visit = await newVisit(owner);
    await addMember(visit.id_project, viewer, 'viewer');
    expect((await upload(null, visit.id, video360)).status).toBe(401);
    const foreign = await upload(other, visit.id, video360);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Visit not found.');
    expect((await api().get(`/api/visits/${visit.id}/video`).set(other.auth)).status).toBe(404);
    expect((await api().delete(`/api/visits/${visit.id}/video/delete`).set(other.auth)).status).toBe(404);
    expect((await upload(viewer, visit.id, video360)).status).toBe(403);
    expect((await api().get(`/api/visits/${visit.id}/video`).set(viewer.auth)).status).toBe(200);
  });
});

/** A room the (pretend) confirm step made from the video, with a file. */
async function roomFromVideo(visit: VisitDetail, videoId: number, keyframe: number): Promise<Room> {
  const key = `projects/${visit.id_project}/visits/${visit.id}/originals/video-${videoId}-kf${keyframe}.jpg`;
  await putBuffer(key, Buffer.from('jpeg'));
  const [row] = await db()('rooms')
    .insert({ id_visit: visit.id, id_video: videoId, video_keyframe: keyframe, name: `Video ${keyframe}`, status: 'ready', file_key: key, osfm_cluster: 0 })
    .returning('*');
  return row as Room;
}

describe('replacing and deleting a video', () => {
  it('uploading again replaces the video, its files and the rooms made from it; other rooms stay', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const first = (await upload(owner, visit.id, video360)).body.data as VideoDetail;
    const made = await roomFromVideo(visit, first.id, 0);
    const [photo] = await db()('rooms').insert({ id_visit: visit.id, name: 'Uploaded photo', status: 'ready' }).returning('*');
    const firstFile = decodeURIComponent(first.url!.split('?')[0].replace('/api/files/', ''));
    expect(await exists(firstFile)).toBe(true);

    const second = (await upload(owner, visit.id, videoFlat)).body.data as VideoDetail;
    expect(second.id).not.toBe(first.id);
    expect(second.kind).toBe('flat');
    expect(await Room.query().findById(made.id)).toBeUndefined();
    expect(await exists(made.file_key!)).toBe(false);
    expect(await Room.query().findById(photo.id)).toBeDefined();
    expect(await exists(firstFile)).toBe(false);
    expect(await db()('video_runs').where({ id_video: first.id }).first()).toBeUndefined();
  });

  it('DELETE removes the video, its run, its files and its rooms (with their hotspots); then there is none', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const v = (await upload(owner, visit.id, video360)).body.data as VideoDetail;
    const a = await roomFromVideo(visit, v.id, 0);
    const b = await roomFromVideo(visit, v.id, 1);
    await db()('room_hotspots').insert({ id_room: a.id, id_room_target: b.id, yaw: 0, pitch: 0 });
    const workFile = `${decodeURIComponent(v.url!.split('?')[0].replace('/api/files/', '')).replace(/source\.mp4$/, '')}work/rooms/0000.jpg`;
    await putBuffer(workFile, Buffer.from('frame'));

    const res = await api().delete(`/api/visits/${visit.id}/video/delete`).set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id_visit: visit.id, id_video: v.id, rooms_removed: 2 });
    expect(await db()('videos').where({ id: v.id }).first()).toBeUndefined();
    expect(await db()('video_runs').where({ id_video: v.id }).first()).toBeUndefined();
    expect(await db()('rooms').whereIn('id', [a.id, b.id])).toEqual([]);
    expect(await db()('room_hotspots').where({ id_room: a.id })).toEqual([]);
    expect(await exists(workFile)).toBe(false);
    expect(await isStored(a.file_key!)).toBe(false);
    expect((await api().get(`/api/visits/${visit.id}/video`).set(owner.auth)).body.data).toBeNull();
    const twice = await api().delete(`/api/visits/${visit.id}/video/delete`).set(owner.auth);
    expect(twice.status).toBe(404);
    expect(twice.body.message).toBe('This visit has no video.');
  });
});

describe('the processing calls', () => {
  it('process queues the first step of a new generation; the run says so; a restart starts generation 2', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const v = (await upload(owner, visit.id, video360)).body.data as VideoDetail;
    const res = await api().post('/api/python/videos/process').set(owner.auth).send({ video_id: v.id });
    expect(res.status).toBe(202);
    expect(res.body.data.run).toMatchObject({ status: 'queued', step: 'process', generation: 1 });
    expect(res.body.data.run.steps[0]).toMatchObject({ step: 'process', status: 'queued' });
    const jobs = (await queue('video').getJobs(['waiting', 'delayed', 'active'])).filter((j) => j && (j.data as JobOf<'video.process'>).id_video === v.id);
    expect(jobs.map((j) => [j.name, j.data.generation])).toEqual([['video.process', 1]]);

    const again = await api().post('/api/python/videos/process').set(owner.auth).send({ video_id: v.id });
    expect(again.body.data.run.generation).toBe(2);
    // A job of generation 1 may no longer move the run.
    expect(await moveRun(v.id, 1, { type: 'active', step: 'process' })).toBeNull();
    const read = (await api().get(`/api/visits/${visit.id}/video`).set(owner.auth)).body.data as VideoDetail;
    expect(read.run).toMatchObject({ status: 'queued', generation: 2 });
  });

  it('a reload mid-run shows the step, its percent and message; a failure shows the SPEC §8 title and the reason', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const v = (await upload(owner, visit.id, video360)).body.data as VideoDetail;
    await api().post('/api/python/videos/process').set(owner.auth).send({ video_id: v.id });
    await moveRun(v.id, 1, { type: 'active', step: 'process' });
    await moveRun(v.id, 1, { type: 'progress', step: 'process', percent: 42, message: 'Finding where the camera moved (1 s of 2 s)' });
    let run = ((await api().get(`/api/visits/${visit.id}/video`).set(owner.auth)).body.data as VideoDetail).run;
    expect(run).toMatchObject({ status: 'running', step: 'process', percent: 42, message: 'Finding where the camera moved (1 s of 2 s)' });
    expect(run.steps[0]).toMatchObject({ status: 'active', percent: 42, attempts: 1 });
    await moveRun(v.id, 1, { type: 'failed', step: 'process', reason: 'The camera hardly moves in this video.' });
    run = ((await api().get(`/api/visits/${visit.id}/video`).set(owner.auth)).body.data as VideoDetail).run;
    expect(run).toMatchObject({ status: 'failed', step: 'process', error: { step: 'process', title: MESSAGES.processVideoFailed, reason: 'The camera hardly moves in this video.' } });
    expect(run.finished_at).not.toBeNull();
  });

  it('a step whose job the queue gave up (a worker died too often) shows as failed on the next read, not "running" for ever', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const v = (await upload(owner, visit.id, video360)).body.data as VideoDetail;
    await api().post('/api/python/videos/process').set(owner.auth).send({ video_id: v.id });
    await moveRun(v.id, 1, { type: 'active', step: 'process' });
    // Still quiet for only a moment: the job is not even looked up.
    const [job] = (await queue('video').getJobs(['waiting', 'delayed', 'active'])).filter((j) => j && j.data.id_video === v.id);
    await job.remove();
    expect(((await api().get(`/api/visits/${visit.id}/video`).set(owner.auth)).body.data as VideoDetail).run.status).toBe('running');
    await db()('video_runs').where({ id_video: v.id }).update({ updated_at: new Date(Date.now() - 5 * 60_000) });
    const run = ((await api().get(`/api/visits/${visit.id}/video`).set(owner.auth)).body.data as VideoDetail).run;
    expect(run).toMatchObject({ status: 'failed', error: { step: 'process', title: MESSAGES.processVideoFailed, reason: LOST_JOB_REASON } });
  });

  it('refuses steps out of order with 409 and bad bodies with 400', async () => {
    const owner = await createUser();
    const visit = await newVisit(owner);
    const v = (await upload(owner, visit.id, video360)).body.data as VideoDetail;
    const ply = await api().post('/api/python/videos/generate-ply').set(owner.auth).send({ video_id: v.id, visit_id: visit.id });
    expect(ply.status).toBe(409);
    expect(ply.body.message).toMatch(/Process the video first/);
    const map = (await api().post('/api/maps').set(owner.auth).send({ id_project: visit.id_project, name: 'Ground floor' })).body.data;
    const proj = await api()
      .post('/api/python/videos/project-points')
      .set(owner.auth)
      .send({ id_map: map.id, id_visit: visit.id, osfmCluster: 0, imageWidth: 1000, imageHeight: 800 });
    expect(proj.status).toBe(409);
    const confirm = await api().post('/api/python/videos/confirm-projection').set(owner.auth).send({ id_map: map.id, id_visit: visit.id, osfmCluster: 0 });
    expect(confirm.status).toBe(409);
    expect((await api().post('/api/python/videos/process').set(owner.auth).send({})).status).toBe(400);
    expect((await api().post('/api/python/videos/project-points').set(owner.auth).send({ id_map: map.id, id_visit: visit.id, osfmCluster: -1, imageWidth: 0, imageHeight: 1 })).status).toBe(400);
    const wrongVisit = await api().post('/api/python/videos/generate-ply').set(owner.auth).send({ video_id: v.id, visit_id: visit.id + 100000 });
    expect(wrongVisit.status).toBe(404);
  });

  it('another user cannot start, read or delete the run (404); no sign-in is 401', async () => {
    const owner = await createUser();
    const other = await createUser();
    const visit = await newVisit(owner);
    const v = (await upload(owner, visit.id, video360)).body.data as VideoDetail;
    const res = await api().post('/api/python/videos/process').set(other.auth).send({ video_id: v.id });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Video not found.');
    expect((await api().post('/api/python/videos/process').send({ video_id: v.id })).status).toBe(401);
  });
});

describe('the queue monitor (Bull Board)', () => {
  it('is there for super admins only: others get 404, admins the page and every queue', async () => {
    const user = await createUser();
    const admin = await createUser({ super_admin: true });
    expect((await api().get('/api/admin/queues')).status).toBe(404);
    expect((await api().get('/api/admin/queues').set(user.auth)).status).toBe(404);
    expect((await api().post('/api/admin/queues/session').set(user.auth)).status).toBe(404);
    const page = await api().get('/api/admin/queues/').set(admin.auth);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<html/i);
    const list = await api().get('/api/admin/queues/api/queues').set(admin.auth);
    expect(list.status).toBe(200);
    expect(list.body.queues.map((q: { name: string }) => q.name)).toEqual(expect.arrayContaining(['video', 'reconstruction', 'rooms', 'sheets']));

    // A browser tab has no bearer token: the session call gives it a cookie of the board's path.
    const session = await api().post('/api/admin/queues/session').set(admin.auth);
    expect(session.status).toBe(200);
    const cookie = ([] as string[]).concat(session.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).find((c) => c.startsWith('sw_board=')) ?? '';
    expect(cookie).toMatch(/^sw_board=/);
    expect((await api().get('/api/admin/queues/api/queues').set('Cookie', cookie)).status).toBe(200);
    expect((await api().get('/api/admin/queues/api/queues').set('Cookie', 'sw_board=1.99999999999.forged')).status).toBe(404);
  });
});
