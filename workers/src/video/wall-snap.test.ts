import { describe, expect, it } from 'vitest';
import { distanceToInk, distanceToInkEdge, snapStarts, snapToWalls, type SheetRaster } from './wall-snap.js';
import { applySimilarity, type Similarity2D, type Vec2 } from './linear-algebra.js';
import { fitSimilarity2D } from './similarity-fit.js';

function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a * 1664525 + 1013904223) >>> 0;
    return a / 4294967296;
  };
}

const inverse = (t: Similarity2D): Similarity2D => {
  const s = 1 / t.scale, r = -t.rotation;
  const c = Math.cos(r) * s, n = Math.sin(r) * s;
  return { scale: s, rotation: r, tx: -(c * t.tx - n * t.ty), ty: -(n * t.tx + c * t.ty) };
};

/** A plan of three rooms in a row: walls 6 px thick, drawn black on white; returns the raster and the walls' faces with the side they are seen from. */
function threeRooms(): { raster: SheetRaster; faces: Array<[Vec2, Vec2, Vec2]> } {
  const width = 420, height = 260;
  const grey = new Uint8Array(width * height).fill(255);
  const box = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) grey[y * width + x] = 0;
  };
  // Outer walls and two partitions, each with a door gap.
  box(20, 20, 400, 26); box(20, 234, 400, 240); box(20, 20, 26, 240); box(394, 20, 400, 240);
  box(140, 20, 146, 110); box(140, 150, 146, 240);
  box(280, 20, 286, 180); box(280, 210, 286, 240);
  // A pillar.
  box(200, 120, 212, 132);
  // Inner faces the cameras see (a sample of them is enough).
  const faces: Array<[Vec2, Vec2, Vec2]> = [
    [[26, 26], [394, 26], [0, 1]], [[26, 234], [394, 234], [0, -1]], [[26, 26], [26, 234], [1, 0]], [[394, 26], [394, 234], [-1, 0]],
    [[140, 26], [140, 110], [-1, 0]], [[146, 26], [146, 110], [1, 0]], [[140, 150], [140, 234], [-1, 0]], [[146, 150], [146, 234], [1, 0]],
    [[280, 26], [280, 180], [-1, 0]], [[286, 26], [286, 180], [1, 0]], [[200, 120], [212, 120], [0, -1]], [[200, 132], [212, 132], [0, 1]],
  ];
  return { raster: { width, height, grey, scale: 1 }, faces };
}

describe('distanceToInk', () => {
  it('gives the exact Euclidean distance to the nearest dark pixel', () => {
    const rnd = random(7);
    const width = 37, height = 23;
    const grey = new Uint8Array(width * height).map(() => (rnd() < 0.03 ? 0 : rnd() < 0.5 ? 200 : 140));
    const d = distanceToInk({ width, height, grey });
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let best = Infinity;
        for (let j = 0; j < height; j++) for (let i = 0; i < width; i++) if (grey[j * width + i] < 128) best = Math.min(best, Math.hypot(i - x, j - y));
        expect(d[y * width + x]).toBeCloseTo(best, 5);
      }
    }
  });

  it('signs the distance to the edge of the ink: positive outside, negative inside', () => {
    const width = 9, height = 1;
    const grey = new Uint8Array([255, 255, 255, 0, 0, 0, 0, 255, 255]);
    expect([...distanceToInkEdge({ width, height, grey })]).toEqual([2.5, 1.5, 0.5, -0.5, -1.5, -1.5, -0.5, 0.5, 1.5]);
  });

  it('is infinite everywhere on a blank plan', () => {
    const d = distanceToInk({ width: 5, height: 4, grey: new Uint8Array(20).fill(255) });
    expect([...d].every((v) => v === Infinity)).toBe(true);
  });
});

describe('snapToWalls', () => {
  const { raster, faces } = threeRooms();
  const dist = distanceToInkEdge(raster);
  // The true placement: reconstruction units → sheet pixels.
  const truth: Similarity2D = { scale: 23, rotation: 0.4, tx: 210, ty: 130 };
  const back = inverse(truth);
  const rnd = random(3);
  const onSheet: Vec2[] = [];
  const sides: Vec2[] = [];
  for (const [a, b, side] of faces) {
    const n = Math.round(Math.hypot(b[0] - a[0], b[1] - a[1]) / 2);
    for (let i = 0; i <= n; i++) {
      const f = i / n;
      // Points on the face, with 1 px of noise off it.
      onSheet.push([a[0] + f * (b[0] - a[0]) + (rnd() - 0.5) * 2, a[1] + f * (b[1] - a[1]) + (rnd() - 0.5) * 2]);
      sides.push(side);
    }
  }
  // Clutter the plan does not draw: a fifth of the points anywhere in the rooms.
  const clutter = Math.round(onSheet.length / 4);
  for (let i = 0; i < clutter; i++) {
    onSheet.push([30 + rnd() * 360, 30 + rnd() * 200]);
    const a = rnd() * 2 * Math.PI;
    sides.push([Math.cos(a), Math.sin(a)]);
  }
  const walls = onSheet.map((p) => applySimilarity(back, p));
  // The sides seen from, turned like the walk.
  const toward = sides.map((v) => applySimilarity({ scale: 1, rotation: back.rotation, tx: 0, ty: 0 }, v));
  // The walk's start and end as the user clicked them, the cameras placed 3 px off them.
  const clicks: Vec2[] = [[60, 200], [350, 60]];
  const controls = clicks.map((to, i) => ({ from: applySimilarity(back, [to[0] + (i ? -3 : 3), to[1] + 2]), to }));
  const unitsPerPx = 1 / truth.scale;
  const input = {
    walls,
    toward,
    // Thicker than the walls (6 px).
    offset: 8 * unitsPerPx,
    controls,
    dist,
    raster,
    // A metre is 20 px on this plan.
    reaches: [10, 5, 2.4].map((px) => px * unitsPerPx),
    controlTolerance: 10,
  };

  it('turns a first fit that is off by 2° and 3 % onto the walls', () => {
    const start: Similarity2D = { scale: truth.scale * 1.03, rotation: truth.rotation + (2 * Math.PI) / 180, tx: truth.tx - 4, ty: truth.ty + 5 };
    const r = snapToWalls({ ...input, start });
    expect(r.kept).toBe(true);
    expect(r.onInkAfter).toBeGreaterThan(r.onInkBefore);
    // Every true wall point is back within a pixel of where it belongs.
    const err = (t: Similarity2D) => Math.max(...walls.slice(0, walls.length - clutter).map((p, i) => {
      const q = applySimilarity(t, p);
      return Math.hypot(q[0] - onSheet[i][0], q[1] - onSheet[i][1]);
    }));
    expect(err(start)).toBeGreaterThan(8);
    expect(err(r.transform)).toBeLessThan(1);
    expect(Math.abs(r.transform.rotation - truth.rotation)).toBeLessThan((0.2 * Math.PI) / 180);
    expect(r.transform.scale / truth.scale).toBeCloseTo(1, 2);
  });

  it('finds the walls when two control points a metre apart turn the first fit 17° off (one clicked 0.3 m aside)', () => {
    // A metre is 20 px: the walk pinned at its start and a metre on, the second point clicked 6 px aside.
    const truePlaces: Vec2[] = [[60, 200], [80, 200]];
    const near = truePlaces.map((to, i) => ({ from: applySimilarity(back, to), to: (i ? [to[0], to[1] + 6] : to) as Vec2 }));
    const start = fitSimilarity2D(near.map((c) => c.from), near.map((c) => c.to));
    expect(Math.abs(start.rotation - truth.rotation)).toBeGreaterThan((15 * Math.PI) / 180);
    const r = snapToWalls({ ...input, start, controls: near });
    expect(r.kept).toBe(true);
    // The walls' turn, not the clicks': the room at the far end of the plan is back within a pixel or two.
    expect(Math.abs(r.transform.rotation - truth.rotation)).toBeLessThan((0.5 * Math.PI) / 180);
    const far = applySimilarity(r.transform, applySimilarity(back, [380, 40]));
    expect(Math.hypot(far[0] - 380, far[1] - 40)).toBeLessThan(2);
    // So the point clicked aside is missed by about as much as it was clicked aside: the user is told (placement-confidence.ts).
    const miss = applySimilarity(r.transform, near[1].from);
    expect(Math.hypot(miss[0] - near[1].to[0], miss[1] - near[1].to[1])).toBeGreaterThan(4);
  });

  it('turns the first fit further only as far as the control points\' lever leaves its turn unknown', () => {
    const turns = (controls: { to: Vec2 }[]) => Math.max(...snapStarts(controls, 10).map(([t]) => Math.abs(t)));
    // 20 m apart (400 px), a click 0.5 m aside turns the walk by under 3°: the close starts cover it.
    expect(turns([{ to: [0, 0] }, { to: [400, 0] }])).toBe(2);
    // A metre apart, it could be anything up to 45°: starts every 4° up to 30°.
    expect(turns([{ to: [0, 0] }, { to: [20, 0] }])).toBe(28);
  });

  it('keeps the control points\' fit when the plan shows no walls', () => {
    const start: Similarity2D = { ...truth, rotation: truth.rotation + 0.02 };
    const blank = { ...raster, grey: new Uint8Array(raster.width * raster.height).fill(255) };
    const r = snapToWalls({ ...input, start, dist: distanceToInkEdge(blank), raster: blank });
    expect(r.kept).toBe(false);
    expect(r.transform).toEqual(start);
  });

  it('keeps the control points\' fit when matching walls would carry a control point away', () => {
    const start: Similarity2D = { scale: truth.scale * 1.03, rotation: truth.rotation + (2 * Math.PI) / 180, tx: truth.tx - 4, ty: truth.ty + 5 };
    // The user put the end 40 px from where the walls say it is.
    const far = [controls[0], { ...controls[1], to: [controls[1].to[0] + 40, controls[1].to[1]] as Vec2 }];
    const r = snapToWalls({ ...input, start, controls: far });
    expect(r.kept).toBe(false);
    expect(r.reason).toMatch(/control point/);
    expect(r.transform).toEqual(start);
  });
});
