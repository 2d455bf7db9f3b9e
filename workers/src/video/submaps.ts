/**
 * Bounded submaps of a long walk (pure).
 *
 * COLMAP's incremental mapper spends more on each keyframe the more it has
 * placed: every new view's local adjustment takes in all the views that see
 * its points, and a walk that passes the same rooms again makes those
 * tracks longer with every pass. Measured on the generated seed-2 walks,
 * mapping and the final adjustment took 6 s a minute of walk at 1 minute,
 * 11 at 5 and 70 at 20. So a long walk is cut into overlapping windows of
 * walking order, each mapped on its own, and the windows are joined by the
 * keyframes they share (rig-merge.ts), as the view directions already are.
 *
 * A window that passes a place an earlier window passed also takes the
 * earlier keyframes that loop closure found there (loop-closure.ts): placed
 * by both windows, they tie the windows where the walk came back, so a
 * chain of windows does not drift apart between its far ends.
 */

export interface SubmapOptions {
  /** Keyframes of a window at most (its own and the overlap; anchors come on top). */
  size: number;
  /** Keyframes two windows following each other share. */
  overlap: number;
  /** Earlier keyframes a window takes where the walk came back, at most (spread over the window's loop pairs). */
  maxAnchors: number;
}

// 256 keyframes are about two minutes of walk: the 1-minute walk (about 130 keyframes) stays one window, as it was
// measured at its best; 32 shared keyframes are a few metres of walk, enough for rig-merge's fit to tell scale.
export const DEFAULT_SUBMAP_OPTIONS: SubmapOptions = { size: 256, overlap: 32, maxAnchors: 48 };

/** A keyframe of an earlier window that shows a place of this one. */
export interface Anchor {
  keyframe: number;
  /** Content at yaw Y in the anchor is near yaw Y + turnDeg in its partner of the window (so its views can be picked by direction). */
  turnDeg: number;
}

export interface Submap {
  /** Keyframe numbers of the window, in walking order. */
  keyframes: number[];
  /** Keyframes of earlier windows, in walking order, never in `keyframes`. */
  anchors: Anchor[];
}

/** Picks `n` items spread evenly over `items` (all when there are no more than `n`). */
export function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor(((i + 0.5) * items.length) / n)]);
}

/**
 * The windows of a walk: `order` is the keyframe numbers in walking order,
 * `loops` the pairs of keyframes that show the same place (a, b in either
 * order). A walk no longer than one window is one window, with no anchors.
 */
export function planSubmaps(order: number[], loops: { a: number; b: number; turnDeg: number }[], opts: SubmapOptions = DEFAULT_SUBMAP_OPTIONS): Submap[] {
  const n = order.length;
  if (opts.overlap < 0 || opts.size <= opts.overlap) throw new RangeError('A submap must be larger than its overlap');
  const count = Math.max(1, Math.ceil((n - opts.overlap) / (opts.size - opts.overlap)));
  if (count === 1) return [{ keyframes: [...order], anchors: [] }];
  const position = new Map(order.map((k, i) => [k, i]));
  // Each window's own part is an equal share of the walk; it reaches `overlap` keyframes into the next one.
  const step = (n - opts.overlap) / count;
  const out: Submap[] = [];
  for (let w = 0; w < count; w++) {
    const start = Math.round(w * step);
    const end = w === count - 1 ? n : Math.round((w + 1) * step) + opts.overlap;
    const before = new Map<number, Anchor>();
    for (const { a, b, turnDeg } of loops) {
      const pa = position.get(a);
      const pb = position.get(b);
      if (pa === undefined || pb === undefined) continue;
      // One end in this window, the other before it: the earlier one is an anchor (the turn seen from its side).
      if (pa >= start && pa < end && pb < start && !before.has(b)) before.set(b, { keyframe: b, turnDeg: -turnDeg });
      else if (pb >= start && pb < end && pa < start && !before.has(a)) before.set(a, { keyframe: a, turnDeg });
    }
    const anchors = spread([...before.values()].sort((x, y) => position.get(x.keyframe)! - position.get(y.keyframe)!), opts.maxAnchors);
    out.push({ keyframes: order.slice(start, end), anchors });
  }
  return out;
}
