/**
 * Loop closure by place recognition over the walk's own keyframes (pure).
 *
 * COLMAP's vocabulary-tree retrieval needs a tree trained elsewhere (a file
 * we cannot download), and sequential matching never pairs two passes of
 * the same place minutes apart: the walk drifts and the passes do not
 * agree. A 360 keyframe is a whole panorama, so a place can be recognised
 * from a small grey thumbnail of the band around the horizon whatever way
 * the camera faced: turning on the spot shifts the panorama's columns
 * circularly, and the magnitudes of each row's Fourier coefficients do not
 * change under a circular shift. Those magnitudes (high-passed and
 * normalised, so a change of exposure changes little) are the keyframe's
 * global descriptor; cosine similarity retrieves candidates, a circular
 * correlation of the thumbnails verifies them and measures the turn between
 * the two passes — which tells which of their views look the same way
 * (pairs.ts) — and COLMAP's two-view geometry verifies the features.
 */

/** A keyframe's thumbnail of the horizon band, high-passed, zero mean, unit norm (row-major). */
export interface Panorama {
  width: number;
  height: number;
  data: Float32Array;
  /** Shift-invariant descriptor: per row, the magnitudes of the first Fourier coefficients; unit norm. */
  spectrum: Float32Array;
}

export interface LoopOptions {
  /** Two keyframes closer than this in walking order are neighbours, not a loop (they are matched anyway). */
  minSeparation: number;
  /** … nor closer than this in time (seconds). */
  minGapSec: number;
  /** Candidates kept per keyframe by the descriptor, before verification. */
  candidates: number;
  /** Loop pairs kept per keyframe after verification. */
  perKeyframe: number;
  /**
   * A loop pair's correlation must reach this share of that of keyframes `referenceGap` apart along the walk
   * (median over the walk): a place seen again must look as alike as two keyframes a step or two apart.
   */
  relativeScore: number;
  referenceGap: number;
  /** … and at least this correlation. */
  minScore: number;
  /** Fourier coefficients kept per row (1 … k; the mean is left out). */
  coefficients: number;
  /**
   * A pair holds only when the walk around it agrees: of the keyframes up to `sequence` before and after `a`, at
   * least `sequenceSupport` look like a keyframe next to the matching one around `b` (walked the same way or
   * back), at `sequenceShare` of the threshold. One look-alike place (two plain rooms) has no such sequence.
   */
  sequence: number;
  sequenceSupport: number;
  sequenceShare: number;
  /** … turned as the pair is, within this (degrees, once the headings measured along the walk are taken out). */
  sequenceTurnDeg: number;
}

export const DEFAULT_LOOP_OPTIONS: LoopOptions = {
  minSeparation: 12,
  minGapSec: 8,
  candidates: 6,
  perKeyframe: 2,
  relativeScore: 1.2,
  referenceGap: 2,
  minScore: 0.35,
  coefficients: 12,
  sequence: 2,
  sequenceSupport: 3,
  sequenceShare: 0.8,
  sequenceTurnDeg: 20,
};

/** Radius of the box blur of the thumbnail (pixels). */
export const PANORAMA_BLUR = 2;

/** Rows of a 2:1 equirectangular thumbnail kept: the band from 40° below to 40° above the horizon. */
export const BAND_ELEVATION_DEG = 40;

/**
 * A keyframe's panorama from a grey equirectangular thumbnail (width = 2 ×
 * height): the band around the horizon, minus its local mean (a 3 × 3 box,
 * circular in x) so that exposure and slow shading do not count, then zero
 * mean and unit norm.
 */
export function panoramaOf(grey: Uint8Array, width: number, height: number, coefficients = DEFAULT_LOOP_OPTIONS.coefficients, radius = PANORAMA_BLUR): Panorama {
  const half = Math.round((BAND_ELEVATION_DEG / 180) * height);
  const top = Math.max(radius, Math.floor(height / 2) - half);
  const bottom = Math.min(height - radius, Math.floor(height / 2) + half);
  const h = bottom - top;
  const data = new Float32Array(width * h);
  // A box blur of `radius` (circular in x): fine texture changes within a step, the layout of a place does not.
  for (let y = 0; y < h; y++) {
    const r = top + y;
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let dy = -radius; dy <= radius; dy++) for (let dx = -radius; dx <= radius; dx++) s += grey[(r + dy) * width + ((x + dx + width) % width)];
      data[y * width + x] = s;
    }
  }
  // Each row minus its own mean: a brighter or darker band (a window, a dark corridor) counts less.
  for (let y = 0; y < h; y++) {
    let m = 0;
    for (let x = 0; x < width; x++) m += data[y * width + x] / width;
    for (let x = 0; x < width; x++) data[y * width + x] -= m;
  }
  normalise(data);
  const k = Math.min(coefficients, Math.floor(width / 2));
  const spectrum = new Float32Array(h * k);
  for (let y = 0; y < h; y++) {
    for (let f = 1; f <= k; f++) {
      let re = 0;
      let im = 0;
      for (let x = 0; x < width; x++) {
        const a = (2 * Math.PI * f * x) / width;
        re += data[y * width + x] * Math.cos(a);
        im -= data[y * width + x] * Math.sin(a);
      }
      spectrum[y * k + f - 1] = Math.hypot(re, im);
    }
  }
  normaliseNorm(spectrum);
  return { width, height: h, data, spectrum };
}

function normalise(v: Float32Array) {
  let m = 0;
  for (const x of v) m += x / v.length;
  for (let i = 0; i < v.length; i++) v[i] -= m;
  normaliseNorm(v);
}

function normaliseNorm(v: Float32Array) {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] /= n;
}

const cosine = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/**
 * The circular shift of `b`'s columns that best matches `a` and its
 * correlation (−1 … 1): content at column x in `a` is near column
 * x + shift in `b`. `turnDeg` is that shift in degrees (positive: the
 * content moved right, as `headingDeg` in pairs.ts).
 */
export function bestTurn(a: Panorama, b: Panorama): { turnDeg: number; score: number } {
  if (a.width !== b.width || a.height !== b.height) throw new Error('Panoramas of different sizes cannot be compared.');
  const w = a.width;
  let best = { shift: 0, score: -Infinity };
  for (let shift = 0; shift < w; shift++) {
    let s = 0;
    for (let y = 0; y < a.height; y++) {
      const ra = y * w;
      for (let x = 0; x < w; x++) s += a.data[ra + x] * b.data[ra + ((x + shift) % w)];
    }
    if (s > best.score) best = { shift, score: s };
  }
  // Sub-column peak: a parabola through the best score and its two neighbours.
  const at = (shift: number) => {
    let s = 0;
    for (let y = 0; y < a.height; y++) for (let x = 0; x < w; x++) s += a.data[y * w + x] * b.data[y * w + ((x + shift + w) % w)];
    return s;
  };
  const l = at(best.shift - 1);
  const r = at(best.shift + 1);
  const den = l - 2 * best.score + r;
  const offset = den < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (l - r)) / den)) : 0;
  let turnDeg = ((best.shift + offset) * 360) / w;
  if (turnDeg > 180) turnDeg -= 360;
  return { turnDeg, score: best.score };
}

export interface LoopFrame {
  index: number;
  time: number;
  /** Heading from the motion analysis (degrees, content shift): drifts over a walk, but not over a few keyframes. */
  headingDeg: number;
}

export interface LoopPair {
  /** Keyframe numbers, a < b. */
  a: number;
  b: number;
  /** Correlation of the two panoramas at the best turn. */
  score: number;
  /** Content at yaw Y in `a` is near yaw Y + turnDeg in `b`. */
  turnDeg: number;
}

/**
 * Pairs of keyframes far apart along the walk that show the same place.
 * Every keyframe's `candidates` nearest by descriptor are verified by
 * correlation; a pair is kept when its correlation reaches `minScore` and
 * `relativeScore` of that of keyframes `referenceGap` apart (the walk's own
 * measure of "the same place"), at most `perKeyframe` per keyframe, best
 * first. The descriptor search costs n² short dot products (a 20-minute
 * walk's ~1,500 keyframes: about a second); the correlations are few.
 */
export function findLoopPairs(frames: LoopFrame[], panoramas: Panorama[], options: Partial<LoopOptions> = {}): { pairs: LoopPair[]; reference: number } {
  const o = { ...DEFAULT_LOOP_OPTIONS, ...options };
  const n = frames.length;
  if (panoramas.length !== n) throw new Error('One panorama per keyframe is needed.');
  const refScores: number[] = [];
  for (let i = 0; i + o.referenceGap < n; i += Math.max(1, Math.floor(n / 200))) refScores.push(bestTurn(panoramas[i], panoramas[i + o.referenceGap]).score);
  refScores.sort((x, y) => x - y);
  const reference = refScores.length ? refScores[Math.floor(refScores.length / 2)] : 1;
  const threshold = Math.max(o.minScore, o.relativeScore * reference);
  const far = (i: number, j: number) => Math.abs(i - j) >= o.minSeparation && Math.abs(frames[i].time - frames[j].time) >= o.minGapSec;
  const scores = new Map<number, { turnDeg: number; score: number }>();
  const turn = (i: number, j: number) => {
    const key = i * n + j;
    let t = scores.get(key);
    if (!t) scores.set(key, (t = bestTurn(panoramas[i], panoramas[j])));
    return t;
  };
  const angle = (x: number, y: number) => Math.abs(((((x - y) % 360) + 540) % 360) - 180);
  const supported = (a: number, b: number) => {
    const turnAB = turn(a, b).turnDeg;
    for (const dir of [1, -1]) {
      let support = 0;
      for (let k = -o.sequence; k <= o.sequence; k++) {
        if (k === 0 || a + k < 0 || a + k >= n) continue;
        for (let d = -1; d <= 1; d++) {
          const j = b + dir * k + d;
          if (j < 0 || j >= n || !far(a + k, j)) continue;
          // Alike, and turned as the pair is (both passes turn alike there): a look-alike elsewhere turns at random.
          const t = turn(a + k, j);
          if (t.score >= o.sequenceShare * threshold && angle(t.turnDeg + frames[a + k].headingDeg - frames[j].headingDeg, turnAB + frames[a].headingDeg - frames[b].headingDeg) <= o.sequenceTurnDeg) {
            support++;
            break;
          }
        }
      }
      if (support >= o.sequenceSupport) return true;
    }
    return false;
  };
  const verified = new Map<string, LoopPair>();
  for (let i = 0; i < n; i++) {
    const near: { j: number; s: number }[] = [];
    for (let j = 0; j < n; j++) {
      if (!far(i, j)) continue;
      const s = cosine(panoramas[i].spectrum, panoramas[j].spectrum);
      if (near.length < o.candidates || s > near[near.length - 1].s) {
        near.push({ j, s });
        near.sort((x, y) => y.s - x.s);
        if (near.length > o.candidates) near.pop();
      }
    }
    for (const { j } of near) {
      const [a, b] = i < j ? [i, j] : [j, i];
      const key = `${a}|${b}`;
      if (verified.has(key)) continue;
      const t = turn(a, b);
      if (t.score >= threshold && supported(a, b)) verified.set(key, { a: frames[a].index, b: frames[b].index, score: t.score, turnDeg: t.turnDeg });
    }
  }
  const count = new Map<number, number>();
  const pairs: LoopPair[] = [];
  for (const p of [...verified.values()].sort((x, y) => y.score - x.score)) {
    if ((count.get(p.a) ?? 0) >= o.perKeyframe || (count.get(p.b) ?? 0) >= o.perKeyframe) continue;
    count.set(p.a, (count.get(p.a) ?? 0) + 1);
    count.set(p.b, (count.get(p.b) ?? 0) + 1);
    pairs.push(p);
  }
  return { pairs: pairs.sort((x, y) => x.a - y.a || x.b - y.b), reference };
}
