import { describe, expect, it } from 'vitest';
import {
  IDENTITY,
  apply,
  applyInverse,
  boundsOf,
  dragAngle,
  dragFactor,
  fitToSheet,
  fitTwoPoints,
  mirrorAbout,
  normaliseAngle,
  overlayCentre,
  rotateAbout,
  sameWithin,
  scaleAbout,
  thin,
  toDegrees,
  toMatrix,
  translate,
  type Point,
  type Similarity,
} from './projection-transform';

const close = (a: Point, b: Point, eps = 1e-9) => {
  expect(a.x).toBeCloseTo(b.x, 6);
  expect(a.y).toBeCloseTo(b.y, 6);
  expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeLessThan(eps + 1e-6);
};

const T: Similarity = { scale: 50, rotation: 0.4, tx: 120, ty: 700, mirror: false };
const walk: Point[] = [
  { x: 2.5, y: 1.8 },
  { x: 6, y: 1.8 },
  { x: 12, y: 3.5 },
  { x: 20, y: 10 },
  { x: 3, y: 12 },
];

describe('the overlay transform', () => {
  it('scales, turns and moves a point, and comes back', () => {
    const p = apply({ scale: 2, rotation: Math.PI / 2, tx: 10, ty: 20, mirror: false }, { x: 1, y: 0 });
    close(p, { x: 10, y: 22 }); // x axis turned onto +y (down the sheet), doubled
    for (const m of [false, true]) for (const q of walk) close(applyInverse({ ...T, mirror: m }, apply({ ...T, mirror: m }, q)), q);
  });

  it('mirrors the source y axis (a plan in metres, y north, onto a sheet whose y runs down)', () => {
    // The walk fixture's plan: 50 px per metre, world (0, 0) at (55, 755), y up.
    const plan: Similarity = { scale: 50, rotation: 0, tx: 55, ty: 755, mirror: true };
    close(apply(plan, { x: 0, y: 0 }), { x: 55, y: 755 });
    close(apply(plan, { x: 24, y: 14 }), { x: 55 + 1200, y: 755 - 700 });
  });

  it('gives the same matrix a canvas would apply', () => {
    for (const m of [false, true]) {
      const t = { ...T, mirror: m };
      const [a, b, c, d, e, f] = toMatrix(t);
      for (const p of walk) close({ x: a * p.x + c * p.y + e, y: b * p.x + d * p.y + f }, apply(t, p));
    }
  });

  it('drags, rotates and scales about a pivot that stays put', () => {
    const pivot = overlayCentre(T, walk);
    const source = applyInverse(T, pivot);
    const turned = rotateAbout(T, 0.7, pivot);
    close(apply(turned, source), pivot);
    expect(turned.rotation).toBeCloseTo(1.1);
    const grown = scaleAbout(turned, 1.5, pivot);
    close(apply(grown, source), pivot);
    expect(grown.scale).toBeCloseTo(75);
    const flipped = mirrorAbout(grown, pivot);
    close(apply(flipped, applyInverse(flipped, pivot)), pivot);
    expect(flipped.mirror).toBe(true);
    close(apply(flipped, source), pivot);
    const moved = translate(flipped, 5, -3);
    close(apply(moved, source), { x: pivot.x + 5, y: pivot.y - 3 });
    // Distances between points scale, nothing else changes them.
    const d = (t: Similarity) => Math.hypot(apply(t, walk[0]).x - apply(t, walk[3]).x, apply(t, walk[0]).y - apply(t, walk[3]).y);
    expect(d(moved) / d(T)).toBeCloseTo(1.5);
  });

  it('ignores a scale that would make the overlay vanish or explode', () => {
    expect(scaleAbout(T, 0, { x: 0, y: 0 })).toBe(T);
    expect(scaleAbout(T, -2, { x: 0, y: 0 })).toBe(T);
    expect(scaleAbout(T, Number.POSITIVE_INFINITY, { x: 0, y: 0 })).toBe(T);
  });

  it('turns a mouse drag into an angle and a factor about the pivot', () => {
    const c = { x: 100, y: 100 };
    expect(dragAngle(c, { x: 200, y: 100 }, { x: 100, y: 200 })).toBeCloseTo(Math.PI / 2); // clockwise on screen
    expect(dragAngle(c, { x: 200, y: 100 }, { x: 100, y: 0 })).toBeCloseTo(-Math.PI / 2);
    expect(dragAngle(c, { x: 0, y: 101 }, { x: 0, y: 99 })).toBeCloseTo(0.02, 3); // across ±π stays small
    expect(dragFactor(c, { x: 150, y: 100 }, { x: 200, y: 100 })).toBeCloseTo(2);
    expect(dragFactor(c, c, { x: 200, y: 100 })).toBe(1);
  });
});

describe('fitting the walk to where it started and ended on the plan', () => {
  it('finds the transform back from two points, mirrored or not', () => {
    for (const mirror of [false, true]) {
      const truth = { ...T, mirror };
      const start = walk[0];
      const end = walk[3];
      const fit = fitTwoPoints(start, end, apply(truth, start), apply(truth, end), mirror)!;
      expect(fit).not.toBeNull();
      expect(fit.scale).toBeCloseTo(truth.scale);
      expect(normaliseAngle(fit.rotation)).toBeCloseTo(normaliseAngle(truth.rotation));
      for (const p of walk) close(apply(fit, p), apply(truth, p));
      expect(sameWithin(fit, truth, boundsOf(walk)!, 1e-6)).toBe(true);
    }
  });

  it('puts the clicked points exactly on the walk ends', () => {
    const a = { x: 300, y: 400 };
    const b = { x: 900, y: 250 };
    const fit = fitTwoPoints(walk[0], walk[4], a, b)!;
    close(apply(fit, walk[0]), a);
    close(apply(fit, walk[4]), b);
  });

  it('refuses a walk that ends where it started, or two clicks on one spot', () => {
    expect(fitTwoPoints(walk[0], walk[0], { x: 0, y: 0 }, { x: 10, y: 0 })).toBeNull();
    expect(fitTwoPoints(walk[0], walk[1], { x: 5, y: 5 }, { x: 5, y: 5 })).toBeNull();
  });
});

describe('first guess and helpers', () => {
  it('centres the points on the sheet at 80 % of its size', () => {
    const t = fitToSheet(walk, { width: 1000, height: 600 });
    const b = boundsOf(walk.map((p) => apply(t, p)))!;
    expect((b.x0 + b.x1) / 2).toBeCloseTo(500);
    expect((b.y0 + b.y1) / 2).toBeCloseTo(300);
    expect(Math.max((b.x1 - b.x0) / 1000, (b.y1 - b.y0) / 600)).toBeCloseTo(0.8);
    const m = fitToSheet(walk, { width: 1000, height: 600 }, 0.8, true);
    const bm = boundsOf(walk.map((p) => apply(m, p)))!;
    expect((bm.y0 + bm.y1) / 2).toBeCloseTo(300);
    expect(fitToSheet([], { width: 10, height: 20 })).toEqual({ ...IDENTITY, tx: 5, ty: 10 });
  });

  it('thins long lists evenly, keeping the order and the first point', () => {
    const many = Array.from({ length: 1000 }, (_, i) => i);
    const few = thin(many, 100);
    expect(few).toHaveLength(100);
    expect(few[0]).toBe(0);
    expect(few[1]).toBe(10);
    expect(thin(many, 2000)).toBe(many);
  });

  it('shows the rotation in degrees from 0 to 360', () => {
    expect(toDegrees(Math.PI / 2)).toBe(90);
    expect(toDegrees(-Math.PI / 2)).toBe(270);
    expect(toDegrees(2 * Math.PI)).toBe(0);
    expect(boundsOf([{ x: Number.NaN, y: 1 }])).toBeNull();
  });
});
