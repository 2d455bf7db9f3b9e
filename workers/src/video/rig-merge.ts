/**
 * Joins COLMAP's models of one walk into clusters (pure).
 *
 * The views cut from one 360 frame share a centre and differ by a known yaw
 * (a rig), but COLMAP 3.8's mapper knows no rigs, and views looking 120°
 * apart overlap too little to be tied by their features: each view
 * direction becomes a model of its own. Each model is an exact picture of
 * the walk up to a similarity (scale, rotation, translation), and models
 * holding the same keyframes can be brought together by the rig itself:
 * the rotation from the keyframes' rotations, scale and translation from
 * their centres. Two models join when they share enough keyframes that
 * agree; a keyframe's place is the mean of its places in the joined
 * models (each direction's errors are its own, so the mean is better than
 * any one of them), and a walk that breaks in one direction stays whole
 * where another direction saw it through.
 */
import { centreOf, rigRotationFromView, type ModelImage, type ModelPoint } from './colmap-model.js';
import { meanOf, meanRotation, median, mul, norm, quatToMat, rotate, rotationAngleDeg, sub, transpose, type Mat3, type Vec3 } from './linear-algebra.js';
import { edgeLogScale, flatScaleCurve, modelEdges, nearestPlaces, relaxPlaces, relaxRotations, relaxWithScales, type RelaxOptions, type ScaleCurve, type TurnEdge } from './walk-relax.js';

/** Where a view of the manifest comes from. */
export interface ViewRef {
  keyframe: number;
  yawDeg: number;
}

export interface RigModel {
  images: ModelImage[];
  points: ModelPoint[];
  /** Where the model comes from (the mapper's folder and model number: `s0-v1/0`), for the benches' explanations. */
  source?: string;
  /**
   * A bridge (bridges.ts): a short stretch mapped again with a lower threshold where the walk's clusters met. It ties
   * models together; its places count only for keyframes no other model of its cluster places, and its points are left out.
   */
  bridge?: boolean;
}

/** A keyframe as one model places it. */
interface Sighting {
  centre: Vec3;
  /** World → rig (view 0) rotation. */
  rotation: Mat3;
  /** Views of the keyframe in that model. */
  views: number;
  /** Placed by a bridge (mapped with a lower threshold): a rougher place, counted only where no mapped model has one. */
  rough?: boolean;
  /** The model that placed it (index into the models joined; absent in a mean of several). */
  model?: number;
}

export interface MergedPose {
  keyframe: number;
  centre: Vec3;
  /** World → rig (view 0) rotation, from the first model of the cluster that placed the keyframe. */
  rotation: Mat3;
  /** Views of the keyframe placed, over the joined models. */
  views: number;
  /**
   * How far the models that place the keyframe disagree once fitted together: the root mean square distance of their
   * places from the mean (cluster units; 0 when one model places it). Each model drifts on its own, so their
   * disagreement tells how much this walk drifts (placement-confidence.ts). Bent (MergeOptions.relax), still their
   * disagreement before the bend: what the bend leaves unexplained was tried instead, and on the building's floors it
   * left 30–62 rooms off in silence once more control points were given (0–6 with this).
   */
  spread: number;
  /** How many models place the keyframe. */
  placers: number;
  /**
   * Which models place it (indexes into the models joined, ascending): two keyframes one after the other that no model
   * places both of are joined only through the models' fits to each other (placement-confidence.ts).
   */
  models: number[];
}

export interface MergedCluster {
  /** Indexes of the models joined, the first one's frame being the cluster's. */
  models: number[];
  poses: MergedPose[];
  xyz: Float32Array;
  rgb: Uint8Array;
}

export interface MergeOptions {
  /** Two models join only when they share at least this many keyframes that agree. */
  minShared: number;
  /** Keyframes whose rotations between the two models disagree by more than this (degrees) do not count. */
  maxAngleDeg: number;
  /** Nor those placed further than this many times the median distance after the fit (and above `minResidual`). */
  residualFactor: number;
  /** Fraction of the model's own extent below which a residual always agrees. */
  minResidual: number;
  /** The shared keyframes must spread over at least this fraction of the model's extent (else the scale is a guess). */
  minSpread: number;
  /**
   * Let a cluster of several models bend where they disagree (walk-relax.ts) instead of keeping each model rigid: for a
   * long walk mapped in windows, whose windows drift inside themselves. Null: rigid.
   */
  relax?: RelaxOptions | null;
}

export const DEFAULT_MERGE_OPTIONS: MergeOptions = { minShared: 5, maxAngleDeg: 5, residualFactor: 4, minResidual: 0.01, minSpread: 0.05, relax: null };

export interface Similarity3 {
  scale: number;
  /** Rotates the source frame into the target's. */
  rotation: Mat3;
  translation: Vec3;
}

export const applySimilarity3 = ({ scale, rotation: r, translation: t }: Similarity3, p: Vec3): Vec3 => [
  scale * (r[0] * p[0] + r[1] * p[1] + r[2] * p[2]) + t[0],
  scale * (r[3] * p[0] + r[4] * p[1] + r[5] * p[2]) + t[1],
  scale * (r[6] * p[0] + r[7] * p[1] + r[8] * p[2]) + t[2],
];

/** Root mean square distance of points from their mean. */
const extentOf = (ps: Vec3[]): number => {
  const m = meanOf(ps);
  return Math.sqrt(ps.reduce((s, p) => s + norm(sub(p, m)) ** 2, 0) / Math.max(1, ps.length));
};
/** Each keyframe of one model: the mean centre of its views and the rig rotation of its first view. */
export function sightingsOf(model: RigModel, refs: Map<string, ViewRef>): Map<number, Sighting> {
  const byFrame = new Map<number, { centres: Vec3[]; first: { img: ModelImage; yawDeg: number } }>();
  for (const img of model.images) {
    const ref = refs.get(img.name);
    if (!ref) continue;
    const entry = byFrame.get(ref.keyframe);
    if (entry) entry.centres.push(centreOf(img));
    else byFrame.set(ref.keyframe, { centres: [centreOf(img)], first: { img, yawDeg: ref.yawDeg } });
  }
  const out = new Map<number, Sighting>();
  for (const [k, { centres, first }] of byFrame) {
    out.set(k, { centre: meanOf(centres), rotation: rigRotationFromView(quatToMat(first.img.q), first.yawDeg), views: centres.length });
  }
  return out;
}

/**
 * The similarity taking `source`'s frame into `target`'s from the keyframes
 * both place, or null when they do not share enough keyframes that agree.
 * The rotation comes from the rigs (the largest group of keyframes whose
 * rotations agree within `maxAngleDeg`), scale and translation from the
 * centres by least squares, refitted once without the keyframes far off.
 */
export function alignSightings(source: Map<number, Sighting>, target: Map<number, Sighting>, opts: MergeOptions = DEFAULT_MERGE_OPTIONS): (Similarity3 & { shared: number[] }) | null {
  const shared = [...source.keys()].filter((k) => target.has(k));
  if (shared.length < opts.minShared) return null;
  // x_rig = R_t (X_t − C_t) = R_s (X_s − C_s) and X_t − C_t = s R (X_s − C_s), so R = R_tᵀ R_s.
  const candidates = shared.map((k) => mul(transpose(target.get(k)!.rotation), source.get(k)!.rotation));
  const agreeing = (r: Mat3) => shared.filter((_, i) => rotationAngleDeg(mul(transpose(r), candidates[i])) <= opts.maxAngleDeg);
  // Each keyframe's rotation is a hypothesis; about 64 of them, spread along the walk, are enough to find the one most
  // agree with, and keep a long walk's thousand keyframes from costing a million comparisons.
  const stride = Math.max(1, Math.floor(candidates.length / 64));
  let best: number[] = [];
  for (let i = 0; i < candidates.length; i += stride) {
    const a = agreeing(candidates[i]);
    if (a.length > best.length) best = a;
  }
  if (best.length < opts.minShared) return null;
  const rotation = meanRotation(best.map((k) => mul(transpose(target.get(k)!.rotation), source.get(k)!.rotation)));
  const sourceExtent = extentOf([...source.values()].map((s) => s.centre));
  const fit = (keys: number[]) => {
    const src = keys.map((k) => rotate(rotation, source.get(k)!.centre));
    const dst = keys.map((k) => target.get(k)!.centre);
    const ms = meanOf(src);
    const md = meanOf(dst);
    let num = 0;
    let den = 0;
    src.forEach((p, i) => {
      const a = sub(p, ms);
      const b = sub(dst[i], md);
      num += a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
      den += a[0] ** 2 + a[1] ** 2 + a[2] ** 2;
    });
    const scale = den > 0 ? num / den : 0;
    const translation = sub(md, [scale * ms[0], scale * ms[1], scale * ms[2]]);
    const residuals = keys.map((k, i) => norm(sub(applySimilarity3({ scale, rotation, translation }, source.get(k)!.centre), dst[i])));
    return { scale, translation, residuals, spread: Math.sqrt(den / Math.max(1, keys.length)) };
  };
  let use = agreeing(rotation);
  if (use.length < opts.minShared) return null;
  let f = fit(use);
  // Far off: beyond a few times the median residual, and beyond a small share of the model's own size.
  const tolerance = Math.max(opts.residualFactor * median(f.residuals), opts.minResidual * sourceExtent * f.scale);
  const kept = use.filter((_, i) => f.residuals[i] <= tolerance);
  if (kept.length < use.length) {
    use = kept;
    if (use.length < opts.minShared) return null;
    f = fit(use);
  }
  if (!(f.scale > 0) || f.spread < opts.minSpread * sourceExtent) return null;
  return { scale: f.scale, rotation, translation: f.translation, shared: use };
}

interface Working {
  models: number[];
  /** Each joined model's similarity into the cluster's frame (the first model's). */
  sims: Map<number, Similarity3>;
  sightings: Map<number, Sighting[]>;
}

const IDENTITY: Similarity3 = { scale: 1, rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 0] };

/** `outer` after `inner`: x ↦ outer(inner(x)). */
const compose = (outer: Similarity3, inner: Similarity3): Similarity3 => ({
  scale: outer.scale * inner.scale,
  rotation: mul(outer.rotation, inner.rotation),
  translation: applySimilarity3(outer, inner.translation),
});

/** A sighting moved by a similarity: the centre by it, the world → rig rotation by its inverse rotation. */
const moveSighting = (sim: Similarity3, s: Sighting): Sighting => ({ centre: applySimilarity3(sim, s.centre), rotation: mul(s.rotation, transpose(sim.rotation)), views: s.views, ...(s.rough ? { rough: true } : {}), ...(s.model !== undefined ? { model: s.model } : {}) });

/** The places to fit to: a bridge's only where no mapped model has one (a bridge's lower threshold lets weak views in). */
const trusted = (ss: Sighting[]): Sighting[] => {
  const mapped = ss.filter((s) => !s.rough);
  return mapped.length ? mapped : ss;
};

export interface RefineOptions {
  /** Rounds over every model at most. */
  rounds: number;
  /**
   * The fraction of a model's extent within which a keyframe agrees in the first round (MergeOptions.minResidual), shrunk by
   * `shrink` a round down to the merge's own: the places where a long walk came back may first disagree by the drift this
   * refinement is there to remove, and must count until it is gone.
   */
  firstResidual: number;
  shrink: number;
}

export const DEFAULT_REFINE_OPTIONS: RefineOptions = { rounds: 30, firstResidual: 0.2, shrink: 0.8 };

/**
 * Brings every model of a cluster to agree with all the others at once.
 * The greedy joining fits each model to the cluster built so far, so on a
 * long walk mapped in windows (submaps.ts) each window inherits the error
 * of the chain before it, and the places where the walk came back — tied
 * by anchor keyframes both windows place — are not used to pull the chain
 * straight. Here each model in turn is fitted again to the mean of the
 * other models' places of the keyframes it shares with them (block
 * coordinate descent over the models' similarities; the first model fixes
 * the frame), round after round, so the disagreements spread over all the
 * ties instead of piling up at the end of the chain. Returns, per model,
 * the keyframes it places that disagree with the others (left out).
 */
function refineCluster(c: Working, own: Map<number, Sighting>[], opts: MergeOptions, refine: RefineOptions): Map<number, Set<number>> {
  const disagree = new Map<number, Set<number>>(c.models.map((m) => [m, new Set<number>()]));
  if (c.models.length < 2) return disagree;
  // Which models place each keyframe, and each model's places in the cluster's frame (kept up to date).
  const placers = new Map<number, number[]>();
  for (const m of c.models) for (const k of own[m].keys()) placers.set(k, [...(placers.get(k) ?? []), m]);
  const moved = new Map<number, Map<number, Sighting>>();
  const move = (m: number) => moved.set(m, new Map([...own[m]].map(([k, s]) => [k, moveSighting(c.sims.get(m)!, s)])));
  c.models.forEach(move);
  // In walking order, so that a correction travels along the chain of windows within one round.
  const order = [...c.models.slice(1)].sort((a, b) => Math.min(...own[a].keys()) - Math.min(...own[b].keys()));
  let residual = refine.firstResidual;
  for (let round = 0; round < refine.rounds; round++) {
    let change = 0;
    for (const m of order) {
      const target = new Map<number, Sighting>();
      for (const k of own[m].keys()) {
        const others = placers.get(k)!.filter((n) => n !== m && !disagree.get(n)!.has(k));
        if (!others.length) continue;
        const places = trusted(others.map((n) => moved.get(n)!.get(k)!));
        target.set(k, { centre: meanOf(places.map((p) => p.centre)), rotation: places[0].rotation, views: 1, ...(places[0].rough ? { rough: true } : {}) });
      }
      const fit = alignPreferMapped(own[m], target, { ...opts, minResidual: Math.max(opts.minResidual, residual) });
      if (!fit) continue;
      const before = moved.get(m)!;
      c.sims.set(m, { scale: fit.scale, rotation: fit.rotation, translation: fit.translation });
      move(m);
      const agreed = new Set(fit.shared);
      disagree.set(m, new Set([...target.keys()].filter((k) => fit.judged(k) && !agreed.has(k))));
      for (const [k, s] of moved.get(m)!) change = Math.max(change, norm(sub(s.centre, before.get(k)!.centre)));
    }
    residual = Math.max(opts.minResidual, residual * refine.shrink);
    // Settled: nothing moved by more than a thousandth of the first model's extent, and the tolerance is the merge's own.
    if (residual === opts.minResidual && change < 1e-3 * extentOf([...own[c.models[0]].values()].map((s) => s.centre)) * c.sims.get(c.models[0])!.scale) break;
  }
  return disagree;
}

/**
 * The cluster's keyframes placed by every mapped model's short measurements at once (walk-relax.ts), starting from
 * the joined places: with `turns`, their rotations first, then their places from each model's measurements turned as
 * the model's frame at the keyframe turned; with `scales`, the places together with each model's scale along the walk.
 * And, per model, how to move its points with it (as the model's nearest keyframe moved, turned and grew).
 */
function relaxCluster(c: Working, own: Map<number, Sighting>[], models: RigModel[], places: Map<number, Sighting>, opts: RelaxOptions) {
  const mapped = c.models.filter((m) => !models[m].bridge);
  // Every keyframe a model places measures, also those it places away from the others (left out of the mean): where a
  // window came back to an earlier one's place, that disagreement is the drift the bend is there to take up (measured on
  // the building's models: each floor's shape 0.18 and 0.14 m with them, 0.26 and 0.31 m without).
  const moved = new Map(mapped.map((m) => [m, new Map([...own[m]].filter(([k]) => places.has(k)).map(([k, s]) => [k, moveSighting(c.sims.get(m)!, s)]))]));
  const centres = (m: number) => new Map([...moved.get(m)!].map(([k, s]) => [k, s.centre]));
  // The walk's usual step between keyframes following each other, the shortest length a measurement is trusted as.
  const ordered = [...places.keys()].sort((x, y) => x - y);
  const steps = ordered.slice(1).map((k, i) => norm(sub(places.get(k)!.centre, places.get(ordered[i])!.centre))).filter((d) => d > 0);
  const floor = steps.length ? median(steps) : 1;
  const measured = new Map(mapped.map((m) => [m, modelEdges(centres(m), opts.neighbours, floor)]));
  // Each model's frame at each of its keyframes, turned into the bent frame (world → world; identity unbent).
  const turn = new Map<number, Map<number, Mat3>>();
  let rotations = new Map([...places].map(([k, s]) => [k, s.rotation]));
  if (opts.turns) {
    const turns: TurnEdge[] = mapped.flatMap((m) => {
      const ss = moved.get(m)!;
      return measured.get(m)!.map((e) => ({ a: e.a, b: e.b, m: mul(ss.get(e.a)!.rotation, transpose(ss.get(e.b)!.rotation)), w: e.w }));
    });
    rotations = relaxRotations(rotations, turns, opts);
    for (const m of mapped) turn.set(m, new Map([...moved.get(m)!].map(([k, s]) => [k, mul(transpose(rotations.get(k)!), s.rotation)])));
  }
  const turned = (m: number, k: number, d: Vec3): Vec3 => (turn.get(m)?.has(k) ? rotate(turn.get(m)!.get(k)!, d) : d);
  const byModel = new Map(
    mapped.map((m) => [
      m,
      measured.get(m)!.map((e) => {
        // Turned as the model's frame turned at both ends, halfway.
        const da = turned(m, e.a, e.d);
        const db = turned(m, e.b, e.d);
        return { ...e, d: [(da[0] + db[0]) / 2, (da[1] + db[1]) / 2, (da[2] + db[2]) / 2] as Vec3 };
      }),
    ]),
  );
  const initial = new Map([...places].map(([k, s]) => [k, s.centre]));
  // With scales, each model's scale curve is solved together with the places.
  const curves = new Map<number, ScaleCurve>();
  const scaleOf = (m: number, e: { a: number; b: number }) => (curves.has(m) ? Math.exp(edgeLogScale(curves.get(m)!, e)) : 1);
  let relaxed: Map<number, Vec3>;
  if (opts.scales) {
    const scales = opts.scales;
    const solved = relaxWithScales(initial, mapped.map((m) => ({ edges: byModel.get(m)!, curve: flatScaleCurve(centres(m), scales.spacing) })), { ...opts, scales });
    relaxed = solved.places;
    mapped.forEach((m, i) => curves.set(m, solved.curves[i]));
  } else relaxed = relaxPlaces(initial, [...byModel.values()].flat(), opts);
  const follow = (m: number) => {
    const ps = moved.get(m);
    if (!ps?.size) return null;
    // A point seen from afar, near none of the model's keyframes, follows the nearest of them all.
    const near = nearestPlaces(centres(m), floor * 8);
    return (q: Vec3): Vec3 => {
      const k = near(q, 1, true)[0];
      const s = scaleOf(m, { a: k, b: k });
      const d = turned(m, k, sub(q, ps.get(k)!.centre));
      const p = relaxed.get(k)!;
      return [p[0] + s * d[0], p[1] + s * d[1], p[2] + s * d[2]];
    };
  };
  return { places: relaxed, rotations, follow };
}

/** One sighting per keyframe of a working cluster: the mean centre, the first rotation (of the mapped models' places when any). */
const summary = (c: Working): Map<number, Sighting> =>
  new Map(
    [...c.sightings].map(([k, all]) => {
      const ss = trusted(all);
      return [k, { centre: meanOf(ss.map((s) => s.centre)), rotation: ss[0].rotation, views: ss.reduce((n, s) => n + s.views, 0), ...(ss[0].rough ? { rough: true } : {}) }];
    }),
  );

/**
 * alignSightings on the keyframes that mapped models place on both sides when they are enough to fit, else on all: a
 * bridge's places tie what nothing else ties, but are not what a mapped model is fitted to where mapped places agree.
 */
function alignPreferMapped(source: Map<number, Sighting>, target: Map<number, Sighting>, opts: MergeOptions): (Similarity3 & { shared: number[]; judged: (k: number) => boolean }) | null {
  const mappedOnly = (m: Map<number, Sighting>) => new Map([...m].filter(([, s]) => !s.rough));
  const [src, dst] = [mappedOnly(source), mappedOnly(target)];
  const onMapped = src.size === source.size && dst.size === target.size ? null : alignSightings(src, dst, opts);
  // Which shared keyframes the fit weighed (a keyframe it did not weigh is not one the source disagrees on).
  if (onMapped) return { ...onMapped, judged: (k) => src.has(k) && dst.has(k) };
  const all = alignSightings(source, target, opts);
  return all && { ...all, judged: () => true };
}

/** Root mean square distance of a keyframe's places from their mean (0 for one place). */
const spreadOf = (ss: Sighting[]): number => {
  if (ss.length < 2) return 0;
  const m = meanOf(ss.map((s) => s.centre));
  return Math.sqrt(ss.reduce((sum, s) => sum + norm(sub(s.centre, m)) ** 2, 0) / ss.length);
};

/**
 * Joins the models into clusters, largest first: repeatedly the two
 * clusters sharing most keyframes are brought into the larger one's frame
 * when they agree (`alignSightings`). A keyframe both of two clusters that
 * could not be joined place stays with the larger one. Clusters are
 * returned by number of keyframes, most first.
 */
export function mergeRigModels(models: RigModel[], refs: Map<string, ViewRef>, opts: MergeOptions = DEFAULT_MERGE_OPTIONS, refine: RefineOptions = DEFAULT_REFINE_OPTIONS): MergedCluster[] {
  // A bridge's own places are marked rough, so that wherever a mapped model places the same keyframe, models are fitted to that.
  const own = models.map((m, model) => new Map([...sightingsOf(m, refs)].map(([k, s]): [number, Sighting] => [k, { ...s, ...(m.bridge ? { rough: true } : {}), model }])));
  let clusters: Working[] = models.map((m, i) => ({
    models: [i],
    sims: new Map([[i, IDENTITY]]),
    sightings: new Map([...own[i]].map(([k, s]) => [k, [s]])),
  }));
  clusters = clusters.filter((c) => c.sightings.size > 0);
  const failed = new Set<string>();
  const key = (a: Working, b: Working) => `${a.models.join(',')}|${b.models.join(',')}`;
  // The larger cluster's frame is kept; a bridge alone counts as none (its places are the rougher ones).
  const size = (c: Working) => (c.models.some((m) => !models[m].bridge) ? c.sightings.size : 0);
  for (;;) {
    const candidates: { a: Working; b: Working; shared: number }[] = [];
    for (const a of clusters) {
      for (const b of clusters) {
        if (a === b || size(a) < size(b) || (size(a) === size(b) && a.models[0] > b.models[0])) continue;
        const shared = [...b.sightings.keys()].filter((k) => a.sightings.has(k)).length;
        if (shared >= opts.minShared && !failed.has(key(a, b))) candidates.push({ a, b, shared });
      }
    }
    if (!candidates.length) break;
    // Mapped models are joined to each other first, bridges last: a bridge, mapped with a lower threshold, can bend inside
    // itself, and joined early it becomes the frame the mapped models around it are fitted to (measured on the hard
    // two-storey walk: one such bridge took floor 0's shape to 1.3–1.6 m in three runs of four).
    const takesBridge = (x: { a: Working; b: Working }) => Number([...x.a.models, ...x.b.models].some((m) => models[m].bridge));
    candidates.sort((x, y) => takesBridge(x) - takesBridge(y) || y.shared - x.shared);
    let joined = false;
    for (const { a, b } of candidates) {
      const sim = alignPreferMapped(summary(b), summary(a), opts);
      if (!sim) {
        failed.add(key(a, b));
        continue;
      }
      // b into a's frame (its points follow from the models' similarities, once, at the end).
      const agreed = new Set(sim.shared);
      for (const [k, ss] of b.sightings) {
        // A keyframe both place but far off in b (or turned) keeps a's place only.
        if (a.sightings.has(k) && sim.judged(k) && !agreed.has(k)) continue;
        a.sightings.set(k, [...(a.sightings.get(k) ?? []), ...ss.map((s) => moveSighting(sim, s))]);
      }
      for (const m of b.models) a.sims.set(m, compose(sim, b.sims.get(m)!));
      a.models.push(...b.models);
      clusters = clusters.filter((c) => c !== b);
      joined = true;
      break;
    }
    if (!joined) break;
  }
  // Each cluster of several models: all its models fitted again to each other at once, then its places gathered
  // again from the models (a keyframe a model places away from the others' places left out of the mean).
  for (const c of clusters) {
    if (c.models.length < 2) continue;
    const disagree = refineCluster(c, own, opts, refine);
    c.sightings = new Map();
    // The mapped models' places first; a bridge's only where none of them has one.
    for (const m of [...c.models.filter((i) => !models[i].bridge), ...c.models.filter((i) => models[i].bridge)]) {
      const sim = c.sims.get(m)!;
      const bridge = models[m].bridge;
      const before = bridge ? new Set(c.sightings.keys()) : null;
      for (const [k, s] of own[m]) {
        if (disagree.get(m)!.has(k) || before?.has(k)) continue;
        c.sightings.set(k, [...(c.sightings.get(k) ?? []), moveSighting(sim, s)]);
      }
    }
    // A keyframe every model that places it disagrees on keeps the first one's place, as the greedy joining kept it.
    for (const m of c.models) for (const [k, s] of own[m]) if (!c.sightings.has(k)) c.sightings.set(k, [moveSighting(c.sims.get(m)!, s)]);
  }
  // A bridge that joined nothing ties nothing: its keyframes are placed by the models it failed to join, or not at all.
  clusters = clusters.filter((c) => c.models.some((m) => !models[m].bridge));
  clusters.sort((x, y) => y.sightings.size - x.sightings.size || x.models[0] - y.models[0]);
  const taken = new Set<number>();
  const merged = clusters.map((c) => {
    const poses: MergedPose[] = [];
    const places = summary(c);
    const bend = opts.relax && c.models.length > 1 ? relaxCluster(c, own, models, places, opts.relax) : null;
    for (const [k, s] of [...places].sort((x, y) => x[0] - y[0])) {
      if (taken.has(k)) continue;
      taken.add(k);
      const ss = c.sightings.get(k)!;
      const centre = bend ? bend.places.get(k)! : s.centre;
      poses.push({ keyframe: k, centre, rotation: bend ? bend.rotations.get(k)! : s.rotation, views: s.views, spread: spreadOf(ss), placers: ss.length, models: [...new Set(ss.flatMap((x) => (x.model !== undefined ? [x.model] : [])))].sort((a, b) => a - b) });
    }
    // Every mapped model's points in the cluster's frame, by its similarity (a bridge's, mapped with a lower threshold, left out).
    const mapped = c.models.filter((m) => !models[m].bridge);
    const count = mapped.reduce((n, m) => n + models[m].points.length, 0);
    const xyz = new Float32Array(count * 3);
    const rgb = new Uint8Array(count * 3);
    let i = 0;
    for (const m of mapped) {
      const sim = c.sims.get(m)!;
      // Bent: each point moves as the model's keyframe nearest to it did.
      const follow = bend?.follow(m);
      for (const p of models[m].points) {
        const q = applySimilarity3(sim, p.xyz);
        xyz.set(follow ? follow(q) : q, i * 3);
        rgb.set(p.rgb, i * 3);
        i++;
      }
    }
    return { models: c.models, poses, xyz, rgb };
  });
  return merged.sort((x, y) => y.poses.length - x.poses.length);
}
