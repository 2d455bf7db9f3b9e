import { describe, expect, it } from 'vitest';
import { bendToWalls, nearestOnTrack, type BendInput } from './wall-bend.js';
import { distanceToInkEdge, type SheetRaster } from './wall-snap.js';
import type { Similarity2D, Vec2 } from './linear-algebra.js';

/** 20 sheet pixels a metre; the reconstruction in metres, laid by the snap with no turn. */
const PX = 20;
const SNAPPED: Similarity2D = { scale: PX, rotation: 0, tx: 0, ty: 0 };
const OFFSET = 0.3;

type Face = [Vec2, Vec2, Vec2];

/** A plan (sheet pixels) drawn black on white from boxes, and the wall faces the walk sees with the side they face. */
function plan(width: number, height: number, boxes: [number, number, number, number][]): SheetRaster {
  const grey = new Uint8Array(width * height).fill(255);
  for (const [x0, y0, x1, y1] of boxes) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) grey[y * width + x] = 0;
  return { width, height, grey, scale: 1 };
}

/**
 * The bend's input for a walk along `track` (sheet pixels) past `faces`, as the reconstruction would give it: the
 * keyframes and wall points in metres, those matched by `drifted` moved by `drift` metres (a stretch the models put
 * beside the rest).
 */
function walkPast(raster: SheetRaster, faces: Face[], track: Vec2[], drifted: (sheet: Vec2) => boolean, drift: Vec2): BendInput {
  const toM = (p: Vec2): Vec2 => {
    const m: Vec2 = [p[0] / PX, p[1] / PX];
    return drifted(p) ? [m[0] + drift[0], m[1] + drift[1]] : m;
  };
  const walls: Vec2[] = [];
  for (const [a, b] of faces) {
    const n = Math.round(Math.hypot(b[0] - a[0], b[1] - a[1]) / 2);
    for (let i = 0; i <= n; i++) walls.push(toM([a[0] + ((b[0] - a[0]) * i) / n, a[1] + ((b[1] - a[1]) * i) / n]));
  }
  const trackM = track.map(toM);
  const nearest = new Int32Array(walls.length);
  const toward = walls.map((p, wi): Vec2 => {
    let best = Infinity;
    trackM.forEach((c, i) => {
      const d = Math.hypot(c[0] - p[0], c[1] - p[1]);
      if (d < best) [best, nearest[wi]] = [d, i];
    });
    const c = trackM[nearest[wi]];
    return [(c[0] - p[0]) / best, (c[1] - p[1]) / best];
  });
  return {
    track: trackM,
    shifted: walls.map((p, i): Vec2 => [p[0] + OFFSET * toward[i][0], p[1] + OFFSET * toward[i][1]]),
    toward,
    nearest,
    offset: OFFSET,
    transform: SNAPPED,
    dist: distanceToInkEdge(raster),
    raster,
    unitsPerMetre: 1,
  };
}

describe('bendToWalls', () => {
  // Three rooms in a row, each 14 m long and 5.4 m deep, with doorways in the partitions; the walk goes through their middles.
  const rooms = plan(820, 160, [
    [20, 20, 800, 26], [20, 134, 800, 140], [20, 20, 26, 140], [794, 20, 800, 140],
    [280, 20, 286, 60], [280, 100, 286, 140], [560, 20, 566, 60], [560, 100, 566, 140],
  ]);
  const roomFaces: Face[] = [
    [[26, 26], [280, 26], [0, 1]], [[286, 26], [560, 26], [0, 1]], [[566, 26], [794, 26], [0, 1]],
    [[26, 134], [280, 134], [0, -1]], [[286, 134], [560, 134], [0, -1]], [[566, 134], [794, 134], [0, -1]],
    [[26, 26], [26, 134], [1, 0]], [[794, 26], [794, 134], [-1, 0]],
    [[280, 26], [280, 60], [-1, 0]], [[280, 100], [280, 134], [-1, 0]], [[286, 26], [286, 60], [1, 0]], [[286, 100], [286, 134], [1, 0]],
    [[560, 26], [560, 60], [-1, 0]], [[560, 100], [560, 134], [-1, 0]], [[566, 26], [566, 60], [1, 0]], [[566, 100], [566, 134], [1, 0]],
  ];
  const through: Vec2[] = Array.from({ length: 83 }, (_, i): Vec2 => [40 + i * 9, 80]);

  it('moves the stretch of the walk the models put beside its walls back onto them, and leaves the rest where it fits', () => {
    // The first room's stretch, cameras and walls alike, 0.15 m east and 0.10 m north of where the rest puts it.
    const input = walkPast(rooms, roomFaces, through, (p) => p[0] < 280, [0.15, -0.1]);
    const { shiftPx } = bendToWalls(input);
    through.forEach((p, i) => {
      const [sx, sy] = [shiftPx[i][0] / PX, shiftPx[i][1] / PX];
      // Well inside the first room: back by the drift, within 3 cm.
      if (p[0] < 150) expect(Math.hypot(sx + 0.15, sy - 0.1), `keyframe ${i} moved ${sx.toFixed(3)}, ${sy.toFixed(3)} m`).toBeLessThan(0.03);
      // The last room, which fits its walls: not moved by more than 2 cm.
      if (p[0] > 640) expect(Math.hypot(sx, sy), `keyframe ${i} moved ${sx.toFixed(3)}, ${sy.toFixed(3)} m`).toBeLessThan(0.02);
    });
  });

  it('does not move a window over a place where the walk turns round, and still bends the rest', () => {
    // Through the first two rooms and back, turning round in the second; the whole walk 0.15 m east and 0.10 m north.
    const out: Vec2[] = Array.from({ length: 52 }, (_, i): Vec2 => [40 + i * 9, 75]);
    const back: Vec2[] = Array.from({ length: 51 }, (_, i): Vec2 => [490 - i * 9, 85]);
    const track = [...out, ...back];
    const { shiftPx } = bendToWalls(walkPast(rooms, roomFaces, track, () => true, [0.15, -0.1]));
    // Where it turns, every window holds both passes: not moved.
    expect(shiftPx[51]).toEqual([0, 0]);
    // Far from the turn, back by the drift within 3 cm.
    for (const i of [0, 3, 100]) expect(Math.hypot(shiftPx[i][0] / PX + 0.15, shiftPx[i][1] / PX - 0.1), `keyframe ${i}`).toBeLessThan(0.03);
    // Without the rule, the window over the turn is moved like the rest.
    const bentThrough = bendToWalls({ ...walkPast(rooms, roomFaces, track, () => true, [0.15, -0.1]), options: { turnM: 0 } }).shiftPx;
    expect(Math.hypot(bentThrough[51][0] / PX + 0.15, bentThrough[51][1] / PX - 0.1)).toBeLessThan(0.03);
  });

  it('along a corridor, whose walls say nothing about how far along it the walk is, moves it only across', () => {
    const corridor = plan(420, 80, [[0, 20, 420, 26], [0, 54, 420, 60]]);
    const faces: Face[] = [[[0, 26], [420, 26], [0, 1]], [[0, 54], [420, 54], [0, -1]]];
    const along: Vec2[] = Array.from({ length: 41 }, (_, i): Vec2 => [20 + i * 9.5, 40]);
    // The whole walk 0.2 m along the corridor and 0.08 m across it.
    const { shiftPx } = bendToWalls(walkPast(corridor, faces, along, () => true, [0.2, 0.08]));
    const middle = shiftPx.slice(5, -5).map(([x, y]): Vec2 => [x / PX, y / PX]);
    for (const [sx, sy] of middle) {
      expect(Math.abs(sy + 0.08)).toBeLessThan(0.02);
      // The prior holds the shift along: at most a centimetre of it (the walls cannot tell it).
      expect(Math.abs(sx)).toBeLessThan(0.01);
    }
  });

  it('does not move a stretch that saw no wall of the plan, nor one that would have to go further than the widest reach', () => {
    const blank = plan(200, 100, []);
    const { shiftPx, windows } = bendToWalls(walkPast(blank, [[[20, 20], [180, 20], [0, 1]]], [[30, 50], [100, 50], [170, 50]], () => false, [0, 0]));
    expect(shiftPx.every(([x, y]) => x === 0 && y === 0)).toBe(true);
    expect(windows.every((w) => w.shiftPx[0] === 0 && w.shiftPx[1] === 0)).toBe(true);
    // A whole walk 0.6 m across a corridor: its walls are beyond every reach; no window follows a wall it cannot see.
    const corridor = plan(420, 80, [[0, 20, 420, 26], [0, 54, 420, 60]]);
    const far = bendToWalls(walkPast(corridor, [[[0, 26], [420, 26], [0, 1]], [[0, 54], [420, 54], [0, -1]]], Array.from({ length: 20 }, (_, i): Vec2 => [20 + i * 20, 40]), () => true, [0, 0.6]));
    expect(far.shiftPx.every(([x, y]) => Math.hypot(x, y) / PX <= 0.25 + 1e-9)).toBe(true);
  });

  it('holds a stretch whose walls fit only where it is, and not one along a corridor whose walls fit as well a step on', () => {
    // Through the three rooms, placed where they are: the partitions and end walls fit only here.
    const rooms3 = bendToWalls(walkPast(rooms, roomFaces, through, () => false, [0, 0]));
    const overPartition = rooms3.windows.filter((w) => w.points >= 40 && [280, 560].some((x) => through[w.from][0] < x && through[w.to][0] > x + 6));
    expect(overPartition.length).toBeGreaterThan(0);
    for (const w of overPartition) expect(w.held, `window ${w.from}–${w.to}`).toBe(true);
    expect(rooms3.held.filter(Boolean).length).toBeGreaterThan(through.length / 2);
    expect(rooms3.holdRingM).toEqual([0.2, 1.4]);
    // Along a corridor without a cross wall, a shift along lays its walls as well: no window is held, nor any keyframe.
    const corridor = plan(420, 80, [[0, 20, 420, 26], [0, 54, 420, 60]]);
    const along = bendToWalls(walkPast(corridor, [[[0, 26], [420, 26], [0, 1]], [[0, 54], [420, 54], [0, -1]]], Array.from({ length: 41 }, (_, i): Vec2 => [20 + i * 9.5, 40]), () => false, [0, 0]));
    expect(along.windows.some((w) => w.points >= 40)).toBe(true);
    expect(along.held.some(Boolean)).toBe(false);
  });
});

describe('nearestOnTrack', () => {
  it('finds the same nearest keyframe as looking at every one, for points on, beside and far from the walk', () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296);
    // A wandering walk, with a stop (keyframes at one place) and a pass back over itself.
    const track: Vec2[] = [];
    let [x, y] = [0, 0];
    for (let i = 0; i < 300; i++) {
      if (i < 100 || i > 110) [x, y] = [x + (rnd() - 0.3) * 0.5, y + (rnd() - 0.5) * 0.5];
      track.push([x, y]);
    }
    const points: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t = track[Math.floor(rnd() * track.length)];
      const spread = i % 10 === 0 ? 40 : 3;
      points.push(t[0] + (rnd() - 0.5) * spread, t[1] + (rnd() - 0.5) * spread);
    }
    const near = nearestOnTrack(track, points, 1);
    for (let p = 0; p < points.length / 2; p++) {
      let best = Infinity, bestI = 0;
      track.forEach((t, i) => {
        const d = (t[0] - points[2 * p]) ** 2 + (t[1] - points[2 * p + 1]) ** 2;
        if (d < best) [best, bestI] = [d, i];
      });
      expect(near[p], `point ${p}`).toBe(bestI);
    }
  });
});
