/**
 * How sure a walk's placement on the sheet is, room by room (pure,
 * framework-free): where SiteWalk cannot vouch for a room within a threshold
 * (0.3 m by default), the room is marked unsure and the keyframe where one
 * more control point helps most is suggested — rather than a room proposed
 * half a metre off in silence.
 *
 * The error of a placed room is modelled in metres from two sources:
 *
 * - the control points, each off by `clickM` (the click on the sheet and the
 *   camera's own noise);
 * - the drift of the reconstruction: a random walk of `driftM` per √metre
 *   walked along the graph of the walk (consecutive keyframes joined by their
 *   step, weighted up where the reconstruction is weak — few views placed, a
 *   jump between keyframes — and places passed twice joined by the verified
 *   loop closures; distances in it are the shortest paths).
 *
 * Through the similarity fitted to the controls, a room's error is its own
 * drift less the fit's correction, which the controls' clicks and the drift
 * between the controls both swing (walk-kriging.ts): between two controls the
 * Brownian bridge, beyond them growing with the lever (a storey pinned at two
 * points 30 m apart was 2 m off at its far end).
 *
 * The drift is the walk's own where it can be told: each view direction (and
 * each window of a long walk) is mapped on its own, so where several models
 * place a keyframe their disagreement (rig-merge.ts) shows how much this walk
 * drifts; a walk whose models disagree more than those of the walk `driftM`
 * was measured on drifts more in proportion (never less), and the error left
 * in the models' mean at a keyframe adds to that room's.
 *
 * Snapped to the plan's walls, the walk's turn and scale are the walls'; where
 * the control points alone would have put a room further from the snap than
 * their own uncertainty explains, the two disagree about the walk, and the
 * room is that much less sure. And where the placement misses a control
 * point (snapped to the walls, or with more points than a similarity meets)
 * without moving the rooms to it, the rooms around that point are as unsure
 * as the miss carried to them, beyond a click.
 *
 * Bent onto the walls stretch by stretch, a room whose stretch the walls hold
 * (no shift of it within a ring of 0.2–1.4 m lays its walls as well:
 * wall-bend.ts) is as sure as the ring's inner radius, as long as the model
 * keeps it within the ring: there the walls, not the drift, say where it is.
 * Each window of walk so held is then a control point of its own, as sure as
 * the ring's inner radius, so the drift grows from it too, and the next held
 * window along may come within the ring in turn (`holdControls`).
 *
 * A piece of the walk between two placement jumps (two keyframes taken one
 * after the other and placed further apart than the walk could go between
 * them, or, where no model places both, a step off the walk's pace and
 * heading: the join of two stretches mapped on their own) may be turned as a
 * whole: its error grows with the distance from its middle, as large at its
 * far side as the jump, and a control point inside it pins only one place of
 * it (the drift, which grows with the square root of the walk from a point,
 * vouched for rooms of such a piece a control point could not hold). What the
 * controls inside such a piece miss turns its rooms to them, snapped or not.
 *
 * A loop closure whose two keyframes the reconstruction still placed apart
 * (the loop did not close) adds half that gap to both. With three or more
 * control points, each is left out in turn and predicted from the others (as
 * the placement itself is laid); how far off they truly were against what the
 * model said scales the model (the walk's own calibration, blended with the
 * prior so that a few controls do not swing it).
 */
import { applySimilarity, widestSpan, type Similarity2D, type Vec2 } from './linear-algebra.js';
import { walkKriging, type WalkKriging } from './walk-kriging.js';

export interface ConfidenceOptions {
  /** A room further off than this (one standard error, metres) is unsure. */
  thresholdM: number;
  /** Error of one control point: the click on the sheet and the camera's own noise, metres. */
  clickM: number;
  /** Drift of the reconstruction along the walk, metres per √metre walked. */
  driftM: number;
  /** A verified loop closure counts as this many metres of walk between its two keyframes. */
  loopM: number;
  /** Two keyframes of a loop closure placed further apart than this (metres) did not close the loop. */
  loopGapM: number;
  /**
   * A loop closure whose two keyframes lie this many times further apart than the model lets them drift between them
   * (along the walk, the loops left out, and the turn of the pieces they lie in) is two like places taken for one, and
   * says nothing of the rooms (0: every loop that did not close counts). On the textured minute three closures between
   * two like rooms 16 m apart, 15 m of walk from each other (0.2 m of drift), kept their four rooms unsure through
   * every control point asked for, 0.01–0.03 m off; loops that did not close on the hard walks were 0.5–1 m apart,
   * a few standard errors.
   */
  loopFalseSigmas: number;
  /** A step this many times the walk's median step is a jump (frames lost, a weak join): weighted by it. */
  jumpFactor: number;
  /** Weight of the prior (in control points) when the leave-one-out errors calibrate the model. */
  priorWeight: number;
  /** How much the models' disagreement at a keyframe adds to its error (0: nothing). */
  spreadWeight: number;
  /**
   * The models' typical disagreement (one model's error, metres) on walks that drift `driftM`: a walk whose models
   * disagree more drifts more in proportion (0: the drift is `driftM` whatever the walk).
   */
  spreadRefM: number;
  /**
   * Snapped to the walls: the gap between the snap and the control points' fit alone counts only beyond this many of
   * the control fit's own standard errors, as long as the snap meets every control point within a click and the
   * walk's drift from the nearest other control (0: all of it, always). Within one click only, the textured minute
   * (whose snap misses its exact control points, 6.5 m apart at the ends of a 47 m loop, by 0.08–0.16 m) had 86 rooms
   * of 127 flagged; within two clicks whatever the lever, a point clicked 0.3 m aside a metre from the other was met
   * closely enough by the snap that the far rooms passed for sure (workers/test/video-jobs.test.ts).
   */
  snapSigmas: number;
  /**
   * Control points closer together than this (metres) do not vouch for the walls' turn: a wrong match of the walls,
   * turned some degrees, still meets both within the tolerance above, and the snap's gap from the control points' own
   * fit then counts whole. On the textured minute pinned a metre apart, one point clicked 0.3 m aside, a snap settled
   * on the wrong walls met both points and left 101 rooms of 127 off in silence, 3 with this; at 2 m and over, no
   * wrong snap was seen, and a loop pinned at its start and its end 3 m away keeps the walls' turn
   * (bench/short-lever-replay.ts).
   */
  snapLeverM: number;
  /**
   * Where no model places both of two keyframes one after the other, a step off the walk's pace and heading by more
   * than this (metres) is a placement jump (0: only steps over `jumpFactor` times the typical one, as elsewhere). On the
   * hard two-storey walk, a piece between such joins (steps of 0.27 and 0.43 m, off by 0.48 and 0.98 m) was turned
   * 0.4–0.9 m off, where no step was over 3× the typical one; steps within one model are off by 0.09–0.10 m at the
   * 90th percentile (turns, a changing pace). 0.2 m left no room in silence there in three runs, where 10–33 were
   * without it (bench/RESULTS.md).
   */
  joinJumpM: number;
  /**
   * How much a placement jump turns the piece of the walk it bounds (0: not at all; 1: the piece's far side off by
   * the jump, turned about its middle).
   */
  turnWeight: number;
  /**
   * A room the walls hold (wall-bend.ts: no shift of its stretch from the ring's inner to its outer radius lays its
   * walls better) is taken as sure within the ring's inner radius, when the model puts it within the outer radius by
   * this many of its own standard errors (0: the walls never vouch). Past that, a better place of its walls may lie
   * beyond the ring, and the model's error stands.
   */
  holdSigmas: number;
  /**
   * A window of walk the walls hold, and the model keeps within the ring (`holdSigmas`), is a control point of its own,
   * off by the ring's inner radius: the drift then grows only from it, not from the user's points hundreds of metres of
   * walk away, and the next window along may come within the ring in turn (false: the walls vouch for their own rooms
   * only).
   */
  holdControls: boolean;
}

/**
 * The defaults, from the benchmark walks (bench/RESULTS.md): a 47 m loop
 * pinned at its start and end was off by 0.07–0.21 m on average and 0.14–0.37 m
 * at worst before the snap to the walls — about 0.05 m/√m of drift over the
 * 23 m to either end. On that walk (the textured minute, seed 2) one model
 * of a view direction is off by 0.04 m from the others (root mean square over
 * the keyframes several models place): `spreadRefM`. The two-storey building
 * walk's models disagree by 0.14–0.18 m, and it drifted 3–4× as much.
 */
export const DEFAULT_CONFIDENCE_OPTIONS: ConfidenceOptions = {
  thresholdM: 0.3,
  clickM: 0.08,
  driftM: 0.05,
  loopM: 1,
  loopGapM: 0.5,
  loopFalseSigmas: 10,
  jumpFactor: 3,
  joinJumpM: 0.2,
  priorWeight: 2,
  spreadWeight: 1,
  spreadRefM: 0.04,
  snapSigmas: 2,
  snapLeverM: 2,
  turnWeight: 1,
  holdSigmas: 3,
  holdControls: true,
};

export interface ConfidenceInput {
  /** Top-down positions of the placed keyframes in walking order, reconstruction units. */
  track: Vec2[];
  /** The keyframe number of each track position. */
  keyframes: number[];
  /** Views of each keyframe placed by the reconstruction (absent: all). */
  views?: number[];
  /** How far the models placing each keyframe disagree, reconstruction units (rig-merge.ts; absent: unknown). */
  spread?: number[];
  /** How many models place each keyframe (with `spread`). */
  placers?: number[];
  /** Which models place each keyframe (rig-merge.ts; absent: unknown). */
  placedBy?: number[][];
  /** Top-down → sheet pixels, as fitted. */
  transform: Similarity2D;
  /** Control points: index into `track`, and the sheet pixel the user gave. */
  controls: { index: number; sheet: Vec2 }[];
  /** Reconstruction units per metre (from the camera's height above the floor). */
  unitsPerMetre: number;
  /**
   * When the fit was snapped to the plan's walls (its turn and scale then come from the walls): the similarity fitted to
   * the control points alone, before the snap.
   */
  beforeSnap?: Similarity2D;
  /** Snapped: how far each keyframe was then moved onto the walls its stretch saw (wall-bend.ts), sheet pixels. */
  bendPx?: Vec2[];
  /**
   * Snapped and bent: the keyframes the walls hold, the ring of shifts (metres) they were tried over, and the windows of
   * walk they were tried in, track indices (wall-bend.ts).
   */
  wallsHold?: { held: boolean[]; holdRingM: [number, number]; windows?: { from: number; to: number; held: boolean }[] };
  /** Verified loop closures, keyframe numbers (those not in `keyframes` are ignored). */
  loops?: { a: number; b: number }[];
  options?: Partial<ConfidenceOptions>;
}

export interface PlacementConfidence {
  thresholdM: number;
  /** Standard error of each room's place, metres, in `track` order. */
  errorM: number[];
  /** The largest of them. */
  worstM: number;
  /** Keyframes whose place is less sure than the threshold, in walking order. */
  unsure: number[];
  /** Stretches of consecutive unsure keyframes: first and last keyframe number. */
  stretches: { from: number; to: number }[];
  /** The keyframe where one more control point helps most (null when every room is sure). */
  suggested: number | null;
  /** Sheet pixels per metre of the fit. */
  pxPerMetre: number;
  /** With three or more controls: how far off each was when predicted from the others, metres. */
  leaveOneOutM: number[] | null;
  /** The factor the leave-one-out errors put on the model (1 without them). */
  calibration: number;
  /** The drift the model took for this walk, metres per √metre (`driftM`, or more where the models disagree more). */
  driftM: number;
  /**
   * With three or more control points: how far each room moves past the fitted similarity (and its bend onto the
   * walls), sheet pixels, in `track` order — the controls' misses carried along the walk (walk-kriging.ts), so a
   * control point given where a room is off mends the rooms around it, as the certainty already counts on. Zeros with
   * two.
   */
  shiftPx: Vec2[];
}

/** A binary min-heap of (distance, node) for Dijkstra. */
class Heap {
  private d: number[] = [];
  private n: number[] = [];
  get size() { return this.d.length; }
  push(dist: number, node: number) {
    this.d.push(dist); this.n.push(node);
    let i = this.d.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.d[p] <= this.d[i]) break;
      this.swap(i, p); i = p;
    }
  }
  pop(): [number, number] {
    const top: [number, number] = [this.d[0], this.n[0]];
    const ld = this.d.pop()!, ln = this.n.pop()!;
    if (this.d.length) {
      this.d[0] = ld; this.n[0] = ln;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < this.d.length && this.d[l] < this.d[m]) m = l;
        if (r < this.d.length && this.d[r] < this.d[m]) m = r;
        if (m === i) break;
        this.swap(i, m); i = m;
      }
    }
    return top;
  }
  private swap(a: number, b: number) {
    [this.d[a], this.d[b]] = [this.d[b], this.d[a]];
    [this.n[a], this.n[b]] = [this.n[b], this.n[a]];
  }
}

type Graph = { to: number; w: number }[][];

function shortestFrom(graph: Graph, source: number): Float64Array {
  const dist = new Float64Array(graph.length).fill(Infinity);
  dist[source] = 0;
  const heap = new Heap();
  heap.push(0, source);
  while (heap.size) {
    const [d, u] = heap.pop();
    if (d > dist[u]) continue;
    for (const e of graph[u]) {
      const nd = d + e.w;
      if (nd < dist[e.to]) { dist[e.to] = nd; heap.push(nd, e.to); }
    }
  }
  return dist;
}

const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};

interface PlacementJumps {
  /** Metres between each placed keyframe and the next. */
  steps: number[];
  /** The walk's median step, metres. */
  typical: number;
  /** How far each step is off what the walk explains, metres, where it is a jump; else 0. */
  excess: number[];
}

/**
 * The placement jumps: two keyframes taken one after the other (some between them maybe not placed: the walk went on
 * between them) and placed more than `jumpFactor` times the typical step per keyframe apart — frames lost, or the join
 * of two stretches the reconstruction mapped on their own. Where no model places both (`placedBy`), the two are such a
 * join for certain, and a smaller jump tells: the step off the walk's pace and heading there (the mean of the steps
 * either side) by more than `joinJumpM`, sideways or along, by that much. One definition for the walk's graph and its
 * turned pieces.
 */
function placementJumps(trackM: Vec2[], keyframes: number[], o: ConfidenceOptions, placedBy?: number[][]): PlacementJumps {
  const n = trackM.length;
  const vec = (i: number): Vec2 => [trackM[i + 1][0] - trackM[i][0], trackM[i + 1][1] - trackM[i][1]];
  const gap = (i: number) => Math.max(1, keyframes[i + 1] - keyframes[i]);
  const steps = trackM.slice(1).map((_, i) => Math.hypot(...vec(i)));
  const typical = median(steps) || 1e-3;
  const known = placedBy?.length === n ? placedBy : undefined;
  const joined = (i: number) => !!known && !known[i].some((m) => known[i + 1].includes(m));
  const excess = steps.map((len, i) => {
    const expected = typical * gap(i);
    if (len > o.jumpFactor * expected) return len - expected;
    if (!(o.joinJumpM > 0) || !joined(i)) return 0;
    // The walk's own step there, per keyframe, from the steps either side (those that exist).
    const either = [i - 1, i + 1].filter((j) => j >= 0 && j < n - 1);
    if (!either.length) return 0;
    const pace = either.reduce<Vec2>((v, j) => [v[0] + vec(j)[0] / gap(j) / either.length, v[1] + vec(j)[1] / gap(j) / either.length], [0, 0]);
    const [dx, dy] = vec(i);
    const off = Math.hypot(dx - pace[0] * gap(i), dy - pace[1] * gap(i));
    return off > o.joinJumpM ? off : 0;
  });
  return { steps, typical, excess };
}

/**
 * The walk as a graph in metres of "drift": consecutive keyframes joined by
 * their step, weighted up where the reconstruction is weak; agreeing loop
 * closures joined by `loopM`. Also the gap of each loop that did not close.
 */
function walkGraph(input: ConfidenceInput, jumps: PlacementJumps, o: ConfidenceOptions, local?: (a: number, b: number) => number): { graph: Graph; loopGap: Float64Array } {
  const { track, unitsPerMetre } = input;
  const n = track.length;
  const { steps, typical, excess } = jumps;
  const maxViews = Math.max(1, ...(input.views ?? [1]));
  const viewWeight = (i: number) => (input.views ? Math.min(4, maxViews / Math.max(1, input.views[i])) : 1);
  const graph: Graph = Array.from({ length: n }, () => []);
  // Metres of drift along the walk from its start, the loops left out.
  const along = new Float64Array(n);
  steps.forEach((len, i) => {
    // A jump between consecutive keyframes is a weak join: it counts as several steps more of drift.
    const jump = excess[i] > 0 ? o.jumpFactor : 1;
    // A step at least a tenth of the typical one: standing still or turning on the spot still drifts a little.
    const w = Math.max(len, 0.1 * typical) * jump * 0.5 * (viewWeight(i) + viewWeight(i + 1));
    graph[i].push({ to: i + 1, w });
    graph[i + 1].push({ to: i, w });
    along[i + 1] = along[i] + w;
  });
  // How far apart the model lets the two keyframes of a loop lie when the loop did not close (metres, one standard
  // error): the drift along the walk between them and the turn of the pieces they lie in.
  const apart = (a: number, b: number) => {
    const turn = local ? 2 * (local(a, a) + local(b, b) - 2 * local(a, b)) : 0;
    return Math.sqrt(o.driftM ** 2 * Math.abs(along[b] - along[a]) + Math.max(0, turn));
  };
  const at = new Map(input.keyframes.map((k, i) => [k, i]));
  const loopGap = new Float64Array(n);
  for (const l of input.loops ?? []) {
    const a = at.get(l.a), b = at.get(l.b);
    if (a === undefined || b === undefined) continue;
    const gap = Math.hypot(track[a][0] - track[b][0], track[a][1] - track[b][1]) / unitsPerMetre;
    if (gap <= o.loopGapM) {
      // A loop is only as tight as its two passes agree: placed g apart, it ties them no better than (g / driftM)²
      // metres of walk would. Counted as one metre whatever its gap, a chain of loops each a few decimetres apart tied
      // the far end of a whole storey to its control points, and rooms a metre off passed for sure (the building bench).
      const w = o.loopM + (gap / o.driftM) ** 2;
      graph[a].push({ to: b, w });
      graph[b].push({ to: a, w });
    } else if (gap <= o.loopFalseSigmas * apart(a, b)) {
      // The two passes saw the same place but were placed apart: one of them (which, unknown) is off.
      loopGap[a] = Math.max(loopGap[a], gap / 2);
      loopGap[b] = Math.max(loopGap[b], gap / 2);
    }
    // Further apart than the walk could have drifted, by `loopFalseSigmas`: two like places taken for one, not a loop.
  }
  return { graph, loopGap };
}

/**
 * The pieces of the walk between placement jumps, each turned (and scaled) as a whole: the covariance (one component,
 * m²) that adds between two keyframes of one piece (walk-kriging.ts), 0 across pieces. Two keyframes taken one after
 * the other and placed further apart than the walk could have gone between them are a weak join of two stretches the
 * reconstruction mapped on their own (one model's keyframes beside another's); what one stretch is off by there, it is
 * off by as a turn about its middle, the error growing with the distance from it. On the hard two-storey walk a piece
 * between jumps of 0.45 and 0.99 m was turned 0.87 m off at one end and 0.39 m near a control point given inside it,
 * where a drift from that point alone vouched for its rooms within 0.3 m. A turn about the middle leaves no room off by
 * more than the larger of the piece's two jumps before a control point; one given inside the piece pins it there, and
 * the rooms across it are then unsure by the turn's lever from that point, until a second one pins the turn.
 * Each component is taken apart, as the kriging takes them (the turn's x and y errors are correlated across rooms).
 */
function pieceTurns(trackM: Vec2[], jumps: PlacementJumps, o: ConfidenceOptions): ((a: number, b: number) => number) | undefined {
  const n = trackM.length;
  if (!(o.turnWeight > 0) || n < 3) return undefined;
  const { typical, excess: jump } = jumps;
  // The pieces: runs of keyframes without a jump between them.
  const piece = new Int32Array(n);
  const spans: [number, number][] = [];
  for (let a = 0; a < n; ) {
    let b = a;
    while (b + 1 < n && jump[b] === 0) b++;
    spans.push([a, b]);
    piece.fill(spans.length - 1, a, b + 1);
    a = b + 1;
  }
  // A jump turns the smaller of the two pieces it joins (both, when they are alike): the merge lays the smaller models
  // onto the larger, whose frame the whole walk takes, so the larger piece is the one the fit to the controls turns.
  const size = (p: number) => spans[p][1] - spans[p][0] + 1;
  const bound = new Float64Array(spans.length);
  for (let p = 0; p + 1 < spans.length; p++) {
    const j = jump[spans[p][1]];
    if (size(p) <= size(p + 1)) bound[p] = Math.max(bound[p], j);
    if (size(p + 1) <= size(p)) bound[p + 1] = Math.max(bound[p + 1], j);
  }
  const centre: Vec2[] = [];
  const variance: number[] = [];
  spans.forEach(([a, b], p) => {
    const c: Vec2 = [0, 0];
    for (let i = a; i <= b; i++) [c[0], c[1]] = [c[0] + trackM[i][0] / size(p), c[1] + trackM[i][1] / size(p)];
    let radius = typical;
    for (let i = a; i <= b; i++) radius = Math.max(radius, Math.hypot(trackM[i][0] - c[0], trackM[i][1] - c[1]));
    // A turn and a scale each of variance ω²/2 put a room d from the middle ω·|d| off, half of it in each component.
    variance.push(((o.turnWeight * bound[p]) / radius) ** 2 / 2);
    centre.push(c);
  });
  if (variance.every((v) => v === 0)) return undefined;
  return (a, b) => {
    const p = piece[a];
    if (p !== piece[b] || variance[p] === 0) return 0;
    const c = centre[p];
    return variance[p] * ((trackM[a][0] - c[0]) * (trackM[b][0] - c[0]) + (trackM[a][1] - c[1]) * (trackM[b][1] - c[1]));
  };
}

/**
 * What the models' disagreement says, metres, per keyframe: each model's own error (`oneModel`, NaN where one model
 * places it) and the error left in their mean (`mean`, 0 there). P models each off by σ on their own, independently,
 * scatter round their mean by σ·√((P − 1)/P), and their mean is off by σ/√P.
 */
function modelsDisagreement(input: ConfidenceInput): { oneModel: number[]; mean: number[] } {
  const n = input.track.length;
  const oneModel = new Array<number>(n).fill(NaN);
  const mean = new Array<number>(n).fill(0);
  if (!input.spread || !input.placers) return { oneModel, mean };
  for (let i = 0; i < n; i++) {
    const p = input.placers[i], s = input.spread[i] / input.unitsPerMetre;
    if (!(p >= 2) || !Number.isFinite(s)) continue;
    oneModel[i] = s * Math.sqrt(p / (p - 1));
    mean[i] = s / Math.sqrt(p - 1);
  }
  return { oneModel, mean };
}

/**
 * The walk's drift: `driftM`, raised in proportion where its models disagree more than those of the walks `driftM` was
 * measured on (never lowered: models that agree may still drift together).
 */
function walkDrift(oneModel: number[], o: ConfidenceOptions): number {
  const known = oneModel.filter(Number.isFinite);
  if (!(o.spreadRefM > 0) || known.length < 10) return o.driftM;
  const rms = Math.sqrt(known.reduce((s, e) => s + e * e, 0) / known.length);
  return o.driftM * Math.max(1, rms / o.spreadRefM);
}

/**
 * Whether the walls vouch for room i: they hold its stretch (no other place within their ring lays its walls better),
 * and the model puts it within the ring's outer radius by `sigmas` standard errors, so no better place of its walls
 * it could be at was left unsearched. The walls' check alone is what tells a room in a row of like rooms from one
 * that only fits where it is; vouching for every room whose walls were seen in two directions, without it, left
 * 37 rooms of the two-storey walk 0.6–0.8 m off in silence (bench/RESULTS.md, 2026-12-02).
 */
function heldByWalls(hold: ConfidenceInput['wallsHold'], i: number, errorM: number, sigmas: number): boolean {
  return !!hold?.held[i] && sigmas > 0 && sigmas * errorM <= hold.holdRingM[1];
}

/**
 * How sure each room's place is. Needs two or more control points (fewer fix
 * no scale: the whole placement is a guess to adjust, not a measurement).
 */
export function placementConfidence(input: ConfidenceInput): PlacementConfidence {
  const given = { ...DEFAULT_CONFIDENCE_OPTIONS, ...input.options };
  const { track, controls, transform } = input;
  if (controls.length < 2) throw new Error('Two or more control points are needed to tell how sure a placement is.');
  if (!(input.unitsPerMetre > 0)) throw new Error('The reconstruction has no scale in metres.');
  const n = track.length;
  const { oneModel, mean: meanErr } = modelsDisagreement(input);
  const o = { ...given, driftM: walkDrift(oneModel, given) };
  const pxPerMetre = transform.scale * input.unitsPerMetre;
  const trackM = track.map(([x, y]): Vec2 => [x / input.unitsPerMetre, y / input.unitsPerMetre]);
  const jumps = placementJumps(trackM, input.keyframes, o, input.placedBy);
  const local = pieceTurns(trackM, jumps, o);
  const { graph, loopGap } = walkGraph(input, jumps, o, local);
  const fromControl = controls.map((c) => shortestFrom(graph, c.index));

  // Snapped to the walls, the walk's turn and scale are the walls'; where the control points alone would have put a room
  // elsewhere, the two disagree about the walk, and the room is at least that unsure.
  const before = input.beforeSnap;
  /** Where the placement puts keyframe i (sheet pixels): the fit, bent onto the walls when it was. */
  const placed = (i: number): Vec2 => {
    const [x, y] = applySimilarity(transform, track[i]);
    const [bx, by] = input.bendPx?.[i] ?? [0, 0];
    return [x + bx, y + by];
  };
  const snapGap = before
    ? track.map((z, i) => {
        const [a, b] = [placed(i), applySimilarity(before, z)];
        return Math.hypot(a[0] - b[0], a[1] - b[1]) / pxPerMetre;
      })
    : [];
  /**
   * The model's standard error at keyframe i given the controls `use` (indices into `controls`) and, as soft control
   * points, the keyframes `soft` known within `softM` each, with their graph distances `softFrom`: walk-kriging.ts.
   */
  const krige = (use: number[], soft: { at: number[]; from: Float64Array[]; errorM: number } = { at: [], from: [], errorM: 0 }) =>
    walkKriging({
      track: trackM,
      controls: [...use.map((j) => controls[j].index), ...soft.at],
      fromControl: [...use.map((j) => fromControl[j]), ...soft.from],
      driftM: o.driftM,
      clickM: o.clickM,
      clickMs: [...use.map(() => o.clickM), ...soft.at.map(() => soft.errorM)],
      trend: before ? 'shift' : 'similarity',
      local,
    });
  const all = controls.map((_, j) => j);
  // One kriging of every control serves the certainty, the rooms' bend and the point asked for.
  const allKriged = krige(all);
  // With two control points the similarity meets both; with more, or snapped to the walls, it misses them: how far
  // each control's room stands from where the user put it (metres).
  const misses = controls.map((c): Vec2 => {
    const [x, y] = placed(c.index);
    return [(c.sheet[0] - x) / pxPerMetre, (c.sheet[1] - y) / pxPerMetre];
  });
  const missedAt = allKriged.predictor(misses);
  // The misses carried along the walk move the rooms (walk-kriging.ts) — not when snapped to the walls: those placed the
  // walk too, and the misses' shared shift moved good rooms off (the hard walk with the third point asked for: 0.07 →
  // 0.14 m); nor when the placement meets every control within two clicks: what is left there is the click and the
  // keyframe's own noise, and carried along the walk it would only shift good rooms (the hard walk: 0.05 → 0.08 m).
  const carried = controls.length >= 3 && Math.max(...misses.map(([x, y]) => Math.hypot(x, y))) > 2 * o.clickM;
  const shifted = carried && !before;
  // Snapped, a piece between placement jumps still takes the misses its own turn explains (that part alone, without
  // the shared shift or the drift): the walls give one turn to the whole walk, not to a piece turned against it.
  const turnedAt = carried && before && local ? allKriged.predictor(misses, 'local') : null;
  // The snap is checked against the control points' own uncertainty: the control-point fit alone is off at a room by
  // about what its kriging (turn, scale and shift from the controls) says, so a gap within `snapSigmas` of that is the
  // controls' error, which the snap mended, and only what is beyond it tells the two disagree about the walk.
  // Only while the snap still meets every control point within what a click and the walk's drift from the nearest other
  // control explain (walls give the turn and scale of the whole walk, so where the walk drifted between two controls
  // the snap cannot meet both): a snap that misses one by more says the walls and the user disagree about the walk
  // (a point clicked 0.3 m aside, a metre from the other). What the turn of a piece between placement jumps carries
  // is not a miss: the rooms of that piece move to it. And only with the control points far enough apart
  // (`snapLeverM`) to tell the walls' turn from a wrong match of them.
  const snapMet = before && widestSpan(controls.map((c) => c.sheet)) / pxPerMetre >= o.snapLeverM
    ? controls.every((c, j) => {
        const between = Math.min(...controls.map((d, k) => (k === j ? Infinity : fromControl[j][d.index])));
        const [tx, ty] = turnedAt ? turnedAt(c.index) : [0, 0];
        return Math.hypot(misses[j][0] - tx, misses[j][1] - ty) <= Math.hypot(o.clickM, o.driftM * Math.sqrt(between));
      })
    : false;
  if (before && o.snapSigmas > 0 && snapMet) {
    const alone = walkKriging({ track: trackM, controls: controls.map((c) => c.index), fromControl, driftM: o.driftM, clickM: o.clickM, trend: 'similarity', local });
    for (let i = 0; i < n; i++) snapGap[i] = Math.sqrt(Math.max(0, snapGap[i] ** 2 - o.snapSigmas ** 2 * alone.variance(i)));
  }
  /** What one more control point near keyframe i can lessen (m²): the drift and the fit's; a loop's gap or the models' disagreement stay. */
  const reducible = (k: ReturnType<typeof krige>, i: number) => k.variance(i) + (snapGap[i] ?? 0) ** 2;
  const model = (use: number[], k = krige(use)) => (i: number) => Math.sqrt(reducible(k, i) + loopGap[i] ** 2 + (o.spreadWeight * meanErr[i]) ** 2);

  /**
   * The user's control points and, as soft ones, the windows the walls hold (`holdControls`): each held window whose
   * middle the model, given the points so far, keeps within the ring (`holdSigmas`) is placed within the ring's inner
   * radius, and the model is kriged again with it; the windows it brings within the ring then join, until none does.
   * Only a window the model already keeps within the ring joins, so a window held a room's pitch off, beyond the ring,
   * never vouches for its neighbours.
   */
  const heldWindowsKriged = (start: WalkKriging, errorWith: (k: WalkKriging) => (i: number) => number): WalkKriging => {
    const hold = input.wallsHold;
    if (!o.holdControls || !(o.holdSigmas > 0) || !hold?.windows) return start;
    const middles = [...new Set(hold.windows.filter((w) => w.held).map((w) => Math.round((w.from + w.to) / 2)))];
    const adopted = { at: [] as number[], from: [] as Float64Array[], errorM: hold.holdRingM[0] };
    let k = start;
    for (;;) {
      const error = errorWith(k);
      const next = middles.filter((i) => !adopted.at.includes(i) && o.holdSigmas * error(i) <= hold.holdRingM[1]);
      if (!next.length) return k;
      adopted.at.push(...next);
      adopted.from.push(...next.map((i) => shortestFrom(graph, i)));
      k = krige(all, adopted);
    }
  };

  // Leave-one-out: each control predicted from the others, against what the model expected there.
  let leaveOneOutM: number[] | null = null;
  let calibration = 1;
  if (controls.length >= 3) {
    leaveOneOutM = [];
    let ratio = 0;
    controls.forEach((c, j) => {
      const others = controls.map((_, k) => k).filter((k) => k !== j);
      // Predicted as the placement itself is laid: the trend (the similarity, or snapped only the shift) from the
      // others' misses, and what is left of them carried along the walk and across a turned piece.
      let predicted: Vec2, expectedM: number;
      try {
        const k = krige(others);
        predicted = k.predictor(others.map((q) => misses[q]))(c.index);
        expectedM = model(others, k)(c.index);
      } catch {
        return; // the others all at one place: nothing to predict from
      }
      if (![...predicted, expectedM].every(Number.isFinite)) return;
      const errM = Math.hypot(misses[j][0] - predicted[0], misses[j][1] - predicted[1]);
      // What the model expects that prediction to miss by: its own error there plus the control's click.
      const expected = Math.hypot(expectedM, o.clickM);
      leaveOneOutM!.push(errM);
      ratio += (errM / expected) ** 2;
    });
    const m = leaveOneOutM.length;
    // Only ever less sure: three or four controls that happen to agree do not vouch for the rooms far from them (on the
    // building bench a third control point that agreed by chance halved the errors expected and left 284 rooms off
    // in silence); controls that disagree more than the model expected make every room less sure.
    calibration = Math.min(5, Math.max(1, Math.sqrt((o.priorWeight + ratio) / (o.priorWeight + m))));
  }

  const shiftPx: Vec2[] = track.map((_, i): Vec2 => {
    const [dx, dy] = shifted ? missedAt(i) : turnedAt ? turnedAt(i) : [0, 0];
    return [dx * pxPerMetre, dy * pxPerMetre];
  });
  // Rooms the misses do not move stand off by about what the placement misses the controls near them by, beyond a
  // click: the walls' turn and scale met the user's points 0.4 m aside at the start of the building's floor, and the
  // rooms there, sure by the drift alone, were that far off in silence.
  const missM = track.map((_, i) => {
    if (shifted) return 0;
    const [dx, dy] = missedAt(i);
    const [tx, ty] = turnedAt ? turnedAt(i) : [0, 0];
    return Math.sqrt(Math.max(0, (dx - tx) ** 2 + (dy - ty) ** 2 - o.clickM ** 2));
  });
  /** Each room's error as the model takes it, given a kriging: calibrated, with what the placement misses near it. */
  const roomError = (k: WalkKriging) => {
    const sigma = model(all, k);
    return (i: number) => calibration * Math.hypot(sigma(i), missM[i]);
  };
  const kriged = heldWindowsKriged(allKriged, roomError);
  const errorAt = roomError(kriged);
  const modelled = Array.from({ length: n }, (_, i) => errorAt(i));
  const errorM = modelled.map((e, i) => (heldByWalls(input.wallsHold, i, e, o.holdSigmas) ? Math.min(e, input.wallsHold!.holdRingM[0]) : e));
  const isUnsure = errorM.map((e) => e > o.thresholdM);
  const unsureIdx = errorM.map((_, i) => i).filter((i) => isUnsure[i]);
  const stretches: { from: number; to: number }[] = [];
  // One more control point is asked for where it lessens the most, never at one already given (a room whose error is
  // a loop that did not close or models that disagree stays unsure whatever is pinned there).
  const pinned = new Set(controls.map((c) => c.index));
  let worstI = -1;
  let worstReducible = -1;
  for (const i of unsureIdx) {
    const last = stretches.at(-1);
    if (last && i > 0 && isUnsure[i - 1]) last.to = input.keyframes[i];
    else stretches.push({ from: input.keyframes[i], to: input.keyframes[i] });
    const r = reducible(kriged, i);
    if (!pinned.has(i) && r > worstReducible) [worstI, worstReducible] = [i, r];
  }
  return {
    thresholdM: o.thresholdM,
    errorM,
    worstM: errorM.reduce((a, b) => Math.max(a, b), 0),
    unsure: unsureIdx.map((i) => input.keyframes[i]),
    stretches,
    suggested: worstI >= 0 ? input.keyframes[worstI] : null,
    pxPerMetre,
    leaveOneOutM,
    calibration,
    driftM: o.driftM,
    shiftPx,
  };
}
