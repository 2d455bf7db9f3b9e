/**
 * The video pipeline end to end on a short generated walk (test/fixtures/
 * walk-video: a rendered storey walked along a known path): process →
 * generate-ply → project, and the refusals of bad uploads.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { cachedWalk } from './walk-fixture.js';
import { probeVideo } from '@sitewalk/core/tools/ffprobe.js';
import { ReconstructionFailed, ToolMissing, VideoRejected } from '@sitewalk/core/tools/errors.js';
import { processVideo, type ProcessManifest } from '../src/video/process.js';
import { DEFAULT_KEYFRAME_OPTIONS } from '../src/video/keyframes.js';
import { reconstruct, type Reconstruction } from '../src/video/reconstruct.js';
import { decodePly } from '../src/video/ply.js';
import { projectCluster } from '../src/video/projection.js';

const ROOT = path.resolve(process.env.DATA_DIR ?? '.data/test', 'video-pipeline-test');
const FIXTURES = path.join(ROOT, 'fixtures');
/** The generated walk is the same for the same options: kept between runs to save its rendering. */
const WALK = { kind: '360' as const, seconds: 8, width: 768, height: 384, seed: 1, name: 'walk8' };

async function walkFixture() {
  const dir = path.join(FIXTURES, `walk-${WALK.seconds}s-${WALK.width}-s${WALK.seed}`);
  const video = path.join(dir, `${WALK.name}.mp4`);
  const pathJson = path.join(dir, `${WALK.name}.path.json`);
  const planJson = path.join(dir, `${WALK.name}.plan.json`);
  await cachedWalk(dir, WALK);
  return { video, path: JSON.parse(await fsp.readFile(pathJson, 'utf8')), plan: JSON.parse(await fsp.readFile(planJson, 'utf8')) };
}

const ffmpeg = (args: string[]) => {
  const r = spawnSync('ffmpeg', ['-v', 'error', '-y', ...args]);
  if (r.status !== 0) throw new Error(r.stderr.toString());
};

/** What is left in a work folder (a failed step must leave nothing behind). */
const contents = async (dir: string) => (await fsp.readdir(dir, { recursive: true }).catch(() => [] as string[])).sort();

let walk: Awaited<ReturnType<typeof walkFixture>>;
beforeAll(async () => {
  await fsp.mkdir(FIXTURES, { recursive: true });
  walk = await walkFixture();
}, 180_000);

describe('a generated walk, process → generate-ply → project', () => {
  const work = path.join(ROOT, 'work-walk');
  let manifest: ProcessManifest;
  let recon: Reconstruction;
  const progress: [number, string][] = [];

  it('checks the video and chooses keyframes by motion', async () => {
    const probe = await probeVideo(walk.video);
    expect(probe).toMatchObject({ hasVideo: true, codec: 'h264', width: WALK.width, height: WALK.height, is360: true, rotation: 0 });
    expect(probe.duration).toBeCloseTo(WALK.seconds, 1);

    await fsp.rm(work, { recursive: true, force: true });
    manifest = await processVideo(walk.video, work, (p, m) => progress.push([p, m]));
    const kfs = manifest.keyframes;
    // Neither every frame nor a fixed clock: a few per metre walked, none while standing still.
    expect(kfs.length).toBeGreaterThanOrEqual(8);
    expect(kfs.length).toBeLessThan(WALK.seconds * 30 / 4);
    const pause = walk.path.pause as { start: number; seconds: number };
    const inPause = kfs.filter((k) => k.time > pause.start + 0.3 && k.time < pause.start + pause.seconds - 0.3);
    // While standing the camera only turns: keyframes there are turns, never "moved".
    expect(inPause.every((k) => k.reason === 'turn')).toBe(true);
    for (const k of kfs) {
      // The frame number comes from the frame's timestamp (frames no other is predicted from are not decoded).
      expect(k.time).toBeCloseTo(k.frame / 30, 4);
      await fsp.access(path.join(work, k.room));
      for (const v of k.views) await fsp.access(path.join(work, 'views', v.name));
    }
    expect(manifest.views.focal).toBeCloseTo(manifest.views.width / 2 / Math.tan((manifest.views.hFovDeg * Math.PI) / 360), 9);
    // Progress runs from 0 to 100 with words.
    expect(progress[0][0]).toBe(0);
    expect(progress.at(-1)![0]).toBe(100);
    expect(progress.every(([p, m], i) => m.length > 3 && (i === 0 || p >= progress[i - 1][0]))).toBe(true);
    expect((await contents(work)).filter((f) => f.startsWith('.'))).toEqual([]);
  }, 180_000);

  it('reconstructs the walk: a valid PLY per cluster and almost every keyframe placed', async () => {
    const steps: number[] = [];
    recon = await reconstruct(work, (p) => steps.push(p));
    expect(steps.at(-1)).toBe(100);
    expect(recon.clusters.length).toBeGreaterThanOrEqual(1);
    const placed = recon.clusters.reduce((s, c) => s + c.path.length, 0);
    expect(placed / manifest.keyframes.length).toBeGreaterThanOrEqual(0.95);
    expect(recon.unplaced.length).toBe(manifest.keyframes.length - placed);
    const c0 = recon.clusters[0];
    expect(c0.id).toBe(0);
    const buf = await fsp.readFile(c0.plyPath);
    expect(buf.subarray(0, 40).toString('latin1')).toMatch(/^ply\nformat binary_little_endian 1\.0\n/);
    const cloud = decodePly(buf);
    expect(cloud.xyz.length / 3).toBe(c0.points);
    expect(c0.points).toBeGreaterThan(1000);
    expect(cloud.xyz.every(Number.isFinite)).toBe(true);
    const savedPath = JSON.parse(await fsp.readFile(c0.pathPath, 'utf8'));
    expect(savedPath).toEqual(c0.path);
    for (const p of c0.path) {
      expect(p.centre.every(Number.isFinite)).toBe(true);
      expect(Math.hypot(...p.rotation)).toBeCloseTo(1, 6);
    }
    expect((await contents(work)).filter((f) => f.startsWith('.'))).toEqual([]);
  }, 480_000);

  it('places the rooms on the plan within 0.15 m of the true path once the start and end are pinned', async () => {
    const c0 = recon.clusters[0];
    const cloud = decodePly(await fsp.readFile(c0.plyPath));
    const { plan } = walk;
    const gt = walk.path.frames as { x: number; y: number }[];
    const toPlan = (f: number): [number, number] => [plan.origin.px + gt[f].x * plan.pxPerMetre, plan.origin.py - gt[f].y * plan.pxPerMetre];
    const first = c0.path[0];
    const last = c0.path.at(-1)!;
    const result = projectCluster({
      points: cloud.xyz,
      path: c0.path,
      sheet: { width: plan.imageWidth, height: plan.imageHeight },
      controls: [{ keyframe: first.keyframe, sheet: toPlan(first.frame) }, { keyframe: last.keyframe, sheet: toPlan(last.frame) }],
    });
    const errors = result.rooms.map((r) => Math.hypot(r.x - toPlan(r.frame)[0], r.y - toPlan(r.frame)[1]) / plan.pxPerMetre);
    const mean = errors.reduce((a, b) => a + b, 0) / errors.length;
    expect(mean).toBeLessThan(0.15);
    expect(Math.max(...errors)).toBeLessThan(0.4);
    // Pinned at both ends of this short walk, every room is vouched for: no warning.
    expect(result.confidence?.unsure).toEqual([]);
    expect(result.confidence?.suggested).toBeNull();
    // Every room is within its stated error or flagged (here: within three of its standard errors, or 0.15 m).
    result.rooms.forEach((_, i) => expect(errors[i]).toBeLessThan(Math.max(0.15, 3 * result.confidence!.errorM[i])));
  }, 60_000);

  it('says where the placement is unsure when the walk is pinned at two points close together, and asks for a control point there', async () => {
    const c0 = recon.clusters[0];
    const cloud = decodePly(await fsp.readFile(c0.plyPath));
    const { plan } = walk;
    const gt = walk.path.frames as { x: number; y: number }[];
    const toPlan = (f: number): [number, number] => [plan.origin.px + gt[f].x * plan.pxPerMetre, plan.origin.py - gt[f].y * plan.pxPerMetre];
    // The first keyframe and the first one at least 1 m further along: the rest of the walk swings on that short lever.
    const first = c0.path[0];
    const near = c0.path.find((p) => Math.hypot(gt[p.frame].x - gt[first.frame].x, gt[p.frame].y - gt[first.frame].y) >= 1)!;
    const result = projectCluster({
      points: cloud.xyz,
      path: c0.path,
      sheet: { width: plan.imageWidth, height: plan.imageHeight },
      controls: [{ keyframe: first.keyframe, sheet: toPlan(first.frame) }, { keyframe: near.keyframe, sheet: toPlan(near.frame) }],
    });
    const conf = result.confidence!;
    expect(conf.unsure.length).toBeGreaterThan(0);
    expect(conf.unsure).not.toContain(first.keyframe);
    // The far end of the walk is where one more control point is asked for.
    const suggested = c0.path.findIndex((p) => p.keyframe === conf.suggested);
    expect(suggested).toBeGreaterThan(c0.path.length / 2);
    // Every room placed further than 0.3 m from its true place is among the flagged ones.
    result.rooms.forEach((r) => {
      const off = Math.hypot(r.x - toPlan(r.frame)[0], r.y - toPlan(r.frame)[1]) / plan.pxPerMetre;
      if (off > conf.thresholdM) expect(conf.unsure).toContain(r.keyframe);
    });
  }, 60_000);
});

describe('a camera\'s large frames', () => {
  it('writes rooms no wider than the room width, and keeps as many keyframes when only a tenth of a second\'s frames are passed on in full', async () => {
    // The walk as a camera without B-frames encodes it (every frame decoded): all frames are full below the
    // threshold; with a threshold of 0 (as for 5.7K frames) only every third frame of 30 a second is.
    const video = path.join(ROOT, 'walk8-ippp.mp4');
    ffmpeg(['-i', walk.video, '-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '0', '-g', '30', video]);
    expect(await probeVideo(video)).toMatchObject({ bFrames: false, fps: 30 });
    const every = await processVideo(video, path.join(ROOT, 'work-every'));
    const tenth = await processVideo(video, path.join(ROOT, 'work-tenth'), undefined, { fullFramesAllUpTo: 0, roomWidth: 512 });
    expect(tenth.keyframes.every((k) => k.frame % 3 === 0)).toBe(true);
    expect(every.keyframes.some((k) => k.frame % 3 !== 0)).toBe(true);
    expect(tenth.keyframes.length).toBeGreaterThanOrEqual(Math.floor(every.keyframes.length * 0.8));
    expect(tenth.keyframes.length).toBeLessThanOrEqual(Math.ceil(every.keyframes.length * 1.2));
    // The last stretch of the walk is kept as in a run over every frame.
    expect(tenth.keyframes.at(-1)!.time).toBeGreaterThan(every.keyframes.at(-1)!.time - 0.5);
    expect(await sharp(path.join(ROOT, 'work-tenth', tenth.keyframes[1].room)).metadata()).toMatchObject({ width: 512, height: 256 });
    expect(await sharp(path.join(ROOT, 'work-every', every.keyframes[1].room)).metadata()).toMatchObject({ width: WALK.width, height: WALK.height });
  }, 120_000);
});

describe('uploads that are not a usable walk', () => {
  it('refuses a text file renamed .mp4, leaving nothing in the work folder', async () => {
    const file = path.join(ROOT, 'notes.mp4');
    await fsp.writeFile(file, 'These are my site notes, not a video.\n'.repeat(100));
    const work = path.join(ROOT, 'work-text');
    await fsp.rm(work, { recursive: true, force: true });
    await expect(probeVideo(file)).rejects.toThrow(VideoRejected);
    const err = await processVideo(file, work).catch((e) => e);
    expect(err).toBeInstanceOf(VideoRejected);
    expect(err.title).toBe('Failed to process video');
    expect(err.message).toMatch(/not a video/);
    expect(await contents(work)).toEqual([]);
  });

  it('refuses a video cut off in transfer', async () => {
    const buf = await fsp.readFile(walk.video);
    const file = path.join(ROOT, 'cut.mp4');
    await fsp.writeFile(file, buf.subarray(0, Math.floor(buf.length * 0.45)));
    const work = path.join(ROOT, 'work-cut');
    await fsp.rm(work, { recursive: true, force: true });
    const err = await processVideo(file, work).catch((e) => e);
    expect(err).toBeInstanceOf(VideoRejected);
    expect(err.message).toMatch(/cut off|damaged/);
    expect(await contents(work)).toEqual([]);
  }, 60_000);

  it('refuses two seconds of a blank wall', async () => {
    const file = path.join(ROOT, 'wall.mp4');
    ffmpeg(['-f', 'lavfi', '-i', 'color=c=0xb8b4ac:s=640x320:r=30:d=2', '-vf', 'noise=alls=2:allf=t', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', file]);
    const work = path.join(ROOT, 'work-wall');
    await fsp.rm(work, { recursive: true, force: true });
    const err = await processVideo(file, work).catch((e) => e);
    expect(err).toBeInstanceOf(VideoRejected);
    expect(err.message).toMatch(/almost nothing/);
    expect(await contents(work)).toEqual([]);
  }, 60_000);

  it('makes flat rooms of a flat (not 360°) video: each keyframe frame on a 2:1 sphere, one view for COLMAP with its focal refined', async () => {
    const dir = path.join(FIXTURES, 'flat-walk-8s-480');
    const video = path.join(dir, 'walk.mp4');
    await cachedWalk(dir, { kind: 'flat', seconds: 8, width: 480, height: 270, fps: 15, seed: 1 });
    const work = path.join(ROOT, 'work-flat');
    await fsp.rm(work, { recursive: true, force: true });
    const manifest = await processVideo(video, work);
    expect(manifest.kind).toBe('flat');
    expect(manifest.views.count).toBe(1);
    expect(manifest.keyframes.length).toBeGreaterThanOrEqual(4);
    for (const k of manifest.keyframes) {
      const room = await sharp(path.join(work, k.room)).metadata();
      expect(room.width).toBe(2 * room.height!);
      expect(room.width).toBeGreaterThanOrEqual(1024);
      const view = await sharp(path.join(work, 'views', k.views[0].name)).metadata();
      expect([view.width, view.height]).toEqual([manifest.views.width, manifest.views.height]);
    }
    // The room shows the frame ahead (the centre of the sphere) and neutral grey behind.
    const { data, info } = await sharp(path.join(work, manifest.keyframes[0].room)).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels];
    expect(Math.abs(at(1, Math.floor(info.height / 2)) - 96)).toBeLessThanOrEqual(3);
    const ahead = Array.from({ length: 40 }, (_, i) => at(Math.floor(info.width / 2) - 20 + i, Math.floor(info.height / 2)));
    expect(Math.max(...ahead) - Math.min(...ahead)).toBeGreaterThan(20);
    const recon = await reconstruct(work);
    const placed = recon.clusters.reduce((n, c) => n + c.path.length, 0);
    expect(placed).toBeGreaterThanOrEqual(Math.ceil(manifest.keyframes.length * 0.6));
    expect(decodePly(await fsp.readFile(recon.clusters[0].plyPath)).xyz.every(Number.isFinite)).toBe(true);
  }, 480_000);

  it('refuses a camera that only turns on the spot at once, and says "Failed to generate PLY file" with every keyframe unplaced when such turns reach the reconstruction', async () => {
    // A flat pattern turning around the camera: no parallax, so nothing to triangulate.
    const file = path.join(ROOT, 'spin.mp4');
    ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=640x320:r=30:d=3', '-vf', 'scroll=h=0.004', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', file]);
    const work = path.join(ROOT, 'work-spin');
    await fsp.rm(work, { recursive: true, force: true });
    // Turning on the spot piles up no keyframes: the walk is refused while processing, with the reason.
    const refused = await processVideo(file, work).catch((e) => e);
    expect(refused).toBeInstanceOf(VideoRejected);
    expect(refused.message).toMatch(/hardly moves/);
    expect(await contents(work)).toEqual([]);
    // With a keyframe per 30° of turn even on the spot, the reconstruction is what fails, naming every frame.
    const manifest = await processVideo(file, work, undefined, { keyframes: { ...DEFAULT_KEYFRAME_OPTIONS, spotTurnDeg: 30 } });
    const err = await reconstruct(work).catch((e) => e);
    expect(err).toBeInstanceOf(ReconstructionFailed);
    expect(err.title).toBe('Failed to generate PLY file');
    expect(err.unplacedFrames.length).toBeGreaterThan(0);
    expect(err.unplacedFrames.every((i: number) => i >= 0 && i < manifest.keyframes.length)).toBe(true);
    expect((await contents(work)).filter((f) => f.startsWith('.') || f.startsWith('reconstruction'))).toEqual([]);
  }, 120_000);

  it('reports a missing COLMAP as a missing tool, not a crash', async () => {
    const before = process.env.COLMAP_PATH;
    process.env.COLMAP_PATH = '/nonexistent/colmap';
    try {
      const err = await reconstruct(path.join(ROOT, 'work-walk')).catch((e) => e);
      expect(err).toBeInstanceOf(ToolMissing);
      expect(err.message).toMatch(/colmap is not installed.*COLMAP_PATH/);
    } finally {
      if (before === undefined) delete process.env.COLMAP_PATH;
      else process.env.COLMAP_PATH = before;
    }
  });
});
