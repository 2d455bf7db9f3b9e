/**
 * A walk as real walkers make it (test/fixtures/walk-video with a route):
 * a stop standing still, a turn round on the spot at a dead end, and the walk
 * back through the rooms already passed, in rooms of half the texture. The
 * keyframes do not pile up at the stop or the turn, the two passes agree, and
 * pinned at its start and its dead end every room is placed within 0.3 m or
 * said to be unsure.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cachedWalk } from './walk-fixture.js';
import { processVideo, type ProcessManifest } from '../src/video/process.js';
import { reconstruct, type Reconstruction } from '../src/video/reconstruct.js';
import { decodePly } from '../src/video/ply.js';
import { projectCluster } from '../src/video/projection.js';

const ROOT = path.resolve(process.env.DATA_DIR ?? '.data/test', 'video-hard-walk-test');
const ROUTE = { stops: [{ at: 2, seconds: 2 }], turnAround: { at: 6, seconds: 2 } };
const WALK = { kind: '360' as const, seconds: 12, width: 640, height: 320, fps: 15, seed: 3, variant: ROUTE, conditions: { textureContrast: 0.5 } };

interface Frame { x: number; y: number; t: number }
let frames: Frame[];
let video: string;
let plan: { origin: { px: number; py: number }; pxPerMetre: number; imageWidth: number; imageHeight: number };

beforeAll(async () => {
  const dir = path.join(ROOT, 'fixtures', 'walk-12s-route-s3');
  await fsp.mkdir(path.dirname(dir), { recursive: true });
  await cachedWalk(dir, { ...WALK, name: 'walk' });
  video = path.join(dir, 'walk.mp4');
  frames = JSON.parse(await fsp.readFile(path.join(dir, 'walk.path.json'), 'utf8')).frames;
  plan = JSON.parse(await fsp.readFile(path.join(dir, 'walk.plan.json'), 'utf8'));
}, 300_000);

describe('a walk that stops, turns round at a dead end and comes back', () => {
  const work = path.join(ROOT, 'work');
  let manifest: ProcessManifest;
  let recon: Reconstruction;

  it('keeps no pile of keyframes while standing still or turning on the spot', async () => {
    await fsp.rm(work, { recursive: true, force: true });
    manifest = await processVideo(video, work);
    const during = (from: number, to: number) => manifest.keyframes.filter((k) => k.time > from && k.time < to);
    // Standing 2 s (looking round meanwhile): at most one keyframe.
    expect(during(2.2, 3.8).length).toBeLessThanOrEqual(1);
    // Half a turn on the spot in 2 s: at most one keyframe per quarter turn.
    expect(during(6.1, 7.9).length).toBeLessThanOrEqual(2);
    // Eight metres walked in all: a few keyframes per metre, not a frame per video frame.
    expect(manifest.keyframes.length).toBeGreaterThanOrEqual(8);
    expect(manifest.keyframes.length).toBeLessThan(40);
  }, 300_000);

  /** Pinned at the start and at the dead end, as a user would: the two ends of the corridor. */
  const project = async (r: Reconstruction) => {
    const c0 = r.clusters[0];
    const toPlan = (f: number): [number, number] => [plan.origin.px + frames[f].x * plan.pxPerMetre, plan.origin.py - frames[f].y * plan.pxPerMetre];
    const first = c0.path[0];
    const deadEnd = c0.path.reduce((best, p) => (Math.abs(p.time - 7) < Math.abs(best.time - 7) ? p : best));
    const result = projectCluster({
      points: decodePly(await fsp.readFile(c0.plyPath)).xyz,
      path: c0.path,
      sheet: { width: plan.imageWidth, height: plan.imageHeight },
      controls: [{ keyframe: first.keyframe, sheet: toPlan(first.frame) }, { keyframe: deadEnd.keyframe, sheet: toPlan(deadEnd.frame) }],
      loops: r.loops,
    });
    return { c0, result, toPlan };
  };

  /** The way back passes the rooms of the way out: each room of the way back lies where the nearest room of the way out truly is, give or take 0.2 m. */
  const expectPassesAgree = (result: Awaited<ReturnType<typeof project>>['result'], toPlan: (f: number) => [number, number]) => {
    const out = result.rooms.filter((r) => r.time < 6);
    const back = result.rooms.filter((r) => r.time > 8);
    expect(back.length).toBeGreaterThan(2);
    for (const b of back) {
      const truth = toPlan(b.frame);
      const twin = out.reduce((best, o) => (Math.hypot(toPlan(o.frame)[0] - truth[0], toPlan(o.frame)[1] - truth[1]) < Math.hypot(toPlan(best.frame)[0] - truth[0], toPlan(best.frame)[1] - truth[1]) ? o : best));
      const trueGap = Math.hypot(toPlan(twin.frame)[0] - truth[0], toPlan(twin.frame)[1] - truth[1]) / plan.pxPerMetre;
      const placedGap = Math.hypot(twin.x - b.x, twin.y - b.y) / plan.pxPerMetre;
      expect(Math.abs(placedGap - trueGap)).toBeLessThan(0.2);
    }
  };

  it('places the rooms of both passes in one model where they agree, and every room within 0.3 m or flagged unsure', async () => {
    recon = await reconstruct(work);
    const { c0, result, toPlan } = await project(recon);
    expect(c0.path.length / manifest.keyframes.length).toBeGreaterThanOrEqual(0.9);
    const conf = result.confidence!;
    const off = result.rooms.map((r) => Math.hypot(r.x - toPlan(r.frame)[0], r.y - toPlan(r.frame)[1]) / plan.pxPerMetre);
    result.rooms.forEach((r, i) => {
      if (off[i] > conf.thresholdM) expect(conf.unsure, `room of keyframe ${r.keyframe} is ${off[i].toFixed(2)} m off`).toContain(r.keyframe);
    });
    expectPassesAgree(result, toPlan);
  }, 600_000);

  // A whole-site walk is mapped in windows of a couple of minutes (submaps.ts); here in windows of about half this walk,
  // so most of the way back is mapped apart from the way out, tied to it by the overlap and the anchors loop closure gives.
  it('keeps both passes in one model where they agree when the walk is mapped in windows', async () => {
    // Two windows share 8 keyframes: rig-merge joins two models on 5 shared keyframes that agree at least.
    const size = Math.ceil(manifest.keyframes.length / 2) + 4;
    const windowed = await reconstruct(work, undefined, { submaps: { size, overlap: 8, maxAnchors: 16 } });
    expect(windowed.stats.submaps).toBeGreaterThanOrEqual(2);
    const { c0, result, toPlan } = await project(windowed);
    expect(c0.path.length / manifest.keyframes.length).toBeGreaterThanOrEqual(0.9);
    expectPassesAgree(result, toPlan);
  }, 600_000);
});
