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
  /**
   * Let each model's scale drift along its keyframes (relaxWithScales), solved together with the places: a window mapped
   * through plain rooms grows or shrinks as it goes, which neither a shift nor a turn of its keyframes takes up. Null: each
   * model keeps the one scale of its similarity.
   */
  scales: ScaleOptions | null;
}

export interface ScaleOptions {
  /** Keyframes between two knots of a model's scale curve (linear between them). */
  spacing: number;
  /** How strongly two knots next to each other are held to the same scale, as a fraction of a knot's mean trust. */
  stiffness: number;
  /** How strongly each knot is held at scale 1, as a fraction of its mean trust. */
  pull: number;
  /** Gauss–Newton rounds. */
  rounds: number;
}

// Not turned by default: on the building's models (bench/remerge-replay.ts, 2026-11-30) turning made floor 0's shape
// 0.28 m instead of 0.23 (floor 1 0.146 against 0.152), though it took the hard 3-minute walk from 0.088 to 0.065 m and
// a walk whose windows turn as they go (rig-merge.test.ts) from 0.32 to 0.04 m.
// Not scaled by default: the building's models do drift in scale inside themselves (bench/model-drift.ts: stretches of
// 40 keyframes ±2–6 % from their model's whole fit), but on a later run's models scale curves took floor 1's shape from
// 0.145 to 0.114–0.128 m and made floor 0's worse, 0.174 → 0.18–0.42 m (spacing 16–48, stiffness 0.05–1, pull 1e-6–1).
// Floor 0's error sits where one window mapped a dead end poorly (its directions broke or kept only half the keyframes),
// which no other model sees: no way of bending mends what only one model measured.
export const DEFAULT_RELAX_OPTIONS: RelaxOptions = { neighbours: 16, prior: 1e-5, iterations: 5000, tolerance: 1e-10, turns: false, scales: null };

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

/**
 * One model's log-scale along its keyframes: values at `knots` (keyframe numbers, ascending), linear between them and
 * flat beyond. A keyframe the model placed away from its own stretch of the walk (an anchor of an earlier lap) takes
 * the scale at `own(k)`, the keyframe of its stretch it was measured from.
 */
export interface ScaleCurve {
  knots: number[];
  values: number[];
  own: (k: number) => number;
}

/** The knots' weights of a curve's log-scale at keyframe `k` (at most two). */
export function scaleWeights(curve: ScaleCurve, k: number): [number, number][] {
  const at = curve.own(k);
  const { knots } = curve;
  if (at <= knots[0] || knots.length === 1) return [[0, 1]];
  if (at >= knots[knots.length - 1]) return [[knots.length - 1, 1]];
  let j = 0;
  while (knots[j + 1] < at) j++;
  const t = (at - knots[j]) / (knots[j + 1] - knots[j]);
  return [
    [j, 1 - t],
    [j + 1, t],
  ];
}

/** The log-scale of a model's measurement `e`: its curve's, halfway between the two ends. */
export function edgeLogScale(curve: ScaleCurve, e: { a: number; b: number }): number {
  let s = 0;
  for (const k of [e.a, e.b]) for (const [j, t] of scaleWeights(curve, k)) s += (t * curve.values[j]) / 2;
  return s;
}

/**
 * A model's scale curve with knots every `spacing` keyframes over its own stretch of the walk (the longest run of
 * keyframes without a gap of `spacing`), all at 1 (log 0); a keyframe off that stretch takes the scale of the stretch's
 * keyframe nearest to it in space.
 */
export function flatScaleCurve(places: Map<number, Vec3>, spacing: number): ScaleCurve {
  const ks = [...places.keys()].sort((x, y) => x - y);
  let best: number[] = [];
  let run: number[] = [];
  for (const k of ks) {
    if (run.length && k - run[run.length - 1] > spacing) run = [];
    run.push(k);
    if (run.length > best.length) best = run;
  }
  const first = best[0];
  const last = best[best.length - 1];
  const count = Math.max(1, Math.round((last - first) / spacing));
  const knots = Array.from({ length: count + 1 }, (_, i) => first + ((last - first) * i) / count);
  const stretch = new Set(best);
  const nearest = nearestPlaces(new Map(best.map((k) => [k, places.get(k)!])), spacing);
  const memo = new Map<number, number>();
  const own = (k: number) => {
    if (stretch.has(k) || !places.has(k)) return k;
    if (!memo.has(k)) memo.set(k, nearest(places.get(k)!, 1, true)[0]);
    return memo.get(k)!;
  };
  return { knots, values: new Array<number>(knots.length).fill(0), own };
}

/** A model's measurements and its scale curve (relaxWithScales). */
export interface ScaledModel {
  edges: RelaxEdge[];
  curve: ScaleCurve;
}

/**
 * The places and every model's scale curve that best agree with all measurements at once, each measurement scaled by
 * its model's scale there: minimises Σ w‖X_b − X_a − e^σ d‖² + λ Σ ‖X_k − X0_k‖², with each model's neighbouring knots
 * held together (`stiffness` × a knot's mean trust) and every knot faintly towards scale 1. Gauss–Newton: each round
 * solves the linearised problem for places and knots together (one sparse system, by conjugate gradients), since
 * solving them in turn zig-zags (on a walk whose windows grow 1 % a keyframe, 30 rounds in turn reached what 3 together do).
 */
export function relaxWithScales(initial: Map<number, Vec3>, models: ScaledModel[], opts: RelaxOptions & { scales: ScaleOptions }): { places: Map<number, Vec3>; curves: ScaleCurve[] } {
  const ids = [...initial.keys()];
  const index = new Map(ids.map((k, i) => [k, i]));
  const n = ids.length;
  const offsets: number[] = [];
  let knots = 0;
  for (const m of models) {
    offsets.push(knots);
    knots += m.curve.values.length;
  }
  const size = 3 * n + knots;
  // Each usable edge: its ends, trust, measurement, and its log-scale as weights of knots (global knot numbers).
  const edges = models.flatMap((m, mi) =>
    m.edges
      .filter((e) => index.has(e.a) && index.has(e.b) && e.w > 0 && Number.isFinite(e.w))
      .map((e) => {
        const c = new Map<number, number>();
        for (const k of [e.a, e.b]) for (const [j, t] of scaleWeights(m.curve, k)) c.set(offsets[mi] + j, (c.get(offsets[mi] + j) ?? 0) + t / 2);
        return { a: index.get(e.a)!, b: index.get(e.b)!, w: e.w, d: e.d, c: [...c] };
      }),
  );
  const x = new Float64Array(size);
  ids.forEach((k, i) => x.set(initial.get(k)!, 3 * i));
  if (!edges.length) return { places: new Map(initial), curves: models.map((m) => m.curve) };
  const degree = new Float64Array(n);
  for (const e of edges) {
    degree[e.a] += e.w;
    degree[e.b] += e.w;
  }
  const lambda = (opts.prior * degree.reduce((sum, v) => sum + v, 0)) / n;
  for (let round = 0; round < opts.scales.rounds; round++) {
    // Linearised at the knots so far: each measurement D = e^σ d, and its change with a knot's log-scale is D itself.
    const D = edges.map((e) => {
      const s = Math.exp(e.c.reduce((sum, [j, t]) => sum + t * x[3 * n + j], 0));
      return [e.d[0] * s, e.d[1] * s, e.d[2] * s] as Vec3;
    });
    const knotTrust = new Float64Array(knots);
    edges.forEach((e, i) => {
      const dd = e.w * (D[i][0] ** 2 + D[i][1] ** 2 + D[i][2] ** 2);
      for (const [j, t] of e.c) knotTrust[j] += dd * t * t;
    });
    // Per model, the hold between its neighbouring knots and the faint pull towards scale 1.
    const hold = new Float64Array(knots);
    const pull = new Float64Array(knots);
    models.forEach((m, mi) => {
      const count = m.curve.values.length;
      let trust = 0;
      for (let j = 0; j < count; j++) trust += knotTrust[offsets[mi] + j];
      trust = trust / count || 1;
      for (let j = 0; j < count; j++) {
        hold[offsets[mi] + j] = j + 1 < count ? opts.scales.stiffness * trust : 0;
        pull[offsets[mi] + j] = opts.scales.pull * trust;
      }
    });
    const apply = (v: Float64Array, out: Float64Array) => {
      out.fill(0);
      for (let i = 0; i < n; i++) for (let ax = 0; ax < 3; ax++) out[3 * i + ax] = lambda * v[3 * i + ax];
      edges.forEach((e, i) => {
        const dz = e.c.reduce((sum, [j, t]) => sum + t * v[3 * n + j], 0);
        let ud = 0;
        for (let ax = 0; ax < 3; ax++) {
          const u = v[3 * e.b + ax] - v[3 * e.a + ax] - dz * D[i][ax];
          out[3 * e.b + ax] += e.w * u;
          out[3 * e.a + ax] -= e.w * u;
          ud += e.w * u * D[i][ax];
        }
        for (const [j, t] of e.c) out[3 * n + j] -= t * ud;
      });
      for (let j = 0; j < knots; j++) {
        out[3 * n + j] += pull[j] * v[3 * n + j];
        if (hold[j]) {
          const g = hold[j] * (v[3 * n + j] - v[3 * n + j + 1]);
          out[3 * n + j] += g;
          out[3 * n + j + 1] -= g;
        }
      }
    };
    // The constant part: each measurement wants X_b − X_a − (c·z') D = D (1 − c·z).
    const rhs = new Float64Array(size);
    for (let i = 0; i < n; i++) for (let ax = 0; ax < 3; ax++) rhs[3 * i + ax] = lambda * initial.get(ids[i])![ax];
    edges.forEach((e, i) => {
      const f = 1 - e.c.reduce((sum, [j, t]) => sum + t * x[3 * n + j], 0);
      const target = [D[i][0] * f, D[i][1] * f, D[i][2] * f];
      for (let ax = 0; ax < 3; ax++) {
        rhs[3 * e.b + ax] += e.w * target[ax];
        rhs[3 * e.a + ax] -= e.w * target[ax];
      }
      const td = e.w * (target[0] * D[i][0] + target[1] * D[i][1] + target[2] * D[i][2]);
      for (const [j, t] of e.c) rhs[3 * n + j] -= t * td;
    });
    const diag = new Float64Array(size);
    for (let i = 0; i < n; i++) for (let ax = 0; ax < 3; ax++) diag[3 * i + ax] = degree[i] + lambda;
    for (let j = 0; j < knots; j++) diag[3 * n + j] = knotTrust[j] + pull[j] + hold[j] + (j > 0 ? hold[j - 1] : 0);
    x.set(conjugateGradient(apply, diag, rhs, x, opts));
  }
  const places = new Map(ids.map((k, i): [number, Vec3] => [k, [x[3 * i], x[3 * i + 1], x[3 * i + 2]]]));
  const curves = models.map((m, mi) => ({ ...m.curve, values: Array.from(x.subarray(3 * n + offsets[mi], 3 * n + offsets[mi] + m.curve.values.length)) }));
  return { places, curves };
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
