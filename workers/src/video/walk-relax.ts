/**
 * Lets a long walk bend where its models disagree (pure): a pose graph of
 * the keyframes' places, translations only, solved by least squares.
 *
 * rig-merge.ts joins the models of a walk (each view direction of each
 * window) by one similarity each. A window of a long walk drifts inside
 * itself, so a similarity cannot make it agree both with the window before
 * it and with the earlier window it came back to (its anchors): the
 * disagreement stays, averaged. Here every model instead says only where
 * each keyframe is relative to the keyframes near it (along the walk, and
 * nearby in space, which is where a loop closure ties two passes), in the
 * cluster's frame; the keyframes' places that best agree with all those
 * short measurements at once are found by solving one sparse linear system
 * (a weighted graph Laplacian) per axis, by conjugate gradients. A short
 * measurement is trusted more than a long one (drift grows with distance),
 * and a faint pull towards the joined places fixes what relative
 * measurements cannot (where the whole walk is).
 */
import { mul, norm, rotationExp, rotationLog, sub, transpose, type Mat3, type Vec3 } from './linear-algebra.js';

/** One model's measurement: keyframe `b` lies `d` from keyframe `a` (cluster frame). */
export interface RelaxEdge {
  a: number;
  b: number;
  d: Vec3;
  /** Trust: the inverse of the measurement's variance, up to a common factor. */
  w: number;
}

export interface RelaxOptions {
  /** Spatial neighbours of each keyframe a model measures it against (besides the keyframes before and after it). */
  neighbours: number;
  /** The pull towards the joined places, as a fraction of a keyframe's mean trust. */
  prior: number;
  /** Conjugate-gradient iterations at most, and the relative residual that stops them sooner. */
  iterations: number;
  tolerance: number;
  /**
   * Bend the keyframes' rotations first (relaxRotations), and read each model's measurements of places in the bent
   * frame of their keyframes: a window whose heading drifts measures its late steps turned, which no shift undoes.
   */
  turns: boolean;
}

// Not turned by default: on the building's models (bench/remerge-replay.ts, 2026-11-30) turning made floor 0's shape
// 0.28 m instead of 0.23 (floor 1 0.146 against 0.152), though it took the hard 3-minute walk from 0.088 to 0.065 m and
// a walk whose windows turn as they go (rig-merge.test.ts) from 0.32 to 0.04 m.
export const DEFAULT_RELAX_OPTIONS: RelaxOptions = { neighbours: 16, prior: 1e-5, iterations: 5000, tolerance: 1e-10, turns: false };

/** One model's measurement of how keyframe `b` is turned from keyframe `a`: R_a R_bᵀ (world → rig rotations, any frame). */
export interface TurnEdge {
  a: number;
  b: number;
  m: Mat3;
  w: number;
}

/**
 * The keyframes' rotations (world → rig) that best agree with every measured turn between two of them, pulled faintly
 * towards `initial`. Rotation averaging by Gauss–Newton: each round linearises every edge's disagreement around the
 * rotations so far (a small rotation vector in the world frame) and solves for the world-frame corrections as places
 * are solved (relaxPlaces: the corrections' differences along the edges are the measurements), a few rounds since the
 * disagreements are small (a few degrees of drift).
 */
export function relaxRotations(initial: Map<number, Mat3>, edges: TurnEdge[], opts: RelaxOptions = DEFAULT_RELAX_OPTIONS, rounds = 3): Map<number, Mat3> {
  const current = new Map(initial);
  const usable = edges.filter((e) => current.has(e.a) && current.has(e.b));
  const zero = new Map([...current.keys()].map((k): [number, Vec3] => [k, [0, 0, 0]]));
  for (let round = 0; round < rounds; round++) {
    // With Q = Rᵀ (rig → world) and Q ← exp(φ) Q: the measurement wants Q_b = Q_a M, and the error
    // E = log(Q_b Mᵀ Q_aᵀ) becomes E + φ_b − φ_a to first order, so φ_b − φ_a = −E.
    const linear: RelaxEdge[] = usable.map((e) => {
      const error = rotationLog(mul(mul(transpose(current.get(e.b)!), transpose(e.m)), current.get(e.a)!));
      return { a: e.a, b: e.b, d: [-error[0], -error[1], -error[2]], w: e.w };
    });
    const phi = relaxPlaces(zero, linear, opts);
    for (const [k, r] of current) current.set(k, mul(r, transpose(rotationExp(phi.get(k)!))));
  }
  return current;
}

/**
 * The measurements one model makes (its keyframes' places already in the cluster's frame): each keyframe against the
 * next two in walking order, and against its `neighbours` nearest in space. Weighted 1 / length (a random walk's drift
 * has a variance that grows with the distance), never above 1 / `floor` (the walk's usual step).
 */
export function modelEdges(places: Map<number, Vec3>, neighbours: number, floor: number): RelaxEdge[] {
  const ks = [...places.keys()].sort((x, y) => x - y);
  const out: RelaxEdge[] = [];
  const seen = new Set<string>();
  const add = (a: number, b: number) => {
    if (a === b) return;
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    if (seen.has(key)) return;
    seen.add(key);
    const d = sub(places.get(b)!, places.get(a)!);
    out.push({ a, b, d, w: 1 / Math.max(floor, norm(d)) });
  };
  for (let i = 0; i < ks.length; i++) {
    if (i + 1 < ks.length) add(ks[i], ks[i + 1]);
    if (i + 2 < ks.length) add(ks[i], ks[i + 2]);
  }
  if (neighbours > 0 && ks.length > 2) {
    // Nearest in space, in cells the size of a few steps: loops bring far-apart keyframe numbers together.
    const near = nearestPlaces(places, floor * 4);
    for (const k of ks) for (const o of near(places.get(k)!, neighbours + 1)) add(k, o);
  }
  return out;
}

/**
 * Finds the keyframes nearest a point among `places`, looking in the point's cell of a grid of `cell` and the cells
 * around it; with `everywhere`, among all places when none is that near.
 */
export function nearestPlaces(places: Map<number, Vec3>, cell: number): (q: Vec3, n: number, everywhere?: boolean) => number[] {
  const size = Math.max(cell, 1e-9);
  const key = (p: Vec3, dx = 0, dy = 0, dz = 0) => `${Math.floor(p[0] / size) + dx},${Math.floor(p[1] / size) + dy},${Math.floor(p[2] / size) + dz}`;
  const grid = new Map<string, number[]>();
  for (const [k, p] of places) grid.set(key(p), [...(grid.get(key(p)) ?? []), k]);
  const byDistance = (q: Vec3, ks: Iterable<number>, n: number) =>
    [...ks].map((k) => ({ k, d: norm(sub(places.get(k)!, q)) })).sort((x, y) => x.d - y.d).slice(0, n).map((x) => x.k);
  return (q, n, everywhere = false) => {
    const found: number[] = [];
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) found.push(...(grid.get(key(q, dx, dy, dz)) ?? []));
    return found.length || !everywhere ? byDistance(q, found, n) : byDistance(q, places.keys(), n);
  };
}

/**
 * The places that best agree with every measurement (least squares), pulled faintly towards `initial`: minimises
 * Σ w‖X_b − X_a − d‖² + λ Σ ‖X_k − X0_k‖², with λ = `prior` × the mean weight a keyframe has. Keyframes no edge
 * touches keep their place.
 */
export function relaxPlaces(initial: Map<number, Vec3>, edges: RelaxEdge[], opts: RelaxOptions = DEFAULT_RELAX_OPTIONS): Map<number, Vec3> {
  const ids = [...initial.keys()];
  const index = new Map(ids.map((k, i) => [k, i]));
  const n = ids.length;
  const usable = edges.filter((e) => index.has(e.a) && index.has(e.b) && e.w > 0 && Number.isFinite(e.w));
  if (!usable.length) return new Map(initial);
  // The edges as typed arrays: the product below runs once per iteration and axis.
  const ia = Int32Array.from(usable, (e) => index.get(e.a)!);
  const ib = Int32Array.from(usable, (e) => index.get(e.b)!);
  const w = Float64Array.from(usable, (e) => e.w);
  const degree = new Float64Array(n);
  for (let j = 0; j < w.length; j++) {
    degree[ia[j]] += w[j];
    degree[ib[j]] += w[j];
  }
  const lambda = (opts.prior * degree.reduce((sum, v) => sum + v, 0)) / n;
  // A x = L x + λ x, as a function over the edges (the Laplacian is never built).
  const apply = (x: Float64Array, out: Float64Array) => {
    for (let i = 0; i < n; i++) out[i] = (degree[i] + lambda) * x[i];
    for (let j = 0; j < w.length; j++) {
      out[ia[j]] -= w[j] * x[ib[j]];
      out[ib[j]] -= w[j] * x[ia[j]];
    }
  };
  const diag = Float64Array.from(degree, (v) => v + lambda);
  const result = ids.map((k) => [...initial.get(k)!] as Vec3);
  for (let axis = 0; axis < 3; axis++) {
    const x0 = Float64Array.from(ids, (k) => initial.get(k)![axis]);
    const rhs = Float64Array.from(x0, (v) => lambda * v);
    usable.forEach((e, j) => {
      rhs[ib[j]] += e.w * e.d[axis];
      rhs[ia[j]] -= e.w * e.d[axis];
    });
    const x = conjugateGradient(apply, diag, rhs, x0, opts);
    for (let i = 0; i < n; i++) result[i][axis] = x[i];
  }
  return new Map(ids.map((k, i) => [k, result[i]]));
}

/** Solves A x = b for a symmetric positive definite A given as a product, from `start`, preconditioned by A's diagonal. */
function conjugateGradient(apply: (x: Float64Array, out: Float64Array) => void, diag: Float64Array, b: Float64Array, start: Float64Array, opts: RelaxOptions): Float64Array {
  const n = b.length;
  const x = Float64Array.from(start);
  const r = new Float64Array(n);
  apply(x, r);
  for (let i = 0; i < n; i++) r[i] = b[i] - r[i];
  const z = Float64Array.from(r, (v, i) => v / diag[i]);
  const p = Float64Array.from(z);
  const ap = new Float64Array(n);
  let rz = dotOf(r, z);
  const bNorm = Math.sqrt(dotOf(b, b)) || 1;
  for (let it = 0; it < opts.iterations && Math.sqrt(dotOf(r, r)) / bNorm > opts.tolerance; it++) {
    apply(p, ap);
    const alpha = rz / dotOf(p, ap);
    for (let i = 0; i < n; i++) {
      x[i] += alpha * p[i];
      r[i] -= alpha * ap[i];
    }
    for (let i = 0; i < n; i++) z[i] = r[i] / diag[i];
    const next = dotOf(r, z);
    const beta = next / rz;
    rz = next;
    for (let i = 0; i < n; i++) p[i] = z[i] + beta * p[i];
  }
  return x;
}

const dotOf = (a: Float64Array, b: Float64Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
