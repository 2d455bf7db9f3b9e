/**
 * Bending a snapped walk onto its walls, stretch by stretch (pure, framework-free).
 *
 * Why: the snap to the plan's walls (wall-snap.ts) gives the whole walk one turn, scale and shift. A long or plain walk
 * is not that rigid: its models drift inside themselves, so one stretch sits a decimetre or two beside its walls while
 * the rest fits (the two-storey walk's floors were off by their own shape, 0.12–0.19 m, after the best similarity; the
 * hard walk's first camera 0.26 m from where the rest of its shape puts it). The walls a stretch saw say where that
 * stretch is, whatever the control points or the rest of the walk say.
 *
 * How: the walk is cut into overlapping windows of about `windowM` of walk (10 m). In each, the wall points seen from its
 * keyframes (each wall point belongs to the keyframe nearest to it) pull the window by one shift onto the plan's ink:
 * the same robust cost as the snap (Tukey, reach narrowing), on the shift alone, with a prior holding it at zero
 * (`priorM`): along a corridor, whose walls say nothing about how far along it the walk is, the shift stays as the snap
 * left it. A window whose walls are too few (`minPoints`) is not moved. Each keyframe then moves by its windows' shifts,
 * blended along the walk, so the rooms bend smoothly.
 *
 * Each moved window is then asked whether its walls hold it: whether every shift of it within a ring (0.2–1.4 m) lays
 * fewer of its wall points on ink. The certainty (placement-confidence.ts) takes a room every window of which is held
 * as sure as the ring's inner radius while its own model keeps it within the ring.
 */
import { applySimilarity, type Similarity2D, type Vec2 } from './linear-algebra.js';
import { offNormal, onInk, sample, type SheetRaster } from './wall-snap.js';

export interface BendInput {
  /** Top-down keyframe places, in walking order (reconstruction units). */
  track: Vec2[];
  /** Wall points, top-down (reconstruction units), each already shifted `offset` towards `toward` (as the snap takes them). */
  shifted: Vec2[];
  /** Unit direction from each wall point towards the camera that saw it. */
  toward: Vec2[];
  /** The keyframe (track index) nearest to each wall point. */
  nearest: ArrayLike<number>;
  /** How far the wall points were shifted towards their cameras (reconstruction units). */
  offset: number;
  /** The snapped similarity (top-down → sheet pixels). */
  transform: Similarity2D;
  dist: Float32Array;
  raster: Pick<SheetRaster, 'width' | 'height' | 'scale'>;
  /** Reconstruction units per metre. */
  unitsPerMetre: number;
  options?: Partial<BendOptions>;
}

export interface BendOptions {
  /** Length of walk a window spans, metres (windows overlap by half). */
  windowM: number;
  /** Reach of the robust cost, wide to narrow, metres: a shift beyond the widest is not looked for. */
  reachesM: number[];
  /** The prior on a window's shift: zero, give or take this, metres. */
  priorM: number;
  /** Typical error of one wall point along its wall's normal, metres (weighs the walls against the prior). */
  wallM: number;
  /** Fewer wall points in a window than this: the window is not moved. */
  minPoints: number;
  /**
   * A window over a place where the walk turns round (its way over this much walk before and after more than 120°
   * apart, metres) is not moved (0: every window is). On the hard minute, bending the windows over its turn round on
   * the spot at a dead end left 9 rooms 0.30–0.37 m off in silence (2 without the bend, 2 with this; bench/RESULTS.md).
   */
  turnM: number;
  /**
   * The walls hold a window where every shift this far from its placement (metres, nearest and furthest) lays fewer of
   * its wall points on ink (`holdMargin`): the placement is then the walls' own best for a stretch of that size, and
   * nothing within the ring looks as right. Narrower than the inner radius the walls cannot tell one shift from the next.
   */
  holdRingM: [number, number];
  /**
   * A shift in the ring beats the placement when it lays no fewer of the window's wall points on ink than this share
   * below it: along a corridor a shift lays about as many, and that says the walls cannot tell, not that they hold.
   */
  holdMargin: number;
}

/**
 * The defaults, from the bench walks (bench/RESULTS.md, 2026-12-02): windows of 10 m of walk hold a room or two and
 * their doorways, walls in more than one direction (4 m windows saw too few walls and laid the hard 3-minute walk worse
 * than no bend, 0.062 against 0.064 m; 8–12 m all gave 0.037–0.042 m, 24 m 0.039 m but the textured minute 0.028
 * against 0.022 m); the prior at 5 cm left no room off in silence after the points asked for, where 10–20 cm left one
 * at the threshold. The widest reach is the snap's middle one, so a window never leaves the walls the snap chose.
 */
export const DEFAULT_BEND_OPTIONS: BendOptions = { windowM: 10, reachesM: [0.25, 0.12], priorM: 0.05, wallM: 0.05, minPoints: 40, turnM: 2, holdRingM: [0.2, 1.4], holdMargin: 0.02 };

export interface WallBend {
  /** How far each keyframe moves, sheet pixels, in `track` order. */
  shiftPx: Vec2[];
  /**
   * The windows: first and last track index, their shift (sheet pixels), how many wall points pulled them, and whether
   * the walls hold it (`holdRingM`).
   */
  windows: { from: number; to: number; shiftPx: Vec2; points: number; held: boolean }[];
  /** Each keyframe every window of which the walls hold (none over a turn round, none with too few walls), `track` order. */
  held: boolean[];
  /** The ring the walls were searched over, metres (`holdRingM`). */
  holdRingM: [number, number];
}

/**
 * The keyframes where the walk turns round: the way it came over the last `reach` of walk and the way it goes over
 * the next are more than 120° apart (1 for each such keyframe).
 */
function turnsRound(track: Vec2[], walked: number[], reach: number): Uint8Array {
  const n = track.length;
  const out = new Uint8Array(n);
  if (!(reach > 0)) return out;
  for (let i = 0, a = 0, b = 0; i < n; i++) {
    while (walked[i] - walked[a] > reach) a++;
    while (b + 1 < n && walked[b] - walked[i] < reach) b++;
    const u: Vec2 = [track[i][0] - track[a][0], track[i][1] - track[a][1]];
    const v: Vec2 = [track[b][0] - track[i][0], track[b][1] - track[i][1]];
    const nu = Math.hypot(...u), nv = Math.hypot(...v);
    if (nu > 0 && nv > 0 && (u[0] * v[0] + u[1] * v[1]) / (nu * nv) < -0.5) out[i] = 1;
  }
  return out;
}

/** Cumulative walk length at each keyframe (reconstruction units). */
function walkedAt(track: Vec2[]): number[] {
  const s = [0];
  for (let i = 1; i < track.length; i++) s.push(s[i - 1] + Math.hypot(track[i][0] - track[i - 1][0], track[i][1] - track[i - 1][1]));
  return s;
}

/** The shift (sheet pixels) that lays these wall points on ink, robustly, held towards zero by the prior. */
function windowShift(input: BendInput, o: BendOptions, points: number[]): Vec2 {
  const { transform: t, dist, raster } = input;
  const k = raster.scale;
  const pxPerMetre = t.scale * input.unitsPerMetre;
  // Normal equations in sheet pixels: walls weigh 1/wallM², the prior 1/priorM² (both per pixel²).
  const priorW = (o.wallM / o.priorM) ** 2;
  const sheet = points.map((i) => applySimilarity(t, input.shifted[i]));
  let s: Vec2 = [0, 0];
  for (const reachM of o.reachesM) {
    const c = reachM * pxPerMetre;
    for (let it = 0; it < 10; it++) {
      let a00 = priorW, a01 = 0, a11 = priorW, g0 = priorW * s[0], g1 = priorW * s[1];
      let used = 0;
      points.forEach((wi, j) => {
        const q = sheet[j];
        const smp = sample(dist, raster.width, raster.height, (q[0] + s[0]) * k, (q[1] + s[1]) * k);
        if (!smp) return;
        const r = smp.d / k - input.offset * t.scale * offNormal(smp, input.toward[wi], t);
        if (Math.abs(r) >= c) return;
        const w = (1 - (r / c) ** 2) ** 2;
        used += w;
        a00 += w * smp.gx * smp.gx;
        a01 += w * smp.gx * smp.gy;
        a11 += w * smp.gy * smp.gy;
        g0 += w * smp.gx * r;
        g1 += w * smp.gy * r;
      });
      // Too few walls within reach: the prior alone would only pull it back; the window stays where it is.
      if (used < o.minPoints / 4) return [0, 0];
      const det = a00 * a11 - a01 * a01;
      if (!(det > 0)) break;
      const step: Vec2 = [-(a11 * g0 - a01 * g1) / det, -(a00 * g1 - a01 * g0) / det];
      s = [s[0] + step[0], s[1] + step[1]];
      if (Math.hypot(...step) < 1e-3 * c) break;
    }
    // Never further than the widest reach: a window that ran off is not moved.
    if (Math.hypot(...s) > o.reachesM[0] * pxPerMetre) return [0, 0];
  }
  return s;
}

/** At most this many of a window's wall points (evenly picked) are counted when its ring of shifts is searched. */
const HOLD_POINTS = 300;
/** The ring is searched on a grid this fine (metres), then round its best few cells at half of it. */
const HOLD_STEP_M = 0.1;

/**
 * Whether the walls hold a window placed at `shift` (sheet pixels): every shift `holdRingM` away from it lays a smaller
 * share of its wall points within the narrowest reach of their faces, by `holdMargin` at least. A window beside a row
 * of like rooms, or along a corridor, finds as good a place a room or a step away, and is not held; a window whose
 * walls only fit where it is, is.
 */
function wallsHold(input: BendInput, o: BendOptions, points: number[], shift: Vec2): boolean {
  const { transform: t, dist, raster } = input;
  const pxPerMetre = t.scale * input.unitsPerMetre;
  const reach = Math.min(...o.reachesM) * pxPerMetre;
  const every = Math.max(1, Math.ceil(points.length / HOLD_POINTS));
  const picked = points.filter((_, j) => j % every === 0);
  const shifted = picked.map((i) => input.shifted[i]);
  const toward = picked.map((i) => input.toward[i]);
  // The window moved by its shift and by (dx, dy) more, sheet pixels.
  const share = (dx: number, dy: number) => onInk(shifted, toward, input.offset, { ...t, tx: t.tx + shift[0] + dx, ty: t.ty + shift[1] + dy }, dist, raster, reach);
  // A shift laying this share or more beats the placement.
  const beaten = share(0, 0) - o.holdMargin;
  if (!(beaten > 0)) return false;
  const [near, far] = o.holdRingM.map((m) => m * pxPerMetre);
  const inRing = (dx: number, dy: number) => Math.hypot(dx, dy) >= near && Math.hypot(dx, dy) <= far;
  const step = HOLD_STEP_M * pxPerMetre;
  const cells: { dx: number; dy: number; share: number }[] = [];
  for (let dx = -far; dx <= far + 1e-9; dx += step)
    for (let dy = -far; dy <= far + 1e-9; dy += step) {
      if (!inRing(dx, dy)) continue;
      const here = share(dx, dy);
      if (here >= beaten) return false;
      cells.push({ dx, dy, share: here });
    }
  // Round the best cells, at half the step: a face's fit is sharper than the grid.
  cells.sort((a, b) => b.share - a.share);
  for (const c of cells.slice(0, 5))
    for (const [ex, ey] of [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]])
      if (inRing(c.dx + (ex * step) / 2, c.dy + (ey * step) / 2) && share(c.dx + (ex * step) / 2, c.dy + (ey * step) / 2) >= beaten) return false;
  return true;
}

/**
 * Each keyframe's shift (sheet pixels) that lays the walls its stretch of walk saw onto the plan's ink, beyond the
 * snapped similarity.
 */
export function bendToWalls(input: BendInput): WallBend {
  const o = { ...DEFAULT_BEND_OPTIONS, ...input.options };
  const n = input.track.length;
  const s = walkedAt(input.track);
  const windowU = o.windowM * input.unitsPerMetre;
  // Window starts every half window of walk; each spans a whole window.
  const starts: number[] = [0];
  for (let i = 1; i < n; i++) if (s[i] - s[starts.at(-1)!] >= windowU / 2) starts.push(i);
  const byKeyframe: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < input.nearest.length; i++) byKeyframe[input.nearest[i]].push(i);
  const reversed = turnsRound(input.track, s, o.turnM * input.unitsPerMetre);
  const windows: WallBend['windows'] = [];
  for (const from of starts) {
    let to = from;
    while (to + 1 < n && s[to + 1] - s[from] <= windowU) to++;
    const points = byKeyframe.slice(from, to + 1).flat();
    // A window over a turn round on the spot holds both passes, which the reconstruction may have laid apart: one shift
    // serves neither, and it is not moved.
    const turns = reversed.subarray(from, to + 1).includes(1);
    const moved = points.length >= o.minPoints && !turns;
    const shiftPx = moved ? windowShift(input, o, points) : ([0, 0] as Vec2);
    windows.push({ from, to, shiftPx, points: points.length, held: moved && wallsHold(input, o, points, shiftPx) });
    if (to === n - 1) break;
  }
  // A keyframe takes the mean of its windows' shifts, each weighed by how near the keyframe is to its middle (a tent
  // over the window), so the shift changes smoothly from one window to the next.
  const shiftPx = Array.from({ length: n }, (_, i): Vec2 => {
    let wx = 0, wy = 0, wsum = 0;
    for (const w of windows) {
      if (i < w.from || i > w.to) continue;
      const mid = (s[w.from] + s[w.to]) / 2, half = Math.max(1e-9, (s[w.to] - s[w.from]) / 2);
      const weight = Math.max(1e-6, 1 - Math.abs(s[i] - mid) / half);
      wx += weight * w.shiftPx[0];
      wy += weight * w.shiftPx[1];
      wsum += weight;
    }
    return wsum > 0 ? [wx / wsum, wy / wsum] : [0, 0];
  });
  const held = Array.from({ length: n }, (_, i) => {
    const mine = windows.filter((w) => i >= w.from && i <= w.to);
    return mine.length > 0 && mine.every((w) => w.held);
  });
  return { shiftPx, windows, held, holdRingM: o.holdRingM };
}

/**
 * The nearest keyframe to each of many points (xy pairs, the track's units), exactly: the track binned in square
 * cells, the rings of cells round a point searched outwards until no nearer keyframe can lie further out. Ties go to
 * the earlier keyframe.
 */
export function nearestOnTrack(track: Vec2[], points: ArrayLike<number>, cell: number): Int32Array {
  const n = Math.floor(points.length / 2);
  const out = new Int32Array(n);
  if (!track.length || !(cell > 0)) return out;
  const cx0 = Math.min(...track.map(([x]) => Math.floor(x / cell))), cy0 = Math.min(...track.map(([, y]) => Math.floor(y / cell)));
  const w = Math.max(...track.map(([x]) => Math.floor(x / cell))) - cx0 + 1, h = Math.max(...track.map(([, y]) => Math.floor(y / cell))) - cy0 + 1;
  // The keyframes of each cell, in one array (cell c's are order[start[c]] … order[start[c + 1] − 1]).
  const cellOf = track.map(([x, y]) => (Math.floor(y / cell) - cy0) * w + (Math.floor(x / cell) - cx0));
  const start = new Int32Array(w * h + 1);
  for (const c of cellOf) start[c + 1]++;
  for (let c = 0; c < w * h; c++) start[c + 1] += start[c];
  const fill = start.slice(0, w * h);
  const order = new Int32Array(track.length);
  cellOf.forEach((c, i) => (order[fill[c]++] = i));
  for (let p = 0; p < n; p++) {
    const x = points[2 * p], y = points[2 * p + 1];
    const cx = Math.floor(x / cell) - cx0, cy = Math.floor(y / cell) - cy0;
    let best = Infinity, bestI = 0;
    const visit = (i: number, j: number) => {
      if (i < 0 || j < 0 || i >= w || j >= h) return;
      const c = j * w + i;
      for (let q = start[c]; q < start[c + 1]; q++) {
        const t = order[q];
        const d = (track[t][0] - x) ** 2 + (track[t][1] - y) ** 2;
        if (d < best || (d === best && t < bestI)) [best, bestI] = [d, t];
      }
    };
    // Ring r: the cells r away (Chebyshev); a keyframe there is at least (r − 1) cells away.
    const farthest = Math.max(Math.abs(cx), Math.abs(cx - w + 1), Math.abs(cy), Math.abs(cy - h + 1));
    for (let r = 0; r <= farthest; r++) {
      if (best < ((r - 1) * cell) ** 2) break;
      if (r === 0) visit(cx, cy);
      for (let i = -r; i <= r && r > 0; i++) [visit(cx + i, cy - r), visit(cx + i, cy + r)];
      for (let j = -r + 1; j <= r - 1; j++) [visit(cx - r, cy + j), visit(cx + r, cy + j)];
    }
    out[p] = bestI;
  }
  return out;
}
