import { describe, expect, it } from 'vitest';
import { DEFAULT_RELAX_OPTIONS, edgeLogScale, flatScaleCurve, modelEdges, nearestPlaces, relaxPlaces, relaxRotations, relaxWithScales, type RelaxEdge, type TurnEdge } from './walk-relax.js';
import { applySimilarity, mul, norm, rotationAngleDeg, rotationExp, sub, transpose, type Mat3, type Vec2, type Vec3 } from './linear-algebra.js';
import { fitSimilarity2D } from './similarity-fit.js';

/** A square loop of 40 keyframes, 1 m apart, coming back to where it started. */
const square = (): Vec3[] =>
  Array.from({ length: 40 }, (_, i): Vec3 => {
    const side = Math.floor(i / 10);
    const t = i % 10;
    return side === 0 ? [t, 0, 0] : side === 1 ? [10, t, 0] : side === 2 ? [10 - t, 10, 0] : [0, 10 - t, 0];
  });

/** The walk as a drifting model sees it: each step turned a little more than the last (heading drift). */
const drifted = (truth: Vec3[], degPerStep: number): Vec3[] => {
  const out: Vec3[] = [truth[0]];
  for (let i = 1; i < truth.length; i++) {
    const a = (degPerStep * i * Math.PI) / 180;
    const d = sub(truth[i], truth[i - 1]);
    const prev = out[i - 1];
    out.push([prev[0] + Math.cos(a) * d[0] - Math.sin(a) * d[1], prev[1] + Math.sin(a) * d[0] + Math.cos(a) * d[1], 0]);
  }
  return out;
};

const meanError = (placed: Map<number, Vec3>, truth: Vec3[]) => truth.reduce((s, t, i) => s + norm(sub(placed.get(i)!, t)), 0) / truth.length;

/** The mean error of the shape alone: after the best 2D similarity onto the truth. */
const shapeError = (placed: Map<number, Vec3>, truth: Vec3[]) => {
  const src = truth.map((_, i): Vec2 => [placed.get(i)![0], placed.get(i)![1]]);
  const dst = truth.map((t): Vec2 => [t[0], t[1]]);
  const fit = fitSimilarity2D(src, dst);
  return src.reduce((s, p, i) => {
    const q = applySimilarity(fit, p);
    return s + Math.hypot(q[0] - dst[i][0], q[1] - dst[i][1]);
  }, 0) / src.length;
};

describe('relaxPlaces', () => {
  it('keeps places that every measurement already agrees with', () => {
    const truth = square();
    const initial = new Map(truth.map((p, i) => [i, p]));
    const edges = modelEdges(initial, 4, 1);
    const relaxed = relaxPlaces(initial, edges);
    expect(meanError(relaxed, truth)).toBeLessThan(1e-6);
  });

  it('closes a loop the drifting walk left open, and the whole walk comes nearer the truth', () => {
    const truth = square();
    const walk = drifted(truth, 1);
    const initial = new Map(walk.map((p, i) => [i, p]));
    // How far the walk's end is from where it should be beside its start.
    const loopMiss = (p: (i: number) => Vec3) => norm(sub(sub(p(39), p(0)), sub(truth[39], truth[0])));
    const before = loopMiss((i) => walk[i]);
    // The drifting model's steps, and the place where the walk came back, seen together by a later window (a loop closure).
    const steps: RelaxEdge[] = walk.slice(1).map((p, i) => ({ a: i, b: i + 1, d: sub(p, walk[i]), w: 1 }));
    const loop: RelaxEdge = { a: 39, b: 0, d: sub(truth[0], truth[39]), w: 1 };
    const relaxed = relaxPlaces(initial, [...steps, loop]);
    expect(before).toBeGreaterThan(2);
    expect(loopMiss((i) => relaxed.get(i)!)).toBeLessThan(0.2 * before);
    expect(shapeError(relaxed, truth)).toBeLessThan(0.6 * shapeError(initial, truth));
  });

  it('leaves a keyframe no measurement touches where it was', () => {
    const initial = new Map<number, Vec3>([
      [0, [0, 0, 0]],
      [1, [1, 0, 0]],
      [7, [5, 5, 5]],
    ]);
    const relaxed = relaxPlaces(initial, [{ a: 0, b: 1, d: [2, 0, 0], w: 1 }]);
    expect(relaxed.get(7)).toEqual([5, 5, 5]);
    expect(norm(sub(relaxed.get(1)!, relaxed.get(0)!))).toBeCloseTo(2, 2);
  });
});

/** World → rig rotation of a camera heading `deg` about the vertical, tilted a little (so all three axes take part). */
const heading = (deg: number): Mat3 => mul(rotationExp([0.1, 0, 0]), rotationExp([0, 0, (-deg * Math.PI) / 180]));

describe('relaxRotations', () => {
  // Forty keyframes turning 9° a step round a loop (a walk round a room, coming back where it started).
  const truth = Array.from({ length: 40 }, (_, i) => heading(9 * i));
  const turnOf = (r: Mat3[], a: number, b: number, w = 1): TurnEdge => ({ a, b, m: mul(r[a], transpose(r[b])), w });
  // Angle between each keyframe's rotation and the truth once both are brought to agree at keyframe 0.
  const errors = (placed: (i: number) => Mat3) => {
    const frame = mul(transpose(placed(0)), truth[0]);
    return truth.map((t, i) => rotationAngleDeg(mul(transpose(mul(placed(i), frame)), t)));
  };

  it('keeps rotations that every measured turn already agrees with', () => {
    const initial = new Map(truth.map((r, i) => [i, r]));
    const edges = truth.slice(1).map((_, i) => turnOf(truth, i, i + 1));
    const relaxed = relaxRotations(initial, edges);
    expect(Math.max(...errors((i) => relaxed.get(i)!))).toBeLessThan(1e-4);
  });

  it('spreads a drifting walk’s heading error over the loop once its end is seen beside its start', () => {
    // The model drifts 0.2° a step about the vertical: by the end of the loop it is 8° off.
    const drifted = truth.map((r, i) => mul(r, transpose(rotationExp([0, 0, (0.2 * i * Math.PI) / 180]))));
    const initial = new Map(drifted.map((r, i) => [i, r]));
    const steps = drifted.slice(1).map((_, i) => turnOf(drifted, i, i + 1));
    const loop = turnOf(truth, 39, 0);
    const relaxed = relaxRotations(initial, [...steps, loop]);
    const before = errors((i) => drifted[i]);
    const after = errors((i) => relaxed.get(i)!);
    expect(Math.max(...before)).toBeGreaterThan(7);
    // Each step keeps a 40th of the drift, so no keyframe is off by more than a quarter of it.
    expect(Math.max(...after)).toBeLessThan(0.5 * Math.max(...before));
    expect(after.reduce((a, b) => a + b, 0)).toBeLessThan(0.5 * before.reduce((a, b) => a + b, 0));
    // And the loop closes: the last keyframe is turned from the first as the truth is.
    expect(rotationAngleDeg(mul(transpose(mul(relaxed.get(39)!, transpose(relaxed.get(0)!))), mul(truth[39], transpose(truth[0]))))).toBeLessThan(1);
  });
});

describe('scale curves', () => {
  it('puts knots every few keyframes over the model’s own stretch; a keyframe off it takes the scale of the stretch beside it', () => {
    // Keyframes 100–140 along x, and keyframes 10 and 30 of an earlier lap seen beside keyframes 110 and 130.
    const places = new Map<number, Vec3>(Array.from({ length: 41 }, (_, i): [number, Vec3] => [100 + i, [i, 0, 0]]));
    places.set(10, [10.2, 0.5, 0]);
    places.set(30, [30.1, 0.5, 0]);
    const curve = flatScaleCurve(places, 8);
    expect(curve.knots).toEqual([100, 108, 116, 124, 132, 140]);
    expect(curve.values).toEqual([0, 0, 0, 0, 0, 0]);
    expect(curve.own(10)).toBe(110);
    expect(curve.own(30)).toBe(130);
    const grown = { ...curve, values: [0, 0.08, 0.16, 0.24, 0.32, 0.4] };
    // Linear between knots, halfway between a measurement's two ends.
    expect(edgeLogScale(grown, { a: 104, b: 104 })).toBeCloseTo(0.04, 10);
    expect(edgeLogScale(grown, { a: 100, b: 140 })).toBeCloseTo(0.2, 10);
    expect(edgeLogScale(grown, { a: 10, b: 110 })).toBeCloseTo(0.1, 10);
  });

  it('finds how one model grows along the walk against another that measures the same stretch', () => {
    // A straight walk of 40 keyframes 0.5 m apart. Model A measures it as it is; model B's steps grow 1 % a keyframe.
    const truth = new Map<number, Vec3>(Array.from({ length: 40 }, (_, k): [number, Vec3] => [k, [0.5 * k, 0, 0]]));
    const grownPlaces = new Map<number, Vec3>();
    let x = 0;
    for (let k = 0; k < 40; k++) {
      if (k) x += 0.5 * Math.exp(0.01 * k);
      grownPlaces.set(k, [x, 0, 0]);
    }
    const edgesOf = (places: Map<number, Vec3>) => modelEdges(places, 4, 0.5);
    const start = new Map([...truth].map(([k, p]): [number, Vec3] => [k, [(p[0] + grownPlaces.get(k)![0]) / 2, 0, 0]]));
    const shiftedOnly = relaxPlaces(start, [...edgesOf(truth), ...edgesOf(grownPlaces)]);
    const solved = relaxWithScales(
      start,
      [
        { edges: edgesOf(truth), curve: flatScaleCurve(truth, 8) },
        { edges: edgesOf(grownPlaces), curve: flatScaleCurve(grownPlaces, 8) },
      ],
      { ...DEFAULT_RELAX_OPTIONS, scales: { spacing: 8, stiffness: 0.05, pull: 1e-6, rounds: 3 } },
    );
    const length = (places: Map<number, Vec3>) => places.get(39)![0] - places.get(0)![0];
    // Shifts alone average the two lengths (19.5 m and 24 m), and stretch every step of A; with scales, model B's scale
    // falls along the walk against model A's, as B grew against A (by 0.39 over the walk in log).
    expect(length(shiftedOnly)).toBeGreaterThan(21);
    const [a, b] = solved.curves;
    const drift = (c: typeof a) => c.values[c.values.length - 1] - c.values[0];
    expect(drift(a) - drift(b)).toBeGreaterThan(0.3);
    expect(drift(a) - drift(b)).toBeLessThan(0.45);
  });
});

describe('modelEdges', () => {
  it('measures each keyframe against the next two along the walk and its nearest in space, trusting short ones more', () => {
    const places = new Map<number, Vec3>([
      [0, [0, 0, 0]],
      [1, [1, 0, 0]],
      [2, [2, 0, 0]],
      [3, [2, 1, 0]],
      // The walk came back next to keyframe 0.
      [9, [0, 0.5, 0]],
    ]);
    const edges = modelEdges(places, 1, 0.5);
    const has = (a: number, b: number) => edges.find((e) => (e.a === a && e.b === b) || (e.a === b && e.b === a));
    expect(has(0, 1)).toBeTruthy();
    expect(has(0, 2)).toBeTruthy();
    expect(has(0, 9)).toBeTruthy();
    expect(has(0, 1)!.w).toBeCloseTo(1, 6);
    expect(has(0, 2)!.w).toBeCloseTo(0.5, 6);
    expect(has(0, 9)!.w).toBeCloseTo(2, 6);
    // No pair twice.
    const keys = edges.map((e) => [Math.min(e.a, e.b), Math.max(e.a, e.b)].join());
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('nearestPlaces', () => {
  it('finds the nearest keyframes in the cells around a point, and far from all of them only when asked', () => {
    const places = new Map<number, Vec3>([
      [1, [0, 0, 0]],
      [2, [0.5, 0, 0]],
      [3, [3, 0, 0]],
    ]);
    const near = nearestPlaces(places, 1);
    expect(near([0.4, 0, 0], 2)).toEqual([2, 1]);
    expect(near([50, 0, 0], 1)).toEqual([]);
    expect(near([50, 0, 0], 1, true)).toEqual([3]);
  });
});
