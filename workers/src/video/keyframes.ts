/**
 * Keyframe choice by motion, on a low-resolution grey equirectangular stream
 * (pure logic: no I/O). Column profiles of four bands around the horizon are
 * cut into blocks and each block's horizontal shift between two frames is
 * measured. In an equirectangular image those shifts follow
 *   shift(azimuth) = rotation + A·sin(azimuth) + B·cos(azimuth):
 * turning moves every direction alike, walking makes the content at right
 * angles to the motion flow backwards by about baseline / distance (the
 * parallax structure-from-motion needs). A robust least-squares fit gives
 * both. A frame becomes a keyframe when the camera turned or moved enough
 * since the last one: standing still adds nothing, turning adds frames.
 */
import { solve3 } from './linear-algebra.js';

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
  /** Parallax since the last keyframe below this (degrees): still at the same spot, however the camera turned. */
  spotParallaxDeg: number;
  /**
   * At one spot, a turn makes a keyframe only towards a direction this far (degrees) from every keyframe kept
   * there: the views are cut at fixed world directions, so turning on the spot shows nothing new, and a
   * walker who stands looking round or turns back at a dead end must not pile up rooms at one place.
   */
  spotTurnDeg: number;
}

export const DEFAULT_KEYFRAME_OPTIONS: KeyframeOptions = {
  maxTurnDeg: 30,
  // About one keyframe per 0.5 m in rooms a few metres wide. 16° halved COLMAP's work on the 50 s walk, but a
  // short walk then split in two now and then (too little overlap where it hugs a wall); 20° split it every time.
  maxParallaxDeg: 12,
  minGapSec: 0.2,
  maxGapSec: 2,
  stillParallaxDeg: 1,
  minContrast: 6,
  spotParallaxDeg: 4,
  spotTurnDeg: 90,
};

/** Bar of apparent parallax per degree turned since the last keyframe: a synthetic look-round of ±60° read 1° of parallax after about 650° of turning; 0.02 keeps a wide margin, and a walk, which turns little between keyframes, keeps its bar. */
const TURN_NOISE = 0.02;

/** The signature of one frame used for motion measurements. */
export interface FrameSignature {
  /** Column profiles of horizontal bands (mean of each column over the band's rows), smoothed. */
  bands: Float64Array[];
  /** Standard deviation of the frame's pixels (0–255). */
  contrast: number;
}

/** Band limits as fractions of the height: around the horizon, away from the stretched poles. */
const BANDS: [number, number][] = [[0.2, 0.35], [0.35, 0.5], [0.5, 0.65], [0.65, 0.8]];

export function signature(frame: GreyFrame): FrameSignature {
  const { data, width, height } = frame;
  let sum = 0;
  let sum2 = 0;
  for (let i = 0; i < width * height; i++) {
    const v = data[i];
    sum += v;
    sum2 += v * v;
  }
  const n = width * height;
  const mean = sum / n;
  const contrast = Math.sqrt(Math.max(0, sum2 / n - mean * mean));
  const bands = BANDS.map(([a, b]) => {
    const r0 = Math.floor(height * a);
    const r1 = Math.max(r0 + 1, Math.floor(height * b));
    const p = new Float64Array(width);
    for (let y = r0; y < r1; y++) for (let x = 0; x < width; x++) p[x] += data[y * width + x];
    const q = new Float64Array(width);
    for (let x = 0; x < width; x++) q[x] = (p[(x + width - 1) % width] + 2 * p[x] + p[(x + 1) % width]) / (4 * (r1 - r0));
    return q;
  });
  return { bands, contrast };
}

/** Sub-pixel position of a peak from its two neighbours (parabola through three points). */
const parabolic = (l: number, c: number, r: number): number => {
  const d = l - 2 * c + r;
  return d < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (l - r)) / d)) : 0;
};

/** One measured local shift: block centre azimuth (radians, 0 = image centre) and shift (pixels). */
interface BlockShift {
  azimuth: number;
  shift: number;
}

/**
 * Local horizontal shifts of column blocks of every band, from `a` to `b`,
 * each searched within centre ± range pixels (normalised cross-correlation;
 * blocks without texture or without a clear match are left out).
 */
export function blockShifts(a: FrameSignature, b: FrameSignature, centre: number, range: number, blocks = 32): BlockShift[] {
  const out: BlockShift[] = [];
  const c = Math.round(centre);
  for (let k = 0; k < a.bands.length; k++) {
    const pa = a.bands[k];
    const pb = b.bands[k];
    const w = pa.length;
    const bw = Math.floor(w / blocks);
    for (let j = 0; j < blocks; j++) {
      const x0 = j * bw;
      let ma = 0;
      for (let x = x0; x < x0 + bw; x++) ma += pa[x];
      ma /= bw;
      let ea = 0;
      for (let x = x0; x < x0 + bw; x++) ea += (pa[x] - ma) ** 2;
      if (ea / bw < 4) continue; // flat: nothing to align
      const sc: number[] = [];
      let best = -1;
      for (let s = c - range; s <= c + range; s++) {
        let mb = 0;
        for (let x = x0; x < x0 + bw; x++) mb += pb[(((x + s) % w) + w) % w];
        mb /= bw;
        let acc = 0;
        let eb = 0;
        for (let x = x0; x < x0 + bw; x++) {
          const v = pb[(((x + s) % w) + w) % w] - mb;
          acc += (pa[x] - ma) * v;
          eb += v * v;
        }
        const ncc = acc / Math.sqrt(ea * eb || 1);
        sc.push(ncc);
        if (best < 0 || ncc > sc[best]) best = sc.length - 1;
      }
      if (sc[best] < 0.7 || best === 0 || best === sc.length - 1) continue;
      const shift = c - range + best + parabolic(sc[best - 1], sc[best], sc[best + 1]);
      const azimuth = (((x0 + bw / 2) / w) - 0.5) * 2 * Math.PI;
      out.push({ azimuth, shift });
    }
  }
  return out;
}

/** Motion between two frames: shift = rotation + A·sin(azimuth) + B·cos(azimuth) (pixels). */
export interface MotionFit {
  /** Rotation: content shift common to every direction (pixels). */
  rotation: number;
  /** Translation parallax amplitude (pixels): the shift of content seen at right angles to the motion. */
  parallax: number;
  /** The translation flow's sine and cosine terms (pixels). */
  a: number;
  b: number;
  /** Blocks that agreed with the fit. */
  inliers: number;
}

/** Least-squares fit of the motion model, with two rounds of outlier rejection (pure). */
export function fitMotion(shifts: BlockShift[]): MotionFit | null {
  let use = shifts;
  let fit: [number, number, number] | null = null;
  for (let round = 0; round < 3; round++) {
    if (use.length < 6) return null;
    const M = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    const v = [0, 0, 0];
    for (const s of use) {
      const r = [1, Math.sin(s.azimuth), Math.cos(s.azimuth)];
      for (let i = 0; i < 3; i++) {
        v[i] += r[i] * s.shift;
        for (let j = 0; j < 3; j++) M[i * 3 + j] += r[i] * r[j];
      }
    }
    fit = solve3(M, v);
    if (!fit) return null;
    const f = fit;
    const res = shifts.map((s) => Math.abs(s.shift - (f[0] + f[1] * Math.sin(s.azimuth) + f[2] * Math.cos(s.azimuth))));
    const sorted = [...res].sort((x, y) => x - y);
    const limit = Math.max(1, 2.5 * sorted[Math.floor(sorted.length / 2)]);
    use = shifts.filter((_, i) => res[i] <= limit);
  }
  if (!fit || use.length < 6) return null;
  return { rotation: fit[0], parallax: Math.hypot(fit[1], fit[2]), a: fit[1], b: fit[2], inliers: use.length };
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
 * end. Rotation is followed frame to frame (small shifts, robust), parallax
 * is measured against the last keyframe once that rotation is taken out.
 * Causal, so it can run while the video is still being decoded.
 */
export class KeyframeChooser {
  readonly keyframes: Keyframe[] = [];
  readonly motion: FrameMotion[] = [];
  private ref: FrameSignature | null = null;
  private prev: FrameSignature | null = null;
  private heading = 0;
  private refHeading = 0;
  private flowA = 0;
  private flowB = 0;
  /** The last frame that could be kept (a candidate: its full picture is at hand); the end of the walk is kept from it. */
  private last: { frame: number; time: number; sig: FrameSignature; heading: number; parallax: number } | null = null;
  private maxContrast = 0;
  private frames = 0;
  /** Headings (degrees) of the keyframes kept at the current spot (since the camera last moved). */
  private spot: number[] = [];
  /** Degrees turned, back and forth, since the last keyframe. */
  private turned = 0;

  constructor(private readonly opts: KeyframeOptions = DEFAULT_KEYFRAME_OPTIONS) {}

  /** The highest contrast seen; a whole video below `minContrast` shows nothing to reconstruct. */
  get contrast(): number {
    return this.maxContrast;
  }

  get framesSeen(): number {
    return this.frames;
  }

  /**
   * Measures one frame; true when it is kept as a keyframe. Every frame is measured (motion is followed frame to
   * frame), but only a `candidate` can be kept: a keyframe due on another frame is kept at the next candidate
   * (where the full picture of only some frames is passed on, process.ts).
   */
  push(frame: number, time: number, grey: GreyFrame, candidate = true): boolean {
    this.frames++;
    const sig = signature(grey);
    this.maxContrast = Math.max(this.maxContrast, sig.contrast);
    const degPerPx = 360 / grey.width;
    if (!this.ref) {
      if (sig.contrast < this.opts.minContrast || !candidate) return false;
      this.ref = this.prev = sig;
      this.keyframes.push({ frame, time, headingDeg: 0, reason: 'first' });
      this.last = { frame, time, sig, heading: 0, parallax: 0 };
      this.spot = [0];
      this.motion.push({ frame, time, turnDeg: 0, parallaxDeg: 0, contrast: sig.contrast });
      return true;
    }
    // Frame to frame: at video rates the picture moves a few pixels at most.
    const step = fitMotion(blockShifts(this.prev!, sig, 0, Math.max(6, Math.round(grey.width / 24))));
    this.prev = sig;
    if (step) {
      this.heading += step.rotation * degPerPx;
      this.turned += Math.abs(step.rotation * degPerPx);
      // The translation flow, turned into the last keyframe's directions, summed: parallax grows with
      // the distance walked while noise only grows with its square root.
      const h = ((this.heading - this.refHeading) * Math.PI) / 180;
      this.flowA += step.a * Math.cos(h) - step.b * Math.sin(h);
      this.flowB += step.a * Math.sin(h) + step.b * Math.cos(h);
    }
    const parallaxDeg = Math.hypot(this.flowA, this.flowB) * degPerPx;
    const turnDeg = this.heading - this.refHeading;
    this.motion.push({ frame, time, turnDeg, parallaxDeg, contrast: sig.contrast });
    if (!candidate) return false;
    this.last = { frame, time, sig, heading: this.heading, parallax: parallaxDeg };
    const prev = this.keyframes[this.keyframes.length - 1];
    const gap = time - prev.time;
    if (gap < this.opts.minGapSec || sig.contrast < this.opts.minContrast) return false;
    const atSpot = parallaxDeg < this.opts.spotParallaxDeg;
    let reason = '';
    if (Math.abs(turnDeg) >= this.opts.maxTurnDeg && (!atSpot || this.newDirection(this.heading))) reason = 'turn';
    else if (parallaxDeg >= this.opts.maxParallaxDeg) reason = 'move';
    // The parallax summed while turning carries the noise of the turn taken out frame by frame: a camera looking
    // round on the spot reads as creeping a little. That noise grows with the turning, so does the bar.
    else if (gap >= this.opts.maxGapSec && parallaxDeg >= this.opts.stillParallaxDeg + TURN_NOISE * this.turned) reason = 'gap';
    if (reason) this.keep(reason, atSpot);
    return !!reason;
  }

  /** Whether a heading is at least spotTurnDeg from every keyframe kept at this spot. */
  private newDirection(heading: number): boolean {
    return this.spot.every((h) => {
      const d = Math.abs((((heading - h) % 360) + 540) % 360 - 180);
      return d >= this.opts.spotTurnDeg;
    });
  }

  /** Keeps the last candidate frame (in push, the frame just measured). */
  private keep(reason: string, atSpot = false): void {
    const l = this.last!;
    this.spot = atSpot ? [...this.spot, l.heading] : [l.heading];
    this.turned = 0;
    this.keyframes.push({ frame: l.frame, time: l.time, headingDeg: l.heading, reason });
    this.ref = l.sig;
    this.refHeading = l.heading;
    this.flowA = this.flowB = 0;
    this.last = { ...l, parallax: 0 };
  }

  /** Ends the stream: the last candidate frame is kept when it moved since the last keyframe. */
  finish(): Keyframe[] {
    const l = this.last;
    const prev = this.keyframes[this.keyframes.length - 1];
    const turnedAway = l !== null && Math.abs(l.heading - this.refHeading) >= this.opts.maxTurnDeg / 2 && (l.parallax >= this.opts.spotParallaxDeg || this.newDirection(l.heading));
    if (l && prev && l.frame !== prev.frame && (l.parallax >= this.opts.maxParallaxDeg / 3 || turnedAway)) this.keep('last');
    return this.keyframes;
  }
}

/**
 * Keyframe choice for a flat (not 360°) video: the picture does not wrap
 * around, so the 360 motion model does not apply. The image motion between
 * frames (mean absolute shift of the blocks, which grows with turning and,
 * by the flow fanning out, with walking) is summed in degrees of the assumed
 * field of view; a keyframe is kept when it reaches `maxParallaxDeg`, or
 * after `maxGapSec` of some motion. Same interface as KeyframeChooser.
 */
export class FlatKeyframeChooser {
  readonly keyframes: Keyframe[] = [];
  private prev: FrameSignature | null = null;
  private moved = 0;
  private maxContrast = 0;
  private last: { frame: number; time: number } | null = null;

  constructor(
    private readonly opts: KeyframeOptions,
    /** Horizontal field of view of the picture, degrees. */
    private readonly hFovDeg: number,
    /** Image motion between keyframes, degrees: a flat view sees a narrow part of the scene, so smaller steps than a 360 one. */
    private readonly stepDeg = 10,
  ) {}

  get contrast(): number {
    return this.maxContrast;
  }

  push(frame: number, time: number, grey: GreyFrame, candidate = true): boolean {
    const sig = signature(grey);
    this.maxContrast = Math.max(this.maxContrast, sig.contrast);
    if (candidate) this.last = { frame, time };
    if (!this.prev) {
      if (sig.contrast < this.opts.minContrast || !candidate) return false;
      this.prev = sig;
      this.keyframes.push({ frame, time, headingDeg: 0, reason: 'first' });
      return true;
    }
    const shifts = blockShifts(this.prev, sig, 0, Math.max(6, Math.round(grey.width / 12)));
    this.prev = sig;
    // Blocks near the picture's left and right edges would match across the seam a 360 picture has; left out.
    const inner = shifts.filter((s) => Math.abs(s.azimuth) < Math.PI * 0.85);
    if (inner.length >= 6) this.moved += (inner.reduce((a, s) => a + Math.abs(s.shift), 0) / inner.length) * (this.hFovDeg / grey.width);
    if (!candidate) return false;
    const prevKf = this.keyframes[this.keyframes.length - 1];
    const gap = time - prevKf.time;
    if (gap < this.opts.minGapSec || sig.contrast < this.opts.minContrast) return false;
    let reason = '';
    if (this.moved >= this.stepDeg) reason = 'move';
    else if (gap >= this.opts.maxGapSec && this.moved >= this.opts.stillParallaxDeg) reason = 'gap';
    if (!reason) return false;
    this.keyframes.push({ frame, time, headingDeg: 0, reason });
    this.moved = 0;
    return true;
  }

  finish(): Keyframe[] {
    const l = this.last;
    const prev = this.keyframes[this.keyframes.length - 1];
    if (l && prev && l.frame !== prev.frame && this.moved >= this.stepDeg / 3) this.keyframes.push({ frame: l.frame, time: l.time, headingDeg: 0, reason: 'last' });
    return this.keyframes;
  }
}
