/**
 * The remaining time of a video step, from what it measured so far (pure:
 * no clock, no I/O; the worker feeds it every progress report).
 *
 * A step is a few phases, each counting its own units (seconds of video
 * scanned for keyframes, views with features, blocks of pairs matched,
 * images placed) over its own part (`span`) of the step's percent. The time
 * left is
 *   - in the running phase: the units left over its rate, measured over the
 *     last samples (a sliding window: the rate follows a phase that speeds
 *     up or slows down, and one late report does not swing it), then
 *     smoothed;
 *   - in the phases still to come: their share of the percent at the pace
 *     the step kept so far (seconds per percent since the step started),
 *     the only measure there is of work not begun.
 * Without units (a phase that reports none) the step's own percent is the
 * unit. Nothing is said before a rate could be measured (null).
 */

import type { StepProfile } from './video-eta-profile.js';

export type EtaUnit = 'video_seconds' | 'views' | 'blocks' | 'images' | 'percent';

export interface EtaMeasure {
  phase: string;
  unit: Exclude<EtaUnit, 'percent'>;
  done: number;
  total: number;
  /** The part of the step's percent this phase covers. */
  span: [number, number];
}

/** One progress report: ms since the step started, the step's percent, and the phase's measure if it has one. */
export interface EtaSample {
  t: number;
  percent: number;
  measure?: EtaMeasure;
}

export interface EtaEstimate {
  phase: string | null;
  unit: EtaUnit;
  done: number;
  total: number;
  /** Units a second in the running phase. */
  per_second: number | null;
  /** Seconds left in the whole step. */
  remaining_seconds: number | null;
}

export const ETA_WINDOW = 12;
/** A rate needs this much time between the window's ends, ms (shorter is noise). */
const MIN_SPAN_MS = 1500;

/** Units a second over the last `window` samples of the phase (null when they span too little time or nothing moved). */
export function windowRate(points: { t: number; v: number }[], window = ETA_WINDOW): number | null {
  if (points.length < 2) return null;
  const w = points.slice(-window);
  const first = w[0];
  const last = w[w.length - 1];
  const dt = last.t - first.t;
  if (dt < MIN_SPAN_MS || last.v <= first.v) return null;
  return ((last.v - first.v) * 1000) / dt;
}

/**
 * Smooths rates the way the window moves: the mean of the window rates at
 * each of the last few samples, so one burst of reports does not swing the
 * estimate.
 */
function smoothedRate(points: { t: number; v: number }[], window = ETA_WINDOW): number | null {
  const rates: number[] = [];
  for (let end = points.length; end >= 2 && rates.length < 4; end--) {
    const r = windowRate(points.slice(0, end), window);
    if (r !== null) rates.push(r);
  }
  return rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null;
}

export interface EstimateOptions {
  /** Samples the running phase's rate is measured over. */
  window?: number;
  /** How the step's time divides between its phases (video-eta-profile.ts): the phases to come are judged by it. */
  profile?: StepProfile;
}

/** The estimate after `samples` (in order; the last is now). */
export function estimateRemaining(samples: readonly EtaSample[], options: EstimateOptions = {}): EtaEstimate {
  const window = options.window ?? ETA_WINDOW;
  const last = samples[samples.length - 1];
  if (!last) return { phase: null, unit: 'percent', done: 0, total: 100, per_second: null, remaining_seconds: null };
  const m = last.measure;
  const rate = m ? smoothedRate(samples.filter((s) => s.measure?.phase === m.phase).map((s) => ({ t: s.t, v: s.measure!.done })), window) : null;
  if (options.profile) {
    const remaining = profiledRemaining(last, rate, options.profile);
    if (m) return { phase: m.phase, unit: m.unit, done: m.done, total: m.total, per_second: rate, remaining_seconds: remaining };
    return { phase: null, unit: 'percent', done: last.percent, total: 100, per_second: null, remaining_seconds: remaining };
  }
  // Seconds per percent so far in the step: the pace of the phases not started yet.
  const pace = last.percent > 0.5 && last.t > MIN_SPAN_MS ? last.t / 1000 / last.percent : null;
  if (m) {
    const after = Math.max(0, 100 - m.span[1]);
    if (rate === null) return { phase: m.phase, unit: m.unit, done: m.done, total: m.total, per_second: null, remaining_seconds: null };
    const inPhase = Math.max(0, m.total - m.done) / rate;
    // The phases after this one, at the step's pace so far — or, before any pace, at this phase's pace per percent.
    const phasePace = (m.span[1] - m.span[0]) > 0 ? m.total / rate / (m.span[1] - m.span[0]) : null;
    const later = after * (pace ?? phasePace ?? 0);
    return { phase: m.phase, unit: m.unit, done: m.done, total: m.total, per_second: rate, remaining_seconds: inPhase + later };
  }
  const percentRate = smoothedRate(samples.map((s) => ({ t: s.t, v: s.percent })), window);
  return {
    phase: null,
    unit: 'percent',
    done: last.percent,
    total: 100,
    per_second: percentRate,
    remaining_seconds: percentRate === null ? null : Math.max(0, 100 - last.percent) / percentRate,
  };
}

/** Where a sample stands in a profile: its segment, and the share of the step's time done and still to come after it. */
export function profilePosition(last: EtaSample, profile: StepProfile): { segment: number; doneShare: number; laterShare: number } {
  const segs = profile.segments;
  const m = last.measure;
  let i = m ? segs.findIndex((s) => s.phase === m.phase) : -1;
  const byUnits = i >= 0;
  if (i < 0) i = Math.max(0, segs.findIndex((s) => last.percent < s.to));
  if (last.percent >= 100) i = segs.length - 1;
  const s = segs[i];
  const within = byUnits && m!.total > 0 ? m!.done / m!.total : s.to > s.from ? (last.percent - s.from) / (s.to - s.from) : 1;
  const q = last.percent >= 100 ? 1 : Math.min(1, Math.max(0, within));
  const before = segs.slice(0, i).reduce((a, x) => a + x.share, 0);
  return { segment: i, doneShare: before + s.share * q, laterShare: segs.slice(i + 1).reduce((a, x) => a + x.share, 0) };
}

/**
 * The time left with a profile, the mean of two readings when both exist:
 *   - by rate: the running phase's units left at its measured rate, and the
 *     segments after it as long as the whole phase takes at that rate times
 *     their share over its share — follows the machine as it is now;
 *   - by pace: the step's time so far over the share of its time done —
 *     steadier, and the only reading in a part without units.
 */
function profiledRemaining(last: EtaSample, rate: number | null, profile: StepProfile): number | null {
  if (last.percent >= 100) return 0;
  const { segment, doneShare, laterShare } = profilePosition(last, profile);
  const m = last.measure;
  const share = profile.segments[segment].share;
  const byRate = m && rate !== null && profile.segments[segment].phase === m.phase && share > 0.005
    ? Math.max(0, m.total - m.done) / rate + ((m.total / rate) * laterShare) / share
    : null;
  const byPace = doneShare >= MIN_DONE_SHARE && last.t > MIN_SPAN_MS ? ((last.t / 1000) * (1 - doneShare)) / doneShare : null;
  if (byRate !== null && byPace !== null) return (byRate + byPace) / 2;
  return byRate ?? byPace;
}

/** The pace reading needs this share of the step's time done (earlier, a second of start-up would count for the whole step). */
const MIN_DONE_SHARE = 0.03;

/**
 * Keeps the samples of one step bounded: the phase running keeps its last
 * `keep`, and of the earlier phases one sample each is enough (the pace
 * uses only the newest). The estimate of a 20-minute walk costs what a
 * short one does.
 */
export function trimSamples(samples: EtaSample[], keep = ETA_WINDOW * 4): EtaSample[] {
  if (samples.length <= keep * 2) return samples;
  return samples.slice(-keep);
}
