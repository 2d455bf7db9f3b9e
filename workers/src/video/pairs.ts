/**
 * Which perspective views to match (pure). Views are matched only between
 * keyframes close in walking order (the camera went from one to the next),
 * and only when their directions overlap once the turn measured between the
 * two keyframes is taken into account — so a 3-view rig matches about 1–2
 * view pairs per keyframe pair instead of 9. Views of the same keyframe are
 * never matched: they share a centre, so they add no parallax.
 */

export interface PairFrame {
  index: number;
  /** Heading estimate (content shift, degrees) from the motion analysis. */
  headingDeg: number;
  views: { view: number; yawDeg: number; name: string }[];
}

export interface PairOptions {
  /** Each keyframe is matched with this many next keyframes. */
  neighbours: number;
  /** Two views are matched when their directions differ by less than this (degrees). */
  maxAngleDeg: number;
  /** Extra long-range links: every `loopStride`-th keyframe is also matched with keyframes `loopSpan` ahead (0: none). */
  loopStride: number;
  loopSpan: number[];
}

export const DEFAULT_PAIR_OPTIONS: PairOptions = { neighbours: 3, maxAngleDeg: 75, loopStride: 0, loopSpan: [] };

/** Smallest absolute difference between two angles, degrees (0–180). */
export const angleDiff = (a: number, b: number): number => {
  const d = (((a - b) % 360) + 540) % 360 - 180;
  return Math.abs(d);
};

/** The list of image-name pairs for COLMAP's matches_importer. */
export function choosePairs(frames: PairFrame[], opts: PairOptions = DEFAULT_PAIR_OPTIONS): [string, string][] {
  const pairs: [string, string][] = [];
  const seen = new Set<string>();
  const link = (a: PairFrame, b: PairFrame) => {
    // Content seen at yaw Y in `a` is near yaw Y + (hb − ha) in `b`.
    const turn = b.headingDeg - a.headingDeg;
    for (const va of a.views) {
      for (const vb of b.views) {
        if (angleDiff(va.yawDeg + turn, vb.yawDeg) >= opts.maxAngleDeg) continue;
        const key = `${va.name}|${vb.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push([va.name, vb.name]);
      }
    }
  };
  for (let i = 0; i < frames.length; i++) {
    for (let d = 1; d <= opts.neighbours && i + d < frames.length; d++) link(frames[i], frames[i + d]);
    if (opts.loopStride > 0 && i % opts.loopStride === 0) {
      for (const span of opts.loopSpan) if (span > opts.neighbours && i + span < frames.length) link(frames[i], frames[i + span]);
    }
  }
  return pairs;
}
