/**
 * Which perspective views to match (pure). Views are matched only between
 * keyframes close in walking order (the camera went from one to the next),
 * and only when their directions overlap once the turn measured between the
 * two keyframes is taken into account — so a 3-view rig matches 3 view
 * pairs per keyframe pair instead of 9. Views of the same keyframe are not
 * matched: 120° apart they overlap too little for COLMAP to tie the
 * directions together (measured: the ties joined nothing), so each
 * direction is mapped on its own and the rig joins them (rig-merge.ts).
 */

export interface PairFrame {
  index: number;
  /** Heading estimate (content shift, degrees) from the motion analysis. */
  headingDeg: number;
  /** Why the keyframe was kept; 'turn' keyframes (turning on the spot) do not count as a step along the walk. */
  reason?: string;
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
  /**
   * The first and last `ends` keyframes are matched with `endNeighbours` next ones: the ends of a chain are its
   * least held places, and they are the ones a user pins on the plan (start and end), so their errors tilt and
   * stretch the whole walk.
   */
  ends?: number;
  endNeighbours?: number;
}

// `ends` stays off: on the 50 s walk, 4 neighbours for the first and last 3 keyframes made the pinned ends worse
// (mean placement 0.200 m against 0.136 m without, same keyframes).
export const DEFAULT_PAIR_OPTIONS: PairOptions = { neighbours: 2, maxAngleDeg: 60, loopStride: 0, loopSpan: [], ends: 0, endNeighbours: 4 };

/** Smallest absolute difference between two angles, degrees (0–180). */
export const angleDiff = (a: number, b: number): number => {
  const d = (((a - b) % 360) + 540) % 360 - 180;
  return Math.abs(d);
};

/** Two keyframes far apart along the walk that show the same place (loop-closure.ts), and the turn between them. */
export interface LoopLink {
  a: number;
  b: number;
  /** Content at yaw Y in `a` is near yaw Y + turnDeg in `b` (measured on the panoramas, not from the drifting headings). */
  turnDeg: number;
}

/** The list of image-name pairs for COLMAP's matches_importer; `loops` adds the views of each loop pair that look the same way. */
export function choosePairs(frames: PairFrame[], opts: PairOptions = DEFAULT_PAIR_OPTIONS, loops: LoopLink[] = []): [string, string][] {
  const pairs: [string, string][] = [];
  const seen = new Set<string>();
  const link = (a: PairFrame, b: PairFrame, measuredTurn?: number) => {
    // Content seen at yaw Y in `a` is near yaw Y + (hb − ha) in `b`.
    const turn = measuredTurn ?? b.headingDeg - a.headingDeg;
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
    // The next `neighbours` steps along the walk; keyframes turning on the spot in between are linked too but
    // not counted, so the walk before and after a stop stays linked (at most 4 extra links).
    const atEnd = i < (opts.ends ?? 0) || i >= frames.length - 1 - (opts.ends ?? 0);
    const neighbours = atEnd ? Math.max(opts.neighbours, opts.endNeighbours ?? 0) : opts.neighbours;
    for (let d = 1, steps = 0; i + d < frames.length && steps < neighbours && d <= neighbours + 4; d++) {
      link(frames[i], frames[i + d]);
      if (frames[i + d].reason !== 'turn') steps++;
    }
    if (opts.loopStride > 0 && i % opts.loopStride === 0) {
      for (const span of opts.loopSpan) if (span > opts.neighbours && i + span < frames.length) link(frames[i], frames[i + span]);
    }
  }
  const byIndex = new Map(frames.map((f) => [f.index, f]));
  for (const l of loops) {
    const a = byIndex.get(l.a);
    const b = byIndex.get(l.b);
    if (a && b) link(a, b, l.turnDeg);
  }
  return pairs;
}

/** COLMAP's own block of pairs (matches_importer, ImagePairsMatchingOptions.block_size in 3.8). */
const COLMAP_MATCH_BLOCK = 1225;

/** The pair list cut into runs for matches_importer: about eight for a short walk (never under 100 pairs), COLMAP's block for a long one. */
export function matchRuns<T>(pairs: T[]): T[][] {
  const size = Math.min(COLMAP_MATCH_BLOCK, Math.max(100, Math.ceil(pairs.length / 8)));
  const runs: T[][] = [];
  for (let i = 0; i < pairs.length; i += size) runs.push(pairs.slice(i, i + size));
  return runs.length ? runs : [[]];
}
