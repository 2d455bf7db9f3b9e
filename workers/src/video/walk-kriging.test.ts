import { describe, expect, it } from 'vitest';
import type { Vec2 } from './linear-algebra.js';
import { walkKriging } from './walk-kriging.js';

/** A walk of keyframes every 0.5 m through the given corners (metres), and the distance along it between two of them. */
function walk(corners: Vec2[]): { track: Vec2[]; along: (i: number, j: number) => number } {
  const track: Vec2[] = [corners[0]];
  for (let c = 1; c < corners.length; c++) {
    const [a, b] = [corners[c - 1], corners[c]];
    const n = Math.round(Math.hypot(b[0] - a[0], b[1] - a[1]) / 0.5);
    for (let i = 1; i <= n; i++) track.push([a[0] + ((b[0] - a[0]) * i) / n, a[1] + ((b[1] - a[1]) * i) / n]);
  }
  return { track, along: (i, j) => Math.abs(i - j) * 0.5 };
}

const krige = (track: Vec2[], along: (i: number, j: number) => number, controls: number[]) =>
  walkKriging({ track, controls, fromControl: controls.map((c) => track.map((_, i) => along(c, i))), driftM: 0.05, clickM: 0.08 });

describe('walkKriging', () => {
  it('is the Brownian bridge between two control points, plus their clicks through the fit', () => {
    const { track, along } = walk([[0, 0], [20, 0]]);
    const k = krige(track, along, [0, 40]);
    // Halfway along 20 m: 10·10/20 m of drift; the two clicks average out at the controls' centroid.
    expect(k.variance(20)).toBeCloseTo(0.05 ** 2 * 5 + 0.08 ** 2 / 2, 9);
    // At a control point, its click (shared with the other's through the fit), not the drift.
    expect(k.variance(0)).toBeCloseTo(0.08 ** 2, 9);
  });

  it('takes a soft control point (a place the walls vouch for) at its own error, between a click and no control', () => {
    const { track, along } = walk([[0, 0], [40, 0]]);
    const controls = [0, 40, 80];
    const soft = (errorM: number) =>
      walkKriging({ track, controls, fromControl: controls.map((c) => track.map((_, i) => along(c, i))), driftM: 0.05, clickM: 0.08, clickMs: [0.08, errorM, 0.08], trend: 'shift' });
    const hard = soft(0.08).variance(40), loose = soft(0.2).variance(40);
    const none = walkKriging({ track, controls: [0, 80], fromControl: [0, 80].map((c) => track.map((_, i) => along(c, i))), driftM: 0.05, clickM: 0.08, trend: 'shift' }).variance(40);
    expect(hard).toBeLessThan(loose);
    expect(loose).toBeLessThan(none);
    // Never surer than its own error at the soft point itself.
    expect(loose).toBeLessThan(0.2 ** 2);
    expect(loose).toBeGreaterThan(0.2 ** 2 / 4);
  });

  it('grows with the lever beyond the controls: the drift between them turns the walk', () => {
    // Pinned 10 m apart along x, then the walk turns and goes 20 m up: its end swings on the 10 m lever.
    const { track, along } = walk([[0, 0], [10, 0], [10, 20]]);
    const k = krige(track, along, [0, 20]);
    const end = track.length - 1;
    // More than the 20 m of walk from the nearer control alone would give.
    expect(k.variance(end)).toBeGreaterThan(0.05 ** 2 * 20 * 2);
    // A third control at the end makes it as sure as a control point.
    const more = krige(track, along, [0, 20, end]);
    expect(more.variance(end)).toBeLessThan(0.08 ** 2 * 1.01);
    expect(more.variance(end - 10)).toBeLessThan(k.variance(end - 10) / 3);
    // With the turn and scale known (the walls), the controls fix only the shift: no lever, the drift alone.
    const shift = walkKriging({ track, controls: [0, 20], fromControl: [0, 20].map((c) => track.map((_, i) => along(c, i))), driftM: 0.05, clickM: 0.08, trend: 'shift' });
    expect(shift.variance(end)).toBeLessThan(0.05 ** 2 * 40 + 0.08 ** 2);
    expect(shift.variance(end)).toBeLessThan(k.variance(end));
  });
});
