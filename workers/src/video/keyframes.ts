/**
 * Keyframe choice by motion, on a low-resolution grey equirectangular stream
 * (pure logic: no I/O). For each frame the horizontal column profile of the
 * middle band is compared with the last keyframe's:
 * - rotation (yaw) is the circular shift that best aligns the two profiles;
 * - parallax is the median of the local shifts of column blocks left after
 *   taking out that rotation: walking forward makes the sides flow backwards
 *   by an angle of about baseline / distance, which is what
 *   structure-from-motion needs between two views.
 * A frame becomes a keyframe when the camera turned or moved enough since
 * the last one; standing still adds nothing, turning adds frames densely.
 */

export interface GreyFrame {
  /** Row-major 8-bit grey pixels, width × height (equirectangular, 2:1). */
  data: Uint8Array;
  width: number;
  height: number;
}

export interface KeyframeOptions {
  /** A new keyframe when the yaw turned this much since the last one (degrees). */
  maxTurnDeg: number;
  /** … or when the parallax since the last one reached this (degrees). */
  maxParallaxDeg: number;
  /** Never two keyframes closer than this (seconds). */
  minGapSec: number;
  /** When moving at all (parallax above `stillParallaxDeg`), never longer than this without a keyframe (seconds). */
  maxGapSec: number;
  /** Parallax below this counts as standing still (degrees). */
  stillParallaxDeg: number;
  /** Pixel standard deviation under which a frame shows nothing to match (0–255). */
  minContrast: number;
}

export const DEFAULT_KEYFRAME_OPTIONS: KeyframeOptions = {
  maxTurnDeg: 20,
  maxParallaxDeg: 2.5,
  minGapSec: 0.2,
  maxGapSec: 2.5,
  stillParallaxDeg: 0.4,
  minContrast: 6,
};

/** The signature of one frame used for motion measurements. */
export interface FrameSignature {
  /** Column profile (mean of the middle band), zero mean, unit variance. */
  profile: Float64Array;
  /** Standard deviation of the frame's pixels (0–255). */
  contrast: number;
}

/** Middle band rows [25 %, 75 %): the horizon band, where walls are, away from the stretched poles. */
export function signature(frame: GreyFrame): FrameSignature {
  const { data, width, height } = frame;
  const r0 = Math.floor(height * 0.25);
  const r1 = Math.ceil(height * 0.75);
  const profile = new Float64Array(width);
  let sum = 0;
  let sum2 = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const v = data[row + x];
      sum += v;
      sum2 += v * v;
      if (y >= r0 && y < r1) profile[x] += v;
    }
  }
  const n = width * height;
  const mean = sum / n;
  const contrast = Math.sqrt(Math.max(0, sum2 / n - mean * mean));
  // Gradient of the profile: insensitive to exposure changes, sharper peaks for matching.
  const grad = new Float64Array(width);
  for (let x = 0; x < width; x++) grad[x] = profile[(x + 1) % width] - profile[(x + width - 1) % width];
  normalise(grad);
  return { profile: grad, contrast };
}

function normalise(a: Float64Array): void {
  let m = 0;
  for (const v of a) m += v;
  m /= a.length || 1;
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    a[i] -= m;
    s += a[i] * a[i];
  }
  s = Math.sqrt(s / (a.length || 1)) || 1;
  for (let i = 0; i < a.length; i++) a[i] /= s;
}

/** Sub-pixel position of a peak from its two neighbours (parabola through three points). */
const parabolic = (l: number, c: number, r: number): number => {
  const d = l - 2 * c + r;
  return d < 0 ? (0.5 * (l - r)) / d : 0;
};

/**
 * The circular shift s (pixels, may be fractional, |s| ≤ maxShift) with
 * b[x] ≈ a[x − s] — i.e. the content of `a` moved right by s in `b`.
 */
export function circularShift(a: Float64Array, b: Float64Array, maxShift: number): number {
  const w = a.length;
  const score = (s: number) => {
    let acc = 0;
    for (let x = 0; x < w; x++) acc += a[x] * b[(x + s + w) % w];
    return acc;
  };
  let best = 0;
  let bestScore = -Infinity;
  const scores = new Map<number, number>();
  for (let s = -maxShift; s <= maxShift; s++) {
    const v = score(s);
    scores.set(s, v);
    if (v > bestScore) {
      bestScore = v;
      best = s;
    }
  }
  const l = scores.get(best - 1) ?? score(best - 1);
  const r = scores.get(best + 1) ?? score(best + 1);
  return best + parabolic(l, bestScore, r);
}

/**
 * Parallax between two profiles after a known global shift: the median of
 * the absolute residual shifts of `blocks` column blocks (pixels), each found
 * within ±maxLocal pixels. Blocks with no texture are left out.
 */
export function parallax(a: Float64Array, b: Float64Array, globalShift: number, blocks = 16, maxLocal = 10): number {
  const w = a.length;
  const bw = Math.floor(w / blocks);
  const g = Math.round(globalShift);
  const residuals: number[] = [];
  for (let k = 0; k < blocks; k++) {
    const x0 = k * bw;
    let energy = 0;
    for (let x = x0; x < x0 + bw; x++) energy += a[x] * a[x];
    if (energy / bw < 0.2) continue;
    let best = 0;
    let bestScore = -Infinity;
    const sc: number[] = [];
    for (let s = -maxLocal; s <= maxLocal; s++) {
      let acc = 0;
      let nb = 0;
      for (let x = x0; x < x0 + bw; x++) {
        const v = b[(((x + g + s) % w) + w) % w];
        acc += a[x] * v;
        nb += v * v;
      }
      const v = acc / Math.sqrt(nb * energy || 1);
      sc.push(v);
      if (v > bestScore) {
        bestScore = v;
        best = s;
      }
    }
    if (bestScore < 0.5) continue;
    const i = best + maxLocal;
    const sub = i > 0 && i < sc.length - 1 ? parabolic(sc[i - 1], sc[i], sc[i + 1]) : 0;
    residuals.push(Math.abs(best + sub + g - globalShift));
  }
  if (!residuals.length) return 0;
  residuals.sort((x, y) => x - y);
  return residuals[Math.floor(residuals.length / 2)];
}

export interface FrameMotion {
  /** Frame number in the video (0-based, decoding order). */
  frame: number;
  /** Seconds. */
  time: number;
  /** Yaw turned since the last keyframe, degrees (positive: content moved right). */
  turnDeg: number;
  /** Parallax since the last keyframe, degrees. */
  parallaxDeg: number;
  contrast: number;
}

export interface Keyframe {
  frame: number;
  time: number;
  /** Heading estimate relative to the first keyframe, degrees (content shift; used to pick view pairs). */
  headingDeg: number;
  /** Why it was kept: 'first' | 'turn' | 'move' | 'gap' | 'last'. */
  reason: string;
}

/**
 * The online keyframe chooser: feed frames in order, read `keyframes` at the
 * end. Causal, so it can run while the video is still being decoded.
 */
export class KeyframeChooser {
  readonly keyframes: Keyframe[] = [];
  readonly motion: FrameMotion[] = [];
  private ref: FrameSignature | null = null;
  private refHeading = 0;
  private last: { frame: number; time: number; sig: FrameSignature; turn: number; parallax: number } | null = null;
  private maxContrast = 0;
  private frames = 0;

  constructor(private readonly opts: KeyframeOptions = DEFAULT_KEYFRAME_OPTIONS) {}

  /** The highest contrast seen; a whole video below `minContrast` shows nothing to reconstruct. */
  get contrast(): number {
    return this.maxContrast;
  }

  get framesSeen(): number {
    return this.frames;
  }

  push(frame: number, time: number, grey: GreyFrame): void {
    this.frames++;
    const sig = signature(grey);
    this.maxContrast = Math.max(this.maxContrast, sig.contrast);
    const w = grey.width;
    const degPerPx = 360 / w;
    if (!this.ref) {
      if (sig.contrast < this.opts.minContrast) return;
      this.ref = sig;
      this.keyframes.push({ frame, time, headingDeg: 0, reason: 'first' });
      this.last = { frame, time, sig, turn: 0, parallax: 0 };
      this.motion.push({ frame, time, turnDeg: 0, parallaxDeg: 0, contrast: sig.contrast });
      return;
    }
    const maxShift = Math.round(w / 4);
    const shift = circularShift(this.ref.profile, sig.profile, maxShift);
    const turnDeg = shift * degPerPx;
    const parallaxDeg = parallax(this.ref.profile, sig.profile, shift) * degPerPx;
    this.motion.push({ frame, time, turnDeg, parallaxDeg, contrast: sig.contrast });
    this.last = { frame, time, sig, turn: turnDeg, parallax: parallaxDeg };
    const prev = this.keyframes[this.keyframes.length - 1];
    const gap = time - prev.time;
    if (gap < this.opts.minGapSec || sig.contrast < this.opts.minContrast) return;
    let reason = '';
    if (Math.abs(turnDeg) >= this.opts.maxTurnDeg) reason = 'turn';
    else if (parallaxDeg >= this.opts.maxParallaxDeg) reason = 'move';
    else if (gap >= this.opts.maxGapSec && parallaxDeg >= this.opts.stillParallaxDeg) reason = 'gap';
    if (reason) this.keep(reason);
  }

  private keep(reason: string): void {
    const l = this.last!;
    this.refHeading += l.turn;
    this.keyframes.push({ frame: l.frame, time: l.time, headingDeg: this.refHeading, reason });
    this.ref = l.sig;
    this.last = { ...l, turn: 0, parallax: 0 };
  }

  /** Ends the stream: the last frame is kept when it moved since the last keyframe. */
  finish(): Keyframe[] {
    const l = this.last;
    const prev = this.keyframes[this.keyframes.length - 1];
    if (l && prev && l.frame !== prev.frame && (l.parallax >= this.opts.stillParallaxDeg || Math.abs(l.turn) >= this.opts.maxTurnDeg / 2)) this.keep('last');
    return this.keyframes;
  }
}
