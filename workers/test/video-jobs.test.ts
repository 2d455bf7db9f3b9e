import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobOf, SheetRoom, VideoDetail, VideoPosition } from '@sitewalk/proto';
import { MESSAGES } from '@sitewalk/proto';
import { Sheet, Video, closeDb, db } from '@sitewalk/core/db';
import { closeQueues, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis } from '@sitewalk/core/redis.js';
import { config } from '@sitewalk/core/config.js';
import { exists, localPath } from '@sitewalk/core/storage';
import { readRun, type RunRow } from '@sitewalk/core/services/video-run.service.js';
import {
  acceptVideoUpload,
  getVisitVideo,
  startConfirmProjection,
  startProcessing,
  startProjectPoints,
  videoWorkFolder,
} from '@sitewalk/core/services/videos.service.js';
import { api, createUser, type TestUser } from '../../api/test/helpers.js';
import { newProject } from '../../api/test/project-helpers.js';
import type { PathJson } from '../../test/fixtures/walk-video/generate.js';
import { learnProfile } from '@sitewalk/core/video-eta-profile.js';
import { cachedWalk } from './walk-fixture.js';
import { worldToPlan, type PlanJson } from '../../test/fixtures/walk-video/plan.js';
import { handlers } from '../src/jobs/index.js';
import { startWorkers, type RunningWorkers } from '../src/runner.js';
import { decodePly } from '../src/video/ply.js';
import { writeSheetImages } from '../src/adapters/pdf-page-tiles.js';
import { mapFolder } from '@sitewalk/core/services/sheets.service.js';
import { useOwnRedisPrefix, waitFor } from './helpers.js';

useOwnRedisPrefix('video-jobs');

/**
 * The four video steps as a user runs them: upload, process (chaining into
 * generate-ply by itself), project-points with the walk's start and end
 * pinned, confirm, on a short generated walk with a known path and plan
 * (test/fixtures/walk-video). Then the failures a user meets: a cut-off
 * upload, a blank wall, a missing program.
 */

const FIXTURE_DIR = path.join(config.dataDir, 'fixtures', 'video-jobs-walk');
let walk: { video: string; path: PathJson; plan: PlanJson };
let workers: RunningWorkers;
let owner: TestUser;

beforeAll(async () => {
  // Generated once per data folder (deterministic), a few seconds at low resolution.
  const video = path.join(FIXTURE_DIR, 'walk.mp4');
  await cachedWalk(FIXTURE_DIR, { kind: '360', seconds: 6, width: 640, height: 320, fps: 15, threads: 2 });
  walk = {
    video,
    path: JSON.parse(await fsp.readFile(path.join(FIXTURE_DIR, 'walk.path.json'), 'utf8')),
    plan: JSON.parse(await fsp.readFile(path.join(FIXTURE_DIR, 'walk.plan.json'), 'utf8')),
  };
  workers = startWorkers(handlers, { queues: ['video', 'reconstruction'] });
  owner = await createUser();
}, 300_000);

afterAll(async () => {
  await workers?.close();
  for (const q of ['video', 'reconstruction', 'rooms', 'notifications'] as const) await queue(q).obliterate({ force: true }).catch(() => undefined);
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

async function newVisit(): Promise<{ id: number; id_project: number }> {
  const p = await newProject(owner);
  const res = await api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: 'Walk', date: '2026-03-02' });
  return res.body.data;
}

/** Uploads a copy of `file` as the visit's video (the service moves what it is given). */
async function uploadCopy(visitId: number, file: string): Promise<VideoDetail> {
  const copy = path.join(config.dataDir, 'tmp', `upload-${Date.now()}-${Math.random().toString(36).slice(2)}.mp4`);
  await fsp.mkdir(path.dirname(copy), { recursive: true });
  await fsp.copyFile(file, copy);
  return acceptVideoUpload(owner.user, visitId, { filepath: copy, size: (await fsp.stat(copy)).size, originalFilename: path.basename(file), mimetype: 'video/mp4' });
}

/** A ready sheet whose picture is the walk's plan, cut into tiles as sheet.from-pdf does. */
async function sheetOfPlan(projectId: number) {
  const sheet = await Sheet.query().insertAndFetch({ id_project: projectId, name: 'Ground floor', status: 'ready', width: walk.plan.imageWidth, height: walk.plan.imageHeight });
  const { data, info } = await sharp(path.join(FIXTURE_DIR, 'walk.plan.png')).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const folder = mapFolder(projectId, sheet.id);
  const images = await writeSheetImages({ data, width: info.width, height: info.height, channels: 3 }, localPath(folder));
  await Sheet.query().patch({ tile_size: images.tileSize, max_zoom: images.maxZoom, folder }).where({ id: sheet.id });
  return sheet;
}

const runOf = async (videoId: number) => (await readRun(videoId))!;
const waitStatus = (videoId: number, statuses: string[], timeoutMs: number) =>
  waitFor(async () => {
    const r = await runOf(videoId);
    return statuses.includes(r.status) ? r : null;
  }, `run of video ${videoId} to reach ${statuses.join(' or ')}`, timeoutMs);

async function jobsOf(videoId: number, name: string) {
  const all = [...(await queue('video').getJobs(['completed', 'failed', 'waiting', 'active', 'delayed'])), ...(await queue('reconstruction').getJobs(['completed', 'failed', 'waiting', 'active', 'delayed']))];
  return all.filter((j) => j && j.name === name && (j.data as JobOf<'video.process'>).id_video === videoId);
}

/** Where the camera truly was at a keyframe (plan pixels), and where it looked (radians clockwise from the plan's up). */
function truthAt(time: number): { x: number; y: number; heading: number } {
  const f = walk.path.frames[Math.min(walk.path.frames.length - 1, Math.round(time * walk.path.fps))];
  const [x, y] = worldToPlan(walk.plan, f.x, f.y);
  return { x, y, heading: Math.PI / 2 - f.yaw };
}
const angleBetween = (a: number, b: number) => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

describe('a walk-through video through the four steps', () => {
  it('becomes rooms placed on the sheet, linked in walking order; running steps again never duplicates rooms', async () => {
    const visit = await newVisit();
    const sheet = await sheetOfPlan(visit.id_project);
    const v = await uploadCopy(visit.id, walk.video);
    expect(v.kind).toBe('360');

    await startProcessing(owner.user, v.id);
    // process chains into generate-ply: no second click.
    let run: RunRow = await waitStatus(v.id, ['needs_projection', 'failed'], 20 * 60_000);
    expect(run.error).toBeNull();
    expect(run.status).toBe('needs_projection');
    expect(run.steps.process).toMatchObject({ status: 'done', percent: 100 });
    expect(run.steps['generate-ply']).toMatchObject({ status: 'done', percent: 100, attempts: 1 });
    expect(run.timings.process).toBeGreaterThan(0);
    expect(run.timings['generate-ply']).toBeGreaterThan(0);
    // The core's own stages, e.g. 'process.probe', 'generate-ply.mapping'.
    expect(Object.keys(run.timings).some((k) => k.startsWith('process.'))).toBe(true);
    expect(Object.keys(run.timings)).toContain('generate-ply.mapping');
    // The mappers' final adjustment, after the last keyframe was placed, is timed on its own (the remaining time learns it).
    expect(Object.keys(run.timings)).toContain('generate-ply.refine');
    // Those stage timings are what the next runs' time left learns from: every phase of both steps is timed.
    expect(learnProfile('process', [{ timings: run.timings }]).learnedFrom).toBe(1);
    expect(learnProfile('generate-ply', [{ timings: run.timings }]).learnedFrom).toBe(1);
    const keyframes = run.artifacts.keyframes!;
    expect(keyframes.length).toBeGreaterThanOrEqual(4);
    for (const k of keyframes) expect(await exists(k.image_key)).toBe(true);
    const cluster = run.artifacts.clusters![0];
    expect(cluster.osfm_cluster).toBe(0);
    expect(cluster.keyframes.length).toBeGreaterThanOrEqual(Math.ceil(keyframes.length * 0.6));
    // A valid binary PLY with as many points as the run says, and the camera path beside it.
    const cloud = decodePly(await fsp.readFile(localPath(cluster.ply_key!)));
    expect(cloud.xyz.length / 3).toBe(cluster.points);
    expect(cluster.points).toBeGreaterThan(100);
    const camera = JSON.parse(await fsp.readFile(localPath(cluster.path_key!), 'utf8'));
    expect(camera.cameras.map((c: { keyframe: number }) => c.keyframe)).toEqual(cluster.keyframes);
    expect(await jobsOf(v.id, 'video.generate-ply')).toHaveLength(1);

    // The walk's start and end pinned where they truly are on the plan.
    const time = new Map(keyframes.map((k) => [k.index, k.time]));
    const first = cluster.keyframes[0];
    const last = cluster.keyframes[cluster.keyframes.length - 1];
    const pin = (k: number) => ({ keyframe: k, x: truthAt(time.get(k)!).x, y: truthAt(time.get(k)!).y });
    const body = { id_map: sheet.id, id_visit: visit.id, osfmCluster: 0, imageWidth: walk.plan.imageWidth, imageHeight: walk.plan.imageHeight, control_points: [pin(first), pin(last)] };
    await startProjectPoints(owner.user, body);
    run = await waitStatus(v.id, ['needs_confirmation', 'failed'], 5 * 60_000);
    expect(run.error).toBeNull();
    const projection = run.artifacts.projections!.find((p) => p.osfm_cluster === 0 && p.id_map === sheet.id)!;
    expect(projection.positions.map((p) => p.keyframe)).toEqual(cluster.keyframes);
    expect(projection.residual_px).not.toBeNull();
    // Pinned exactly, the control points' fit is already on the walls the sheet draws: the snap to them may or may
    // not be kept (they lay about as many wall points on ink), the rooms stand where they were either way.
    expect(['controls', 'plan']).toContain(projection.fitted_by);
    // Pinned at both ends of this short walk, every room is vouched for: no warning, no control point asked for.
    expect(projection.certainty).toMatchObject({ unsure: [], suggested_keyframe: null });
    expect(projection.certainty!.error_m).toHaveLength(projection.positions.length);
    expect(run.message).not.toMatch(/add one more control point/);
    const offM = (positions: VideoPosition[]) => positions.map((p) => Math.hypot(p.x - truthAt(time.get(p.keyframe)!).x, p.y - truthAt(time.get(p.keyframe)!).y) / walk.plan.pxPerMetre);
    // Every room within 10 cm of where the camera truly was (1 cm on this machine).
    expect(Math.max(...offM(projection.positions))).toBeLessThan(0.1);
    const headingErrors = projection.positions.map((p) => angleBetween(p.heading, truthAt(time.get(p.keyframe)!).heading));
    expect(median(headingErrors)).toBeLessThan((25 * Math.PI) / 180);
    const preview = await sharp(localPath(projection.preview_key!)).metadata();
    expect(preview.format).toBe('png');
    expect(preview.width! / preview.height!).toBeCloseTo(walk.plan.imageWidth / walk.plan.imageHeight, 1);

    await startConfirmProjection(owner.user, { id_map: sheet.id, id_visit: visit.id, osfmCluster: 0 });
    run = await waitStatus(v.id, ['completed', 'failed'], 5 * 60_000);
    expect(run.error).toBeNull();
    const confirmed = run.artifacts.projections!.find((p) => p.osfm_cluster === 0)!;
    expect(confirmed.confirmed_at).not.toBeNull();
    const placed = (await api().get(`/api/maps/${sheet.id}/rooms`).query({ osfm_cluster: 0 }).set(owner.auth)).body.data as SheetRoom[];
    expect(placed.map((r) => r.id).sort()).toEqual([...confirmed.room_ids].sort());
    expect(placed).toHaveLength(cluster.keyframes.length);
    for (const r of placed) {
      expect(r).toMatchObject({ id_map: sheet.id, id_visit: visit.id, osfm_cluster: 0, status: 'queued' });
      expect(r.heading).not.toBeNull();
    }
    const ids = confirmed.room_ids;
    const spots = await db()('room_hotspots').whereIn('id_room', ids);
    expect(spots).toHaveLength(2 * (ids.length - 1));
    for (let i = 1; i < ids.length; i++) {
      expect(spots.some((s) => s.id_room === ids[i - 1] && s.id_room_target === ids[i])).toBe(true);
      expect(spots.some((s) => s.id_room === ids[i] && s.id_room_target === ids[i - 1])).toBe(true);
    }
    // Each room's photo is queued for tiling like an uploaded one.
    const tiles = (await queue('rooms').getJobs(['waiting', 'delayed', 'active', 'completed'])).filter((j) => j && ids.includes((j.data as JobOf<'room.tiles'>).id_room));
    expect(new Set(tiles.map((j) => j.data.id_room)).size).toBe(ids.length);
    const notes = (await queue('notifications').getJobs(['waiting', 'delayed'])).filter((j) => j && (j.data as JobOf<'notify.dispatch'>).user_id === owner.user.id);
    expect(notes.map((j) => j.data.title)).toEqual(expect.arrayContaining(['Walk-through video reconstructed', 'Rooms placed from the video']));

    // Projecting and confirming again: the same rooms, moved; no duplicates, photos not tiled again.
    const tilesBefore = tiles.length;
    await startProjectPoints(owner.user, { ...body, control_points: [pin(first), { ...pin(last), x: pin(last).x + 10 }] });
    const again = (await waitStatus(v.id, ['needs_confirmation', 'failed'], 5 * 60_000)).artifacts.projections!.find((p) => p.osfm_cluster === 0 && p.id_map === sheet.id)!;
    // The new proposal's picture has a name (and so a URL) of its own: no browser shows the cached earlier one.
    expect(again.preview_key).not.toBe(projection.preview_key);
    // The end was clicked 0.2 m aside: the plan's walls lay the walk where it truly is, not where that click would turn it.
    expect(again.fitted_by).toBe('plan');
    expect(Math.max(...offM(again.positions))).toBeLessThan(0.1);
    expect(await exists(again.preview_key!)).toBe(true);
    await startConfirmProjection(owner.user, { id_map: sheet.id, id_visit: visit.id, osfmCluster: 0 });
    run = await waitStatus(v.id, ['completed', 'failed'], 5 * 60_000);
    expect(run.error).toBeNull();
    const roomsAfter = await db()('rooms').where({ id_visit: visit.id });
    expect(roomsAfter.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(await db()('room_hotspots').whereIn('id_room', ids)).toHaveLength(2 * (ids.length - 1));
    const tilesAfter = (await queue('rooms').getJobs(['waiting', 'delayed', 'active', 'completed'])).filter((j) => j && ids.includes((j.data as JobOf<'room.tiles'>).id_room));
    expect(tilesAfter).toHaveLength(tilesBefore);

    // The API gives the client the same truth, with signed artifact URLs.
    const detail = (await getVisitVideo(owner.user, visit.id))!;
    expect(detail.run.status).toBe('completed');
    expect(detail.run.artifacts.clusters[0].ply_url).toMatch(/^\/api\/files\/.+cluster-0\.ply\?exp=/);
    expect(detail.run.artifacts.projections[0].preview_url).toMatch(/\.png\?exp=/);
    expect((await api().get(detail.run.artifacts.clusters[0].ply_url!)).status).toBe(200);

    // Pinned at the start and at a point a metre on, clicked 0.3 m to the side: on that short lever the control points
    // turn the rest of the walk away from where the plan's walls put it. The rooms past it are marked unsure and one
    // more control point is asked for near the far end, in the answer and in words.
    const near = cluster.keyframes.find((k) => Math.hypot(pin(k).x - pin(first).x, pin(k).y - pin(first).y) >= walk.plan.pxPerMetre)!;
    const sideways = { ...pin(near), y: pin(near).y + 0.3 * walk.plan.pxPerMetre };
    await startProjectPoints(owner.user, { ...body, control_points: [pin(first), sideways] });
    run = await waitStatus(v.id, ['needs_confirmation', 'failed'], 5 * 60_000);
    expect(run.error).toBeNull();
    expect(run.message).toMatch(/may be up to [\d.]+ m off: add one more control point at keyframe \d+/);
    const unsure = (await getVisitVideo(owner.user, visit.id))!.run.artifacts.projections.find((p) => p.osfm_cluster === 0 && p.id_map === sheet.id)!;
    expect(unsure.certainty!.unsure.length).toBeGreaterThan(0);
    expect(unsure.certainty!.unsure).not.toContain(first);
    expect(unsure.certainty!.unsure).toContain(last);
    expect(cluster.keyframes.indexOf(unsure.certainty!.suggested_keyframe!)).toBeGreaterThan(cluster.keyframes.indexOf(near));
    expect(unsure.certainty!.worst_m).toBeGreaterThan(unsure.certainty!.threshold_m);
  }, 40 * 60_000);
});

describe('videos that cannot become a walk', () => {
  const make = (args: string[], out: string) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-movflags', '+faststart', out]);

  async function expectFailedCleanly(videoId: number, step: 'process', reason: RegExp) {
    const run = await waitStatus(videoId, ['failed', 'needs_projection'], 3 * 60_000);
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ step, title: MESSAGES.processVideoFailed });
    expect(run.error!.reason).toMatch(reason);
    expect(run.artifacts.keyframes ?? []).toEqual([]);
    const video = (await Video.query().findById(videoId))!;
    const work = localPath(videoWorkFolder(video));
    // Nothing half-made: no rooms, no views, no manifest, no staging folder left.
    expect(fs.existsSync(work) ? await fsp.readdir(work) : []).toEqual([]);
    expect(await db()('rooms').where({ id_video: videoId })).toEqual([]);
    expect(await jobsOf(videoId, 'video.generate-ply')).toEqual([]);
    const [job] = await jobsOf(videoId, 'video.process');
    // Bad input is not retried.
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    return run;
  }

  it('a cut-off video fails the process step with the reason, leaving nothing behind', async () => {
    const visit = await newVisit();
    const whole = path.join(config.dataDir, 'tmp', 'whole.mp4');
    await fsp.mkdir(path.dirname(whole), { recursive: true });
    make(['-f', 'lavfi', '-i', 'testsrc2=size=320x160:rate=15', '-t', '4'], whole);
    const cut = path.join(config.dataDir, 'tmp', 'cut.mp4');
    const bytes = await fsp.readFile(whole);
    await fsp.writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.4)));
    const v = await uploadCopy(visit.id, cut);
    await startProcessing(owner.user, v.id);
    await expectFailedCleanly(v.id, 'process', /cut off|cannot be decoded|damaged/i);
  }, 5 * 60_000);

  it('a 2-second video of a blank wall fails the process step saying it shows nothing', async () => {
    const visit = await newVisit();
    const blank = path.join(config.dataDir, 'tmp', 'blank.mp4');
    make(['-f', 'lavfi', '-i', 'color=c=0xb0b0a8:size=320x160:rate=15', '-t', '2'], blank);
    const v = await uploadCopy(visit.id, blank);
    await startProcessing(owner.user, v.id);
    await expectFailedCleanly(v.id, 'process', /almost nothing|blank/i);
  }, 5 * 60_000);

  it('a missing ffmpeg is a clear failure of the run, not a crash', async () => {
    const visit = await newVisit();
    const v = await uploadCopy(visit.id, walk.video);
    const before = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = '/nonexistent/bin/ffmpeg';
    try {
      await startProcessing(owner.user, v.id);
      const run = await waitStatus(v.id, ['failed', 'needs_projection'], 3 * 60_000);
      expect(run.status).toBe('failed');
      expect(run.error!.reason).toMatch(/not installed or not found/);
    } finally {
      if (before === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = before;
    }
  }, 5 * 60_000);
});
