/**
 * Bridges over the breaks of a walk's map (pure).
 *
 * COLMAP's mapper places a view only when at least `abs_pose_min_num_inliers`
 * (30) of its features agree with points already mapped. Where the walk
 * goes through a door into a plain room, every view direction can fall
 * below that at once: each direction's model stops at the door and a new
 * one starts behind it, the models on either side share a keyframe or
 * none, and rig-merge.ts cannot tie them — the walk comes out as two
 * clusters, the second laid on the sheet with control points of its own.
 * Mapping the whole walk with a lower threshold ties them, but lets weak
 * views in everywhere (measured on the hard 3-minute walk: one cluster
 * instead of two, but 0.30 m placement instead of 0.06).
 *
 * So the walk is mapped as before, and only where two clusters meet along
 * the walk is a short stretch around the break mapped again, on its own,
 * with the lower threshold: a bridge. A bridge places keyframes of both
 * sides, so rig-merge joins the clusters through it when it agrees with
 * both; its own places count only where no other model has any.
 */

import { spread, type Submap } from './submaps.js';

export interface BridgeOptions {
  /** Keyframes of the walk taken on each side of a break. */
  half: number;
  /** Bridges at most (the breaks between the largest clusters first). */
  max: number;
}

export const DEFAULT_BRIDGE_OPTIONS: BridgeOptions = { half: 16, max: 8 };

/**
 * The stretches of the walk to map again: `order` is the keyframes in
 * walking order, `clusters` the keyframes of each cluster (keyframes in
 * none are unplaced). Wherever the walk goes on from a keyframe of one
 * cluster to the next placed keyframe of another, the `half` keyframes
 * before the break and the `half` after (the unplaced between them too)
 * are a bridge. Breaks closer than a bridge make one; at most `max`
 * bridges, those whose smaller cluster is largest
 * first (a long stretch cut off matters more than a stray keyframe).
 */
export function planBridges(order: number[], clusters: number[][], opts: BridgeOptions = DEFAULT_BRIDGE_OPTIONS): number[][] {
  if (clusters.length < 2 || opts.max < 1 || opts.half < 1) return [];
  const owner = new Map<number, number>();
  clusters.forEach((ks, c) => ks.forEach((k) => owner.set(k, c)));
  const breaks: { from: number; to: number; weight: number }[] = [];
  let last: { pos: number; cluster: number } | null = null;
  order.forEach((k, pos) => {
    const c = owner.get(k);
    if (c === undefined) return;
    if (last && last.cluster !== c) {
      const from = Math.max(0, last.pos - opts.half + 1);
      const to = Math.min(order.length, pos + opts.half);
      const weight = Math.min(clusters[last.cluster].length, clusters[c].length);
      const previous = breaks[breaks.length - 1];
      // The walk going back and forth over a break, or breaks closer than a bridge: one bridge over all of it.
      if (previous && from <= previous.to) {
        previous.to = Math.max(previous.to, to);
        previous.weight = Math.max(previous.weight, weight);
      } else breaks.push({ from, to, weight });
    }
    last = { pos, cluster: c };
  });
  return breaks
    .map((b, i) => ({ ...b, i }))
    .sort((a, b) => b.weight - a.weight || a.i - b.i)
    .slice(0, opts.max)
    .sort((a, b) => a.i - b.i)
    .map((b) => order.slice(b.from, b.to));
}

export interface LoopBridgeOptions {
  /** Keyframes taken on each side of each end of the loop. */
  half: number;
  /** Loop bridges at most, spread along the walk. */
  max: number;
}

export const DEFAULT_LOOP_BRIDGE_OPTIONS: LoopBridgeOptions = { half: 3, max: 4 };

/**
 * Bridges over the loops no model ties: a loop pair (loop-closure.ts) says
 * the walk passed the same place twice, but when the pieces holding its two
 * ends share no model, only the chain of bridges and windows between them
 * says where one is against the other, and a short piece tied by a bridge at
 * one end only (a start cut off at a door) can sit a few decimetres off. A
 * loop bridge maps the few keyframes around one end with those around the
 * other (the views looking the same way, the loop's turn taken into
 * account), so that both places are in one model. `placedBy` gives, per
 * mapped model, the keyframes it places; loops whose ends some model places
 * both are tied already, and loops with an end no model places cannot be
 * tied to anything. Each is a submap: the stretch around one end, and the
 * stretch around the other as its anchors.
 */
export function planLoopBridges(order: number[], loops: { a: number; b: number; turnDeg: number }[], placedBy: number[][], opts: LoopBridgeOptions = DEFAULT_LOOP_BRIDGE_OPTIONS): Submap[] {
  if (!loops.length || opts.max < 1) return [];
  const position = new Map(order.map((k, i) => [k, i]));
  const models = new Map<number, Set<number>>();
  placedBy.forEach((ks, m) => ks.forEach((k) => models.set(k, (models.get(k) ?? new Set()).add(m))));
  const untied = loops
    .filter(({ a, b }) => {
      const ma = models.get(a);
      const mb = models.get(b);
      if (!ma || !mb || position.get(a) === undefined || position.get(b) === undefined) return false;
      for (const m of ma) if (mb.has(m)) return false;
      return true;
    })
    .sort((x, y) => position.get(x.a)! - position.get(y.a)!);
  const chosen = spread(untied, opts.max);
  const around = (k: number) => {
    const p = position.get(k)!;
    return order.slice(Math.max(0, p - opts.half), p + opts.half + 1);
  };
  return chosen.map(({ a, b, turnDeg }) => {
    const keyframes = around(a);
    const own = new Set(keyframes);
    // Content at yaw Y in the other end is near yaw Y − turnDeg in this one (LoopPair's turn is from a to b).
    return { keyframes, anchors: around(b).filter((k) => !own.has(k)).map((keyframe) => ({ keyframe, turnDeg: -turnDeg })) };
  });
}
