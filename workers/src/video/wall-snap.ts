/**
 * Snapping a walk to the walls of its floor plan (pure, framework-free).
 *
 * Why: two control points (where the walk started and ended) fix the walk's
 * scale and rotation only as well as those two cameras are placed; an error
 * of a few centimetres at either end turns the whole walk and shows up
 * metres away. The reconstruction's shape is much better than its two end
 * cameras (a few centimetres over the whole walk), and the plan draws the
 * walls the cameras saw. So, once the control points have given a close
 * first fit, the similarity is refined so that the wall points of the cloud
 * (points at wall height, above furniture and below the ceiling) fall on
 * the plan's ink, while the control points stay near where the user put
 * them. A robust cost (Tukey) with a shrinking reach ignores clutter that
 * the plan does not draw; the snap is kept only if it lays about as many wall
 * points on ink as the control points' fit, or more, and keeps the control
 * points where they were clicked.
 */
import { applySimilarity, solve4, widestSpan, type Similarity2D, type Vec2 } from './linear-algebra.js';

/** A greyscale raster of the sheet; `scale` raster pixels per sheet pixel. */
export interface SheetRaster {
  width: number;
  height: number;
  /** One byte a pixel, row-major; dark = ink. */
  grey: Uint8Array;
  scale: number;
}

/** Darker than this is ink (walls, columns); light grey furniture outlines are not. */
export const INK_BELOW = 128;

/**
 * The Euclidean distance, in pixels, from every pixel to the nearest ink pixel
 * (Felzenszwalb & Huttenlocher's two passes of the lower envelope of parabolas).
 * Without any ink every distance is Infinity.
 */
export function distanceToInk(raster: Pick<SheetRaster, 'width' | 'height' | 'grey'>, inkBelow = INK_BELOW): Float32Array {
  const { width: w, height: h, grey } = raster;
  const INF = 1e20;
  const f = new Float64Array(w * h);
  for (let i = 0; i < w * h; i++) f[i] = grey[i] < inkBelow ? 0 : INF;
  const n = Math.max(w, h);
  const line = new Float64Array(n);
  const out = new Float64Array(n);
  const v = new Int32Array(n);
  const z = new Float64Array(n + 1);
  const pass = (len: number) => {
    // 1D squared distance transform of `line` into `out`.
    let k = 0;
    v[0] = 0;
    z[0] = -Infinity;
    z[1] = Infinity;
    for (let q = 1; q < len; q++) {
      let s: number;
      for (;;) {
        const p = v[k];
        s = (line[q] + q * q - (line[p] + p * p)) / (2 * q - 2 * p);
        if (s <= z[k] && k > 0) k--;
        else break;
      }
      if (s <= z[k]) {
        // k = 0 and the new parabola is lower everywhere to the right of -∞.
        v[0] = q;
        z[1] = Infinity;
        continue;
      }
      k++;
      v[k] = q;
      z[k] = s;
      z[k + 1] = Infinity;
    }
    k = 0;
    for (let q = 0; q < len; q++) {
      while (z[k + 1] < q) k++;
      const d = q - v[k];
      out[q] = d * d + line[v[k]];
    }
  };
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) line[y] = f[y * w + x];
    pass(h);
    for (let y = 0; y < h; y++) f[y * w + x] = out[y];
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) line[x] = f[y * w + x];
    pass(w);
    for (let x = 0; x < w; x++) f[y * w + x] = out[x];
  }
  const d = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) d[i] = f[i] >= INF / 2 ? Infinity : Math.sqrt(f[i]);
  return d;
}

/**
 * The signed distance, in pixels, from every pixel centre to the edge of the
 * ink: positive outside, negative inside. The cloud sees the faces of walls,
 * which are the edges of their ink, not anywhere inside a thick wall.
 * Without ink (or without paper) it is Infinity everywhere.
 */
export function distanceToInkEdge(raster: Pick<SheetRaster, 'width' | 'height' | 'grey'>, inkBelow = INK_BELOW): Float32Array {
  const out = distanceToInk(raster, inkBelow);
  const paper = distanceToInk({ ...raster, grey: raster.grey.map((v) => (v < inkBelow ? 255 : 0)) }, 128);
  const d = new Float32Array(out.length);
  for (let i = 0; i < d.length; i++) {
    if (out[i] === Infinity || paper[i] === Infinity) d[i] = Infinity;
    // Pixel centres next to the edge are half a pixel from it.
    else d[i] = out[i] > 0 ? out[i] - 0.5 : -(paper[i] - 0.5);
  }
  return d;
}

/** Bilinear value and gradient of a distance map at a continuous pixel position (pixel centres at +0.5). */
export function sample(dist: Float32Array, w: number, h: number, x: number, y: number): { d: number; gx: number; gy: number } | null {
  const fx = x - 0.5, fy = y - 0.5;
  if (!(fx >= 0 && fy >= 0 && fx < w - 1 && fy < h - 1)) return null;
  const i = Math.floor(fx), j = Math.floor(fy);
  const ax = fx - i, ay = fy - j;
  const o = j * w + i;
  const d00 = dist[o], d10 = dist[o + 1], d01 = dist[o + w], d11 = dist[o + w + 1];
  if (!(d00 < Infinity && d10 < Infinity && d01 < Infinity && d11 < Infinity)) return null;
  const d = (1 - ay) * ((1 - ax) * d00 + ax * d10) + ay * ((1 - ax) * d01 + ax * d11);
  const gx = (1 - ay) * (d10 - d00) + ay * (d11 - d01);
  const gy = (1 - ax) * (d01 - d00) + ax * (d11 - d10);
  return { d, gx, gy };
}

export interface SnapInput {
  /** Wall points of the cloud, top-down (reconstruction units). */
  walls: Vec2[];
  /**
   * For each wall point, the unit direction (top-down) towards a camera that
   * saw it, e.g. the nearest one of the walk. A face is seen from the paper
   * side of its ink: a point is sampled `offset` further that way and must
   * lie that far outside the ink there. This is what keeps a wall point off
   * the far face of a thick wall.
   */
  toward: Vec2[];
  /** Reconstruction units; about the thickness of a thick wall. */
  offset: number;
  /** The first fit (top-down → sheet pixels), e.g. from the control points. */
  start: Similarity2D;
  /** Control points: top-down position ↔ sheet pixel. */
  controls: { from: Vec2; to: Vec2 }[];
  /** Signed distance map of the plan raster (see distanceToInkEdge) and the raster. */
  dist: Float32Array;
  raster: Pick<SheetRaster, 'width' | 'height' | 'scale'>;
  /**
   * Reach of the robust cost, in reconstruction units, from wide to narrow
   * (e.g. 0.5, 0.25, 0.12 m expressed in the cloud's units).
   */
  reaches: number[];
  /** How far a control point may end up from where it was clicked, sheet pixels. */
  controlTolerance: number;
}

export interface SnapResult {
  transform: Similarity2D;
  /** Share of wall points within the narrowest reach of ink, before and after. */
  onInkBefore: number;
  onInkAfter: number;
  kept: boolean;
  /** Why the snap was not kept, in words. */
  reason?: string;
}

const asParams = (t: Similarity2D) => [t.scale * Math.cos(t.rotation), t.scale * Math.sin(t.rotation), t.tx, t.ty];
const fromParams = ([a, b, tx, ty]: number[]): Similarity2D => ({ scale: Math.hypot(a, b), rotation: Math.atan2(b, a), tx, ty });

/**
 * How much of the `offset` a wall point was shifted towards its camera takes it off the wall's face: the share along the
 * wall's normal (the distance map's gradient at the shifted point, in sheet axes). A camera seen at an angle shifts the
 * point less far from the face; taking the whole offset there pulled every wall in (the hard 3-minute walk laid 0.9 %
 * small).
 */
export function offNormal(s: { gx: number; gy: number }, toward: Vec2, t: Similarity2D): number {
  const g = Math.hypot(s.gx, s.gy);
  if (!(g > 0)) return 1;
  const c = Math.cos(t.rotation), sn = Math.sin(t.rotation);
  return Math.max(0, ((c * toward[0] - sn * toward[1]) * s.gx + (sn * toward[0] + c * toward[1]) * s.gy) / g);
}

/** Each wall point moved `offset` towards its camera (`toward`): where the snap and the bend look at it from. */
export function lookedFrom(walls: Vec2[], toward: Vec2[], offset: number): Vec2[] {
  return walls.map((p, i): Vec2 => [p[0] + offset * toward[i][0], p[1] + offset * toward[i][1]]);
}

/** Share of wall points (already shifted towards their cameras) within `reachPx` of where they belong (sheet pixels). */
export function onInk(shifted: Vec2[], toward: Vec2[], offset: number, t: Similarity2D, dist: Float32Array, raster: SnapInput['raster'], reachPx: number): number {
  if (!shifted.length) return 0;
  let n = 0;
  shifted.forEach((p, i) => {
    const q = applySimilarity(t, p);
    const s = sample(dist, raster.width, raster.height, q[0] * raster.scale, q[1] * raster.scale);
    if (s && Math.abs(s.d / raster.scale - offset * t.scale * offNormal(s, toward[i], t)) < reachPx) n++;
  });
  return n / shifted.length;
}

/**
 * Refines `start` so that the wall points lie on the plan's ink (iteratively
 * reweighted Gauss–Newton on the similarity's four linear parameters, Tukey
 * weights, reach narrowing step by step), with the control points held by a
 * quadratic term weighing CONTROL_SHARE of the wall points. It starts from the
 * first fit and from eight turns and scalings of it, and keeps the result
 * that lays most wall points on ink without carrying a control point away
 * (and lays about as many as the first fit, KEEP_SLACK, or more):
 * from a single start, a walk whose end camera was 20 cm off sometimes
 * settled against the wrong faces of the walls.
 */
export function snapToWalls(input: SnapInput): SnapResult {
  const { walls, controls, dist, raster } = input;
  const k = raster.scale;
  if (input.toward.length !== walls.length) throw new Error('snapToWalls: one direction per wall point');
  const shifted = lookedFrom(walls, input.toward, input.offset);
  const narrowest = Math.min(...input.reaches) * input.start.scale;
  /** How far the wall points lie from the reconstruction's origin: a change of the similarity's (a, b) moves them up to this much times it. */
  const extent = Math.max(0, ...shifted.map((p) => Math.hypot(p[0], p[1])));
  const onInkBefore = onInk(shifted, input.toward, input.offset, input.start, dist, raster, narrowest);
  /** Iteratively reweighted Gauss–Newton from one start, reach after reach. */
  const refine = (from: Similarity2D): Similarity2D => {
    let params = asParams(from);
    for (const reach of input.reaches) {
      for (let it = 0; it < 12; it++) {
        const t = fromParams(params);
        const c = reach * t.scale; // sheet pixels
        const A = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
        const g = [0, 0, 0, 0];
        let wallWeight = 0;
        for (let wi = 0; wi < shifted.length; wi++) {
          const pi = shifted[wi];
          const q = applySimilarity(t, pi);
          const s = sample(dist, raster.width, raster.height, q[0] * k, q[1] * k);
          if (!s) continue;
          const f = input.offset * offNormal(s, input.toward[wi], t);
          const r = s.d / k - f * t.scale;
          if (Math.abs(r) >= c) continue;
          const u = 1 - (r / c) ** 2;
          const w = u * u;
          wallWeight += w;
          // d r / d(a, b, tx, ty) through the sheet position (the gradient is per raster pixel, r per sheet pixel)
          // and through the scale of the offset (its share along the normal taken as fixed within a step).
          const J = [s.gx * pi[0] + s.gy * pi[1] - (f * params[0]) / t.scale, -s.gx * pi[1] + s.gy * pi[0] - (f * params[1]) / t.scale, s.gx, s.gy];
          for (let i = 0; i < 4; i++) {
            g[i] += w * J[i] * r;
            for (let j = 0; j < 4; j++) A[i][j] += w * J[i] * J[j];
          }
        }
        if (wallWeight < 10) break;
        // Control points only keep the fit in the basin the user chose (CONTROL_SHARE).
        const wgt = (wallWeight * CONTROL_SHARE) / Math.max(1, controls.length);
        for (const cp of controls) {
          const q = applySimilarity(t, cp.from);
          const res = [q[0] - cp.to[0], q[1] - cp.to[1]];
          const Jx = [cp.from[0], -cp.from[1], 1, 0];
          const Jy = [cp.from[1], cp.from[0], 0, 1];
          for (let i = 0; i < 4; i++) {
            g[i] += wgt * (Jx[i] * res[0] + Jy[i] * res[1]);
            for (let j = 0; j < 4; j++) A[i][j] += wgt * (Jx[i] * Jx[j] + Jy[i] * Jy[j]);
          }
        }
        // A touch of damping keeps a step within the reach.
        for (let i = 0; i < 4; i++) A[i][i] *= 1.001;
        const step = solve4(A, g.map((x) => -x));
        if (!step) break;
        params = params.map((x, i) => x + step[i]);
        // Done when the step moves no wall point by more than a thousandth of the reach.
        if (Math.hypot(step[2], step[3]) + Math.hypot(step[0], step[1]) * extent < 1e-3 * c) break;
      }
    }
    return fromParams(params);
  };
  // The two pinned cameras' errors turn and scale the walk about the control points: starts turned
  // and scaled about their centre keep the refinement out of a neighbouring wall's basin.
  const centre: Vec2 = controls.length
    ? [controls.reduce((a, c) => a + c.to[0], 0) / controls.length, controls.reduce((a, c) => a + c.to[1], 0) / controls.length]
    : applySimilarity(input.start, [0, 0]);
  let best: { transform: Similarity2D; onInk: number; worst: number } | null = null;
  let bestAny: { onInk: number } | null = null;
  for (const [turn, scale] of snapStarts(input.controls, input.controlTolerance)) {
    const transform = refine(turnedAbout(input.start, centre, (turn * Math.PI) / 180, scale));
    const score = onInk(shifted, input.toward, input.offset, transform, dist, raster, narrowest);
    const worst = Math.max(0, ...controls.map((cp) => {
      const q = applySimilarity(transform, cp.from);
      return Math.hypot(q[0] - cp.to[0], q[1] - cp.to[1]);
    }));
    if (!bestAny || score > bestAny.onInk) bestAny = { onInk: score };
    if (worst <= input.controlTolerance && (!best || score > best.onInk)) best = { transform, onInk: score, worst };
  }
  if (!best) return { transform: input.start, onInkBefore, onInkAfter: bestAny!.onInk, kept: false, reason: 'matching the walls would move a control point too far from where it was put' };
  if (!(best.onInk > 0 && best.onInk >= onInkBefore - KEEP_SLACK)) return { transform: input.start, onInkBefore, onInkAfter: best.onInk, kept: false, reason: 'the walls of the walk match the plan less well than the control points alone' };
  return { transform: best.transform, onInkBefore, onInkAfter: best.onInk, kept: true };
}

/**
 * What the control points weigh together in the refinement, as a share of the wall points: enough to keep the fit in
 * the basin the user chose, little enough that the walls decide the walk's turn and scale. The cameras the points pin
 * are placed less well than the walls: the hard 3-minute walk's first camera sits 0.26 m from where the rest of its
 * shape puts it, and at a twentieth the two points dragged the whole walk 0.17 m off its walls (0.07 m at a fortieth);
 * the two-storey walk's pinned cameras sit 0.43–0.59 m from where their floors' shapes put them, and at a fortieth they
 * held the floors 0.22 and 0.52 m off where their walls lay them, 0.09 and 0.14 m at a four-hundredth (bench/RESULTS.md,
 * 2026-12-02). The textured minute is the same at either (0.03 m).
 */
const CONTROL_SHARE = 1 / 400;

/**
 * The snap is kept unless it lays fewer wall points on ink than the control points' fit by more than this share: a fit
 * of the control points that is already on the walls (counted with each point's offset along its wall's normal, 80 %
 * of a short walk's wall points) is about as good as the snap, and the snap then gives the walk the walls' turn and
 * scale, which the certainty counts on. Where both are that good it matters little which is kept: the 10-room walk of
 * workers/test/video-jobs.test.ts pinned exactly at its ends has the two within 2 % either way, depending on COLMAP's
 * run, and every room within 1 cm with either.
 */
const KEEP_SLACK = 0.01;

/** Starts of the refinement: the first fit turned by these angles (degrees) and scaled by these factors about the control points' centre. */
const START_TURNS_DEG = [-2, 0, 2];
const START_SCALES = [0.96, 1, 1.04];
/** Wider turns, this far apart (degrees): within the widest reach's basin for wall points a few metres from the centre. */
const WIDE_TURN_STEP_DEG = 4;
/** Never turned further than this (degrees): past it a room's walls meet its neighbour's. */
const WIDE_TURN_MAX_DEG = 30;

/**
 * The starts, as (turn in degrees, scale). Two control points close together fix the walk's turn only as well as their
 * clicks: a control clicked `controlTolerance` aside of the truth turns the first fit by up to atan(tolerance / half the
 * lever) about their centre, and from a first fit 15° off the refinement settled halfway, against the walls of the
 * wrong side of the room, still within a click of both controls — rooms 0.8 m off at the far end, vouched for. So the
 * fit is also turned every few degrees as far as the controls allow; a far pair allows no more than the close turns.
 */
export function snapStarts(controls: { to: Vec2 }[], controlTolerance: number): [number, number][] {
  const starts: [number, number][] = START_TURNS_DEG.flatMap((t) => START_SCALES.map((s): [number, number] => [t, s]));
  const lever = widestSpan(controls.map((c) => c.to));
  if (!(lever > 0)) return starts;
  const widest = Math.min(WIDE_TURN_MAX_DEG, (Math.atan(controlTolerance / (lever / 2)) * 180) / Math.PI);
  for (let t = WIDE_TURN_STEP_DEG; t <= widest; t += WIDE_TURN_STEP_DEG) starts.push([t, 1], [-t, 1]);
  return starts;
}

/** `t` followed by a turn by `angle` and a scaling by `k` about the sheet point `c`. */
function turnedAbout(t: Similarity2D, c: Vec2, angle: number, k: number): Similarity2D {
  const origin = applySimilarity(t, [0, 0]);
  const [ox, oy] = applySimilarity({ scale: k, rotation: angle, tx: 0, ty: 0 }, [origin[0] - c[0], origin[1] - c[1]]);
  return { scale: t.scale * k, rotation: t.rotation + angle, tx: c[0] + ox, ty: c[1] + oy };
}
