/**
 * Floors of a walk (pure): a walk that takes the stairs is cut into floor
 * segments by the cameras' height, so that each floor is laid on the sheet
 * of its own storey and the stairs stay apart from both.
 *
 * A reconstruction has no metres, so nothing here is in metres: the stairs
 * are where the walk climbs steeply — height gained over distance walked
 * (about 0.6 on a stair, 0 on a floor, a handheld bob aside) — and a climb
 * counts as a change of floor when it rises more than `minRiseSteps`
 * times the walk's median step between keyframes (a storey is some
 * 3 m; keyframes are some 0.3–0.6 m apart). Stretches between the stairs
 * are floors; stretches at the same height are the same floor.
 */
import { dot, median, norm, sub, unit, type Vec3 } from './linear-algebra.js';

export interface FloorPose {
  keyframe: number;
  centre: Vec3;
}

export interface FloorSegment {
  /** 'floor': a stretch on one storey; 'stairs': a climb between two. */
  kind: 'floor' | 'stairs';
  /** Storey number from the lowest (0), floors only. */
  floor: number | null;
  /** Keyframes in walking order. */
  keyframes: number[];
  /** Median camera height along `up` (reconstruction units). */
  height: number;
}

export interface FloorOptions {
  /** Half-width of the window the slope is measured over (keyframes). */
  window: number;
  /** Height gained over distance walked above which the walk climbs. */
  minSlope: number;
  /** A climb changes floor when it rises more than this many median steps. */
  minRiseSteps: number;
}

export const DEFAULT_FLOOR_SPLIT: FloorOptions = { window: 2, minSlope: 0.3, minRiseSteps: 3 };

/**
 * The walk's segments in walking order: floors and stairs. A walk on one
 * storey is one floor segment. `poses` in walking order; `up` from the
 * cameras (projection.ts upFromRotations).
 */
export function splitFloors(poses: FloorPose[], up: Vec3, options: Partial<FloorOptions> = {}): FloorSegment[] {
  const o = { ...DEFAULT_FLOOR_SPLIT, ...options };
  const n = poses.length;
  if (!n) return [];
  const u = unit(up);
  const h = poses.map((p) => dot(u, p.centre));
  const flat = (v: Vec3) => norm(sub(v, [u[0] * dot(u, v), u[1] * dot(u, v), u[2] * dot(u, v)]));
  const steps = poses.slice(1).map((p, i) => flat(sub(p.centre, poses[i].centre)));
  // Distance walked from the start, along the floor.
  const walked = [0];
  for (const s of steps) walked.push(walked[walked.length - 1] + s);
  const step = median(steps.filter((s) => s > 0)) || 1;
  const whole = (): FloorSegment[] => [{ kind: 'floor', floor: 0, keyframes: poses.map((p) => p.keyframe), height: median(h) }];
  if (n < 2 * o.window + 2) return whole();
  // Climbing: the height gained over the walk around a keyframe is steep (turning on the spot walks nowhere: a
  // step's worth of distance keeps it from counting as a climb).
  const climbing = poses.map((_, i) => {
    const a = Math.max(0, i - o.window);
    const b = Math.min(n - 1, i + o.window);
    return Math.abs(h[b] - h[a]) / (walked[b] - walked[a] + step) >= o.minSlope;
  });
  // Runs of climbing or not; a climb that rises too little (a ramp, a bump in the reconstruction) is floor.
  type Run = { climb: boolean; from: number; to: number };
  const runs: Run[] = [];
  for (let i = 0; i < n; i++) {
    const last = runs[runs.length - 1];
    if (last && last.climb === climbing[i]) last.to = i;
    else runs.push({ climb: climbing[i], from: i, to: i });
  }
  const rise = (r: Run) => Math.abs(h[Math.min(n - 1, r.to + 1)] - h[Math.max(0, r.from - 1)]);
  for (const r of runs) if (r.climb && rise(r) < o.minRiseSteps * step) r.climb = false;
  const merged: Run[] = [];
  for (const r of runs) {
    const last = merged[merged.length - 1];
    if (last && last.climb === r.climb) last.to = r.to;
    else merged.push({ ...r });
  }
  if (!merged.some((r) => r.climb)) return whole();
  const segments: FloorSegment[] = merged.map((r) => ({
    kind: r.climb ? 'stairs' : 'floor',
    floor: null,
    keyframes: poses.slice(r.from, r.to + 1).map((p) => p.keyframe),
    height: median(h.slice(r.from, r.to + 1)),
  }));
  // Storeys: floor segments at the same height (within half the smallest climb) are one storey, numbered from below.
  const smallestRise = Math.min(...merged.filter((r) => r.climb).map(rise));
  const levels: number[] = [];
  for (const s of [...segments].filter((x) => x.kind === 'floor').sort((a, b) => a.height - b.height)) {
    if (!levels.length || s.height - levels[levels.length - 1] > smallestRise / 2) levels.push(s.height);
  }
  for (const s of segments) {
    if (s.kind !== 'floor') continue;
    let best = 0;
    levels.forEach((l, i) => {
      if (Math.abs(l - s.height) < Math.abs(levels[best] - s.height)) best = i;
    });
    s.floor = best;
  }
  return segments;
}

/** A cluster's share of one segment: its poses and the points of its storey. */
export interface FloorPart<P extends FloorPose> {
  segment: FloorSegment;
  poses: P[];
  xyz: Float32Array;
  rgb: Uint8Array;
}

/**
 * A merged cluster cut by floor: each storey keeps its own keyframes —
 * every stretch the walk spent on it, so a walk that comes back down to
 * where it started is one ground floor, laid on its sheet by one pair of
 * control points (the stretches are in the same frame already) — and the
 * points of its storey, from 0.6 of a storey below its cameras to 0.4
 * above (the floor under them to the ceiling over them), the storey's
 * height being the smallest climb, so that each floor is laid on its own
 * sheet by its own walls. Each flight of stairs is a part of its own. A
 * walk on one storey is returned whole.
 */
export function splitClusterByFloor<P extends FloorPose>(poses: P[], xyz: Float32Array, rgb: Uint8Array, up: Vec3, options: Partial<FloorOptions> = {}): FloorPart<P>[] {
  const segments = splitFloors(poses, up, options);
  if (segments.length <= 1) return segments.map((segment) => ({ segment, poses, xyz, rgb }));
  const u = unit(up);
  const byKeyframe = new Map(poses.map((p) => [p.keyframe, p]));
  const heightOf = (k: number) => dot(u, byKeyframe.get(k)!.centre);
  const floors = segments.filter((s) => s.kind === 'floor');
  const levels = [...new Set(floors.map((s) => s.floor!))].map((f) => median(floors.filter((s) => s.floor === f).map((s) => s.height))).sort((a, b) => a - b);
  const storey = levels.length > 1 ? Math.min(...levels.slice(1).map((l, i) => l - levels[i])) : Math.abs(segments.reduce((m, s) => Math.max(m, s.height), -Infinity) - segments.reduce((m, s) => Math.min(m, s.height), Infinity));
  // One part per storey (its stretches joined, in walking order, where the first of them was) and per flight.
  const parts: FloorSegment[] = [];
  for (const s of segments) {
    const same = s.kind === 'floor' ? parts.find((p) => p.kind === 'floor' && p.floor === s.floor) : undefined;
    if (!same) parts.push({ ...s, keyframes: [...s.keyframes] });
    else {
      same.keyframes.push(...s.keyframes);
      same.height = median(same.keyframes.map(heightOf));
    }
  }
  return parts.map((segment) => {
    const hs = segment.keyframes.map(heightOf);
    const lo = Math.min(...hs) - 0.6 * storey;
    const hi = Math.max(...hs) + 0.4 * storey;
    const keep: number[] = [];
    for (let i = 0; i < xyz.length / 3; i++) {
      const hp = u[0] * xyz[3 * i] + u[1] * xyz[3 * i + 1] + u[2] * xyz[3 * i + 2];
      if (hp >= lo && hp < hi) keep.push(i);
    }
    const px = new Float32Array(keep.length * 3);
    const pc = new Uint8Array(keep.length * 3);
    keep.forEach((i, j) => {
      px.set(xyz.subarray(3 * i, 3 * i + 3), 3 * j);
      pc.set(rgb.subarray(3 * i, 3 * i + 3), 3 * j);
    });
    return { segment, poses: segment.keyframes.map((k) => byKeyframe.get(k)!), xyz: px, rgb: pc };
  });
}
