/**
 * Loop closure on rendered panoramas of the walk fixture: one and a third
 * laps of its 65 m loop, so the walk passes its first 20 m again, facing
 * 30° further left the second time. The places passed twice must be found,
 * hardly any two different places paired, and the turn between passes measured.
 */
import { describe, expect, it } from 'vitest';
import { ColumnScratch, renderFrame } from '../../test/fixtures/walk-video/render.js';
import { pathSamples, pointAt } from '../../test/fixtures/walk-video/path.js';
import { sceneOf } from '../../test/fixtures/walk-video/generate.js';
import { buildRenderScene } from '../../test/fixtures/walk-video/textures.js';
import { bestTurn, findLoopPairs, panoramaOf } from '../src/video/loop-closure.js';
import { choosePairs } from '../src/video/pairs.js';

const W = 128;
const H = 64;
const STEP = 0.5; // metres between keyframes
const SECOND_PASS_TURN_DEG = 30;

/** Grey 128 × 64 panoramas rendered at 256 × 128 and halved (as the pipeline shrinks a keyframe's 360 image). */
function renderWalk() {
  const rs = buildRenderScene(sceneOf(1));
  const cam = { model: 'equirectangular' as const, width: 2 * W, height: 2 * H };
  const rgb = new Uint8Array(cam.width * cam.height * 3);
  const col = new ColumnScratch(rs.boxes.length / 6);
  const lap = pathSamples().length;
  const frames: { index: number; time: number; headingDeg: number; x: number; y: number; yaw: number; grey: Uint8Array }[] = [];
  for (let i = 0, d = 0; d < lap + 20; i++, d += STEP) {
    const p = pointAt(d);
    const yaw = p.heading + (d >= lap ? (SECOND_PASS_TURN_DEG * Math.PI) / 180 : 0);
    renderFrame(rs, cam, { x: p.x, y: p.y, z: 1.6, yaw }, rgb, col);
    const grey = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        let s = 0;
        for (let dy = 0; dy < 2; dy++) for (let dx = 0; dx < 2; dx++) {
          const o = ((2 * y + dy) * cam.width + 2 * x + dx) * 3;
          s += 0.299 * rgb[o] + 0.587 * rgb[o + 1] + 0.114 * rgb[o + 2];
        }
        grey[y * W + x] = Math.round(s / 4);
      }
    }
    frames.push({ index: i, time: d, headingDeg: (yaw * 180) / Math.PI, x: p.x, y: p.y, yaw, grey });
  }
  return { frames, lap };
}

describe('loop closure from the walk’s own panoramas', () => {
  const { frames, lap } = renderWalk();
  const panoramas = frames.map((f) => panoramaOf(f.grey, W, H));

  it('measures the turn between two views of one place, whatever the exposure', () => {
    const a = frames[10];
    const darker = panoramaOf(a.grey.map((g) => Math.round(g * 0.6 + 20)), W, H);
    const turned = frames.find((f) => f.time >= lap + a.time)!;
    expect(bestTurn(panoramas[10], darker).score).toBeGreaterThan(0.95);
    const t = bestTurn(panoramas[10], panoramas[turned.index]);
    const truth = (((turned.yaw - a.yaw) * 180) / Math.PI + 540) % 360 - 180;
    expect(Math.abs(t.turnDeg - truth)).toBeLessThan(6);
  });

  it('pairs the places passed twice, and hardly any others', () => {
    const { pairs } = findLoopPairs(frames, panoramas);
    const secondPass = frames.filter((f) => f.time >= lap + 1 && f.time <= lap + 19);
    const closed = new Set(pairs.flatMap((p) => [p.a, p.b]));
    // Most of the second pass finds its first pass …
    expect(secondPass.filter((f) => closed.has(f.index)).length).toBeGreaterThanOrEqual(0.6 * secondPass.length);
    const distance = (p: { a: number; b: number }) => Math.hypot(frames[p.a].x - frames[p.b].x, frames[p.a].y - frames[p.b].y);
    // … few pairs join two different places (one room looks like another from afar: COLMAP's two-view geometry
    // rejects those when it matches the features) …
    const same = pairs.filter((p) => distance(p) < 1.5);
    expect(same.length).toBeGreaterThanOrEqual(0.9 * pairs.length);
    // … and each true pair's turn is the true one.
    for (const p of same) {
      const [a, b] = [frames[p.a], frames[p.b]];
      const truth = (((b.yaw - a.yaw) * 180) / Math.PI + 540) % 360 - 180;
      expect(Math.abs(((p.turnDeg - truth + 540) % 360) - 180)).toBeLessThan(15);
    }
  });

  it('matches the views of a loop pair that look the same way', () => {
    const views = (i: number) => [0, 120, 240].map((yawDeg, view) => ({ view, yawDeg, name: `v${view}/${i}.jpg` }));
    const pf = frames.map((f) => ({ index: f.index, headingDeg: 0, views: views(f.index) }));
    const without = choosePairs(pf);
    const withLoop = choosePairs(pf, undefined, [{ a: 3, b: 140, turnDeg: 120 }]);
    expect(withLoop.filter((p) => !without.some((q) => q[0] === p[0] && q[1] === p[1]))).toEqual([
      ['v0/3.jpg', 'v1/140.jpg'],
      ['v1/3.jpg', 'v2/140.jpg'],
      ['v2/3.jpg', 'v0/140.jpg'],
    ]);
  });
});
