/**
 * How a video step's time divides between its phases, learned from the
 * steps that finished before (pure: the worker reads their stored stage
 * timings and passes them in).
 *
 * A step's percent is split between phases by fixed spans (features 0–30 %,
 * matching 30–50 %, mapping 50–95 % …), but the time does not divide that
 * way, and how it divides depends on the machine (COLMAP's matching against
 * its mapping, the decoder against the JPEG writes). The remaining-time
 * estimate (video-eta.ts) uses each segment's share of the step's time to
 * say how long the phases not begun yet will take: from the running phase's
 * measured rate, and from the time the step has taken so far. Without
 * finished runs to learn from, constants measured on the benchmark walks
 * stand in.
 */

/** A part of a step's percent and the stage timings that measure its time. */
export interface EtaSegment {
  /** The progress measure's phase while the segment runs (null: a part that reports no units). */
  phase: string | null;
  from: number;
  to: number;
  /** Stage names of the step's timings (`<step>.<stage>` in a run's timings) whose seconds this segment takes. */
  stages: string[];
}

export interface StepProfile {
  segments: (EtaSegment & { share: number })[];
  /** Finished runs the shares were learned from (0: the constants). */
  learnedFrom: number;
}

/** The segments of each step that reports phases (video-step's body percent), in order, covering 0–100 %. */
export const STEP_SEGMENTS: Record<'process' | 'generate-ply', EtaSegment[]> = {
  process: [
    { phase: null, from: 0, to: 2, stages: ['probe'] },
    { phase: 'motion', from: 2, to: 95, stages: ['decode'] },
    { phase: null, from: 95, to: 100, stages: ['write'] },
  ],
  'generate-ply': [
    { phase: 'features', from: 0, to: 30, stages: ['features'] },
    // Loop closure runs between features and matching and reports nothing but its start (at 30 %): once it has begun
    // it counts as done, so the features' time is not spread over the loop search as well.
    { phase: null, from: 30, to: 30, stages: ['loops'] },
    { phase: 'matching', from: 30, to: 50, stages: ['matching'] },
    { phase: 'mapping', from: 50, to: 95, stages: ['mapping'] },
    // After the last keyframe is placed, each mapper's final bundle adjustment: no report, no percent of its own, but
    // a quarter of the mapping's time on a 1-minute walk (more as the model grows). Without it the time left ran out
    // seconds before the step did.
    { phase: null, from: 95, to: 95, stages: ['refine'] },
    { phase: null, from: 95, to: 100, stages: ['export'] },
  ],
};

/**
 * Seconds per stage measured on the benchmark walks on 2 cores (the 50 s
 * loop and the 60 s walk, bench/RESULTS.md): only their proportions count.
 */
const DEFAULT_SECONDS: Record<'process' | 'generate-ply', Record<string, number>> = {
  process: { probe: 0.3, decode: 13, write: 0.7 },
  // mapping / refine: the 1-minute walk's 8.2 s / 2.6 s on a quiet host (2026-11-29).
  'generate-ply': { features: 11, loops: 1, matching: 12, mapping: 6, refine: 2, export: 0.3 },
};

/** At most this many finished runs are learned from: the newest say most about the machine as it is. */
export const PROFILE_RUNS = 10;

/** Finished runs read to choose from (the newest): enough to find runs of a walk's length among many of others. */
export const PROFILE_CANDIDATES = 50;

/**
 * Runs of walks within this factor of the walk in hand's length are
 * learned from alone once there are SIMILAR_RUNS of them: they divide their
 * time most alike (how each stage grows with the length is measured on few
 * walks, STAGE_GROWTH). Fewer are not enough: two generated 5-minute walks
 * divided their time differently enough (mapping a third of one, a quarter
 * of the other) that each, judged by the other alone, was told 30–60 % off;
 * judged by the median of all runs brought to its length, one was within
 * 14 % (bench/record-video-progress.ts).
 */
export const SIMILAR_LENGTH = 2;
export const SIMILAR_RUNS = 3;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function sharesOf(segments: EtaSegment[], seconds: (stage: string) => number | undefined): number[] | null {
  const perSegment = segments.map((s) => s.stages.reduce<number | null>((sum, st) => {
    const v = seconds(st);
    return sum === null || v === undefined || !Number.isFinite(v) || v < 0 ? null : sum + v;
  }, 0));
  if (perSegment.some((v) => v === null)) return null;
  const total = (perSegment as number[]).reduce((a, b) => a + b, 0);
  return total > 0 ? (perSegment as number[]).map((v) => v / total) : null;
}

/**
 * How each stage's time grows with the walk's length: seconds ∝ length^exponent.
 * Measured on generated walks of 1 and 5 minutes on a quiet 2-core host
 * (bench/walk-length-bench.ts, 2026-11-29): decoding, features and the JPEG
 * writes grow in proportion; the loop search a little faster; matching and
 * mapping faster (more views to verify against, a larger model to adjust);
 * the final adjustment of the whole model fastest. Since long walks are
 * mapped in windows of about two minutes (workers/src/video/submaps.ts),
 * mapping grows nearly in proportion (5, 35 and 160 s for walks of 1, 5
 * and 20 minutes, 2026-11-29 17:12–18:03) and the final adjustment is the
 * last window's alone (0–2 s). A run of another length is brought to the
 * length in hand before its shares are taken — without this, a 5-minute
 * walk judged by 1-minute runs was told half its time.
 */
export const STAGE_GROWTH: Record<string, number> = {
  'generate-ply.features': 0.9,
  'generate-ply.loops': 1.05,
  'generate-ply.matching': 1.12,
  'generate-ply.mapping': 1.15,
  'generate-ply.refine': 0.5,
};

/** A finished run: its stage timings (`{'generate-ply.features': 11.2, …}`) and the length of its walk when known. */
export interface FinishedRun {
  timings: Record<string, number>;
  walkSeconds?: number;
}

/** The length the constants were measured on. */
const DEFAULT_WALK_SECONDS = 60;

/**
 * The profile of `step` for a walk of `walkSeconds` from finished runs
 * (newest first): those of a similar length when there are enough
 * (SIMILAR_LENGTH, SIMILAR_RUNS), else all, each brought to that length (STAGE_GROWTH). Runs that
 * lack a stage are skipped; each segment's share is the median over the
 * runs kept (one slow run does not swing it), renormalised to a whole.
 */
export function learnProfile(step: keyof typeof STEP_SEGMENTS, runs: readonly FinishedRun[], walkSeconds?: number): StepProfile {
  const segments = STEP_SEGMENTS[step];
  const scaled = (seconds: number | undefined, stage: string, from: number | undefined) => {
    if (seconds === undefined || !walkSeconds || !from) return seconds;
    return seconds * (walkSeconds / from) ** (STAGE_GROWTH[`${step}.${stage}`] ?? 1);
  };
  const similar = walkSeconds
    ? runs.filter((r) => r.walkSeconds && Math.max(r.walkSeconds / walkSeconds, walkSeconds / r.walkSeconds) <= SIMILAR_LENGTH && sharesOf(segments, (stage) => r.timings[`${step}.${stage}`]) !== null)
    : [];
  const learned = (similar.length >= SIMILAR_RUNS ? similar : runs)
    .map((r) => sharesOf(segments, (stage) => scaled(r.timings[`${step}.${stage}`], stage, r.walkSeconds)))
    .filter((s): s is number[] => s !== null)
    .slice(0, PROFILE_RUNS);
  const shares = learned.length
    ? segments.map((_, i) => median(learned.map((s) => s[i])))
    : sharesOf(segments, (stage) => scaled(DEFAULT_SECONDS[step][stage], stage, DEFAULT_WALK_SECONDS))!;
  const sum = shares.reduce((a, b) => a + b, 0);
  return { segments: segments.map((s, i) => ({ ...s, share: shares[i] / sum })), learnedFrom: learned.length };
}

/**
 * The stage only the current worker times, per step: finished runs that lack
 * it were timed by an older version and are not learned from.
 */
export const NEWEST_STAGE: Record<keyof typeof STEP_SEGMENTS, string> = { process: 'decode', 'generate-ply': 'refine' };

/** Whether a step has a profile (the steps that report phases). */
export const hasProfile = (step: string): step is keyof typeof STEP_SEGMENTS => step in STEP_SEGMENTS;
