/**
 * How sure a room's place on the sheet is, from the control points (pure).
 *
 * The reconstruction's error is modelled as a random walk along the walk's
 * graph (placement-confidence.ts): two places a and b are off from each
 * other by driftM²·R(a, b) in variance, R their distance in the graph
 * (metres of walk, weighted where the reconstruction is weak, shortened by
 * the loops it closed). A room's sheet place is that error on top of an
 * unknown similarity of the top-down walk (the fit), and each control point
 * measures it, off by the click (clickM). The expected error of a room is
 * then the universal-kriging variance with the similarity as the trend: the
 * Brownian bridge between two controls, growing with the fit's swing away
 * from the line through them (the drift between the controls turns and
 * scales the whole walk, as their clicks do), and small near every control.
 * Each component (x, y) of the error is independent with half the variance.
 */
import { Matrix, inverse } from 'ml-matrix';
import type { Vec2 } from './linear-algebra.js';

export interface WalkKrigingInput {
  /** Top-down places of the keyframes, metres (any frame: the trend takes a similarity). */
  track: Vec2[];
  /** The track index of each control point. */
  controls: number[];
  /** For each control, its graph distance R to every keyframe (metres of walk). */
  fromControl: ArrayLike<number>[];
  /** Drift, metres per √metre of walk. */
  driftM: number;
  /** Error of one control point, metres. */
  clickM: number;
  /** Each control's own error where they differ (metres; absent: `clickM` for all): a place the walls vouch for is a soft control. */
  clickMs?: number[];
  /**
   * What the controls must fix of the trend: 'similarity' (turn, scale and shift), or 'shift' when the turn and scale
   * are known otherwise (the walk snapped to the plan's walls).
   */
  trend?: 'similarity' | 'shift';
  /**
   * Covariance (one component, m²) of an error the drift does not carry, between two keyframes (track indices): a
   * piece of the walk turned as a whole (placement-confidence.ts). Absent: none.
   */
  local?: (a: number, b: number) => number;
}

export interface WalkKriging {
  /** Expected squared error at keyframe i (m²), the similarity fitted to the controls. */
  variance(i: number): number;
  /**
   * Where keyframe i lies past a placement, given how far that placement leaves each control (metres, x and y): the
   * trend those misses share, and what is left of them carried along the walk to the rooms near each control. With
   * 'local', only the part the `local` covariance carries (factorial kriging: the error of that component alone,
   * without the trend or the drift).
   */
  predictor(misses: Vec2[], part?: 'all' | 'local'): (i: number) => Vec2;
}

export function walkKriging(input: WalkKrigingInput): WalkKriging {
  const { track, controls, fromControl } = input;
  const m = controls.length;
  if (m < 2) throw new Error('Kriging the walk needs two or more control points.');
  const half = input.driftM ** 2 / 2;
  // A click of at least a millimetre keeps the system solvable when two controls share a keyframe.
  const nugget = (j: number) => Math.max(input.clickMs?.[j] ?? input.clickM, 1e-3) ** 2 / 2;
  // Covariance of the error (one component), the error taken as 0 at the first control: G(a, b) = ½(R(a,g) + R(b,g) − R(a,b)).
  const R = (j: number, i: number) => fromControl[j][i];
  const Gc = (j: number, k: number) => 0.5 * (R(0, controls[j]) + R(0, controls[k]) - R(k, controls[j]));
  const local = input.local ?? (() => 0);
  const cov = Matrix.zeros(m, m);
  for (let j = 0; j < m; j++)
    for (let k = 0; k < m; k++) cov.set(j, k, half * (j === k ? Gc(j, j) : 0.5 * (Gc(j, k) + Gc(k, j))) + local(controls[j], controls[k]) + (j === k ? nugget(j) : 0));
  const covInv = inverse(cov);
  // The trend's basis at a place (x, y), per component: x' = a·x − b·y + c, y' = b·x + a·y + d.
  const centre: Vec2 = [controls.reduce((s, i) => s + track[i][0], 0) / m, controls.reduce((s, i) => s + track[i][1], 0) / m];
  const shiftOnly = input.trend === 'shift';
  const nb = shiftOnly ? 2 : 4;
  const basis = (i: number): [number[], number[]] => {
    const x = track[i][0] - centre[0], y = track[i][1] - centre[1];
    return shiftOnly
      ? [
          [1, 0],
          [0, 1],
        ]
      : [
          [x, -y, 1, 0],
          [y, x, 0, 1],
        ];
  };
  const F = controls.map(basis);
  const A = Matrix.zeros(nb, nb);
  for (let j = 0; j < m; j++)
    for (let k = 0; k < m; k++) {
      const w = covInv.get(j, k);
      for (const comp of [0, 1]) for (let p = 0; p < nb; p++) for (let q = 0; q < nb; q++) A.set(p, q, A.get(p, q) + w * F[j][comp][p] * F[k][comp][q]);
    }
  const AInv = inverse(A);

  /** Covariance of keyframe i's error with each control's, and its solve against the controls' covariance. */
  const against = (i: number) => {
    const g = controls.map((c, j) => half * 0.5 * (R(0, i) + R(0, c) - R(j, i)) + local(i, c));
    const u = covInv.mmul(Matrix.columnVector(g)).getColumn(0);
    return { g, u };
  };
  return {
    variance(i) {
      const { g, u } = against(i);
      const gu = g.reduce((s, v, j) => s + v * u[j], 0);
      const [fx, fy] = basis(i);
      let trend = 0;
      for (const comp of [0, 1]) {
        const r = (comp ? fy : fx).map((f, p) => f - controls.reduce((s, _, j) => s + u[j] * F[j][comp][p], 0));
        for (let p = 0; p < nb; p++) for (let q = 0; q < nb; q++) trend += r[p] * AInv.get(p, q) * r[q];
      }
      return Math.max(0, 2 * (half * R(0, i) + local(i, i) - gu) + trend);
    },
    predictor(misses, part = 'all') {
      // The trend's coefficients by generalised least squares: (Fᵀ K⁻¹ F)⁻¹ Fᵀ K⁻¹ y, over both components.
      const fy = new Array<number>(nb).fill(0);
      for (let j = 0; j < m; j++)
        for (let k = 0; k < m; k++) {
          const w = covInv.get(j, k);
          for (const comp of [0, 1]) for (let p = 0; p < nb; p++) fy[p] += w * F[j][comp][p] * misses[k][comp];
        }
      const beta = Array.from({ length: nb }, (_, p) => fy.reduce((s, v, q) => s + AInv.get(p, q) * v, 0));
      const trendAt = (f: number[]) => f.reduce((s, v, p) => s + v * beta[p], 0);
      const left = controls.map((_, j) => [misses[j][0] - trendAt(F[j][0]), misses[j][1] - trendAt(F[j][1])]);
      if (part === 'local')
        return (i) => {
          const u = covInv.mmul(Matrix.columnVector(controls.map((c) => local(i, c)))).getColumn(0);
          return [u.reduce((s, v, j) => s + v * left[j][0], 0), u.reduce((s, v, j) => s + v * left[j][1], 0)];
        };
      return (i) => {
        const { u } = against(i);
        const [fx, fyP] = basis(i);
        return [trendAt(fx) + u.reduce((s, v, j) => s + v * left[j][0], 0), trendAt(fyP) + u.reduce((s, v, j) => s + v * left[j][1], 0)];
      };
    },
  };
}
