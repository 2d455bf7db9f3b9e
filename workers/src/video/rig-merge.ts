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

/** Where a view of the manifest comes from. */
export interface ViewRef {
  keyframe: number;
  yawDeg: number;
}

export interface RigModel {
  images: ModelImage[];
  points: ModelPoint[];
}

/** A keyframe as one model places it. */
interface Sighting {
  centre: Vec3;
  /** World → rig (view 0) rotation. */
  rotation: Mat3;
  /** Views of the keyframe in that model. */
  views: number;
}

export interface MergedPose {
  keyframe: number;
  centre: Vec3;
  /** World → rig (view 0) rotation, from the first model of the cluster that placed the keyframe. */
  rotation: Mat3;
  /** Views of the keyframe placed, over the joined models. */
  views: number;
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
}

export const DEFAULT_MERGE_OPTIONS: MergeOptions = { minShared: 5, maxAngleDeg: 5, residualFactor: 4, minResidual: 0.01, minSpread: 0.05 };

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
  sightings: Map<number, Sighting[]>;
  points: { xyz: Vec3; rgb: [number, number, number] }[];
}

/** One sighting per keyframe of a working cluster: the mean centre, the first rotation. */
const summary = (c: Working): Map<number, Sighting> =>
  new Map([...c.sightings].map(([k, ss]) => [k, { centre: meanOf(ss.map((s) => s.centre)), rotation: ss[0].rotation, views: ss.reduce((n, s) => n + s.views, 0) }]));

/**
 * Joins the models into clusters, largest first: repeatedly the two
 * clusters sharing most keyframes are brought into the larger one's frame
 * when they agree (`alignSightings`). A keyframe both of two clusters that
 * could not be joined place stays with the larger one. Clusters are
 * returned by number of keyframes, most first.
 */
export function mergeRigModels(models: RigModel[], refs: Map<string, ViewRef>, opts: MergeOptions = DEFAULT_MERGE_OPTIONS): MergedCluster[] {
  let clusters: Working[] = models.map((m, i) => ({
    models: [i],
    sightings: new Map([...sightingsOf(m, refs)].map(([k, s]) => [k, [s]])),
    points: m.points.map((p) => ({ xyz: p.xyz, rgb: p.rgb })),
  }));
  clusters = clusters.filter((c) => c.sightings.size > 0);
  const failed = new Set<string>();
  const key = (a: Working, b: Working) => `${a.models.join(',')}|${b.models.join(',')}`;
  for (;;) {
    const candidates: { a: Working; b: Working; shared: number }[] = [];
    for (const a of clusters) {
      for (const b of clusters) {
        if (a === b || a.sightings.size < b.sightings.size || (a.sightings.size === b.sightings.size && a.models[0] > b.models[0])) continue;
        const shared = [...b.sightings.keys()].filter((k) => a.sightings.has(k)).length;
        if (shared >= opts.minShared && !failed.has(key(a, b))) candidates.push({ a, b, shared });
      }
    }
    if (!candidates.length) break;
    candidates.sort((x, y) => y.shared - x.shared);
    let joined = false;
    for (const { a, b } of candidates) {
      const sim = alignSightings(summary(b), summary(a), opts);
      if (!sim) {
        failed.add(key(a, b));
        continue;
      }
      // b into a's frame: centres and points by the similarity, rotations by R_b Rᵀ.
      const back = transpose(sim.rotation);
      const agreed = new Set(sim.shared);
      for (const [k, ss] of b.sightings) {
        // A keyframe both place but far off in b (or turned) keeps a's place only.
        if (a.sightings.has(k) && !agreed.has(k)) continue;
        const moved = ss.map((s) => ({ centre: applySimilarity3(sim, s.centre), rotation: mul(s.rotation, back), views: s.views }));
        a.sightings.set(k, [...(a.sightings.get(k) ?? []), ...moved]);
      }
      for (const p of b.points) a.points.push({ xyz: applySimilarity3(sim, p.xyz), rgb: p.rgb });
      a.models.push(...b.models);
      clusters = clusters.filter((c) => c !== b);
      joined = true;
      break;
    }
    if (!joined) break;
  }
  clusters.sort((x, y) => y.sightings.size - x.sightings.size || x.models[0] - y.models[0]);
  const taken = new Set<number>();
  const merged = clusters.map((c) => {
    const poses: MergedPose[] = [];
    for (const [k, s] of [...summary(c)].sort((x, y) => x[0] - y[0])) {
      if (taken.has(k)) continue;
      taken.add(k);
      poses.push({ keyframe: k, centre: s.centre, rotation: s.rotation, views: s.views });
    }
    const xyz = new Float32Array(c.points.length * 3);
    const rgb = new Uint8Array(c.points.length * 3);
    c.points.forEach((p, i) => {
      xyz.set(p.xyz, i * 3);
      rgb.set(p.rgb, i * 3);
    });
    return { models: c.models, poses, xyz, rgb };
  });
  return merged.sort((x, y) => y.poses.length - x.poses.length);
}
