import { describe, expect, it } from 'vitest';
import { rotY, type ModelImage } from './colmap-model.js';
import { matToQuat, meanOf, meanRotation, mul, norm, rotate, rotationAngleDeg, sub, transpose, type Mat3, type Vec3 } from './linear-algebra.js';
import { DEFAULT_RELAX_OPTIONS } from './walk-relax.js';
import { DEFAULT_MERGE_OPTIONS, DEFAULT_REFINE_OPTIONS, alignSightings, applySimilarity3, mergeRigModels, sightingsOf, type RigModel, type Similarity3, type ViewRef } from './rig-merge.js';

/** Rotation about the world's vertical (z) axis. */
const rotZ = (deg: number): Mat3 => {
  const t = (deg * Math.PI) / 180;
  return [Math.cos(t), -Math.sin(t), 0, Math.sin(t), Math.cos(t), 0, 0, 0, 1];
};
/** World (x east, y north, z up) → camera (x right, y down, z forward) looking north. */
const LOOK_NORTH: Mat3 = [1, 0, 0, 0, 0, -1, 0, 1, 0];
const YAWS = [0, 120, 240];

/** A walk of `n` keyframes along a curve, turning as it goes: true centres and world → rig rotations. */
const walk = (n: number) =>
  Array.from({ length: n }, (_, k) => ({
    centre: [k * 0.5, Math.sin(k / 3) * 2, 1.6 + 0.02 * Math.cos(k)] as Vec3,
    rotation: mul(LOOK_NORTH, rotZ(7 * k)),
  }));

const refs = (n: number) => {
  const out = new Map<string, ViewRef>();
  for (let k = 0; k < n; k++) YAWS.forEach((yawDeg, v) => out.set(`v${v}/${k}.jpg`, { keyframe: k, yawDeg }));
  return out;
};

/** COLMAP's model of view direction `v` of keyframes `keys`, in a frame `frame` of the world (X_model = s R X + t). */
function model(v: number, keys: number[], frame: Similarity3, truth = walk(40), points: Vec3[] = [[1, 2, 3]]): RigModel {
  const images: ModelImage[] = keys.map((k) => {
    const view = mul(rotY(-YAWS[v]), truth[k].rotation); // view v looks YAWS[v]° right of view 0
    const r = mul(view, transpose(frame.rotation));
    const c = applySimilarity3(frame, truth[k].centre);
    const t = [0, 1, 2].map((i) => -(r[i * 3] * c[0] + r[i * 3 + 1] * c[1] + r[i * 3 + 2] * c[2])) as Vec3;
    return { id: k + 1, name: `v${v}/${k}.jpg`, q: matToQuat(r), t, cameraId: v + 1 };
  });
  return { images, points: points.map((p) => ({ xyz: applySimilarity3(frame, p), rgb: [10, 20, 30], error: 0.5, trackLength: 3 })) };
}

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);
const IDENTITY: Similarity3 = { scale: 1, rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 0] };
const FRAME_B: Similarity3 = { scale: 3.7, rotation: mul(rotY(40), rotZ(-65)), translation: [4, -2, 9] };
const FRAME_C: Similarity3 = { scale: 0.4, rotation: mul(rotZ(170), rotY(-20)), translation: [-1, 0.5, 2] };

const close = (a: number[], b: number[], digits = 6) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i], digits));

/** Keyframes a lap of the circle walks below. */
const LAP = 40;
/** `laps` laps of a 5 m circle, LAP keyframes a lap: true centres and world → rig rotations. */
const circleWalk = (laps: number) =>
  Array.from({ length: laps * LAP }, (_, k) => {
    const a = (2 * Math.PI * k) / LAP;
    return { centre: [5 * Math.cos(a), 5 * Math.sin(a), 1.6] as Vec3, rotation: mul(LOOK_NORTH, rotZ((360 * k) / LAP)) };
  });
/** A walk of `n` keyframes mapped in windows of 24 that share 6 (as submaps.ts cuts a long walk). */
const windowsOf = (n: number) => {
  const windows: number[][] = [];
  for (let start = 0; start < n - 6; start += 18) windows.push(range(start, Math.min(n, start + 24)));
  return windows;
};

/**
 * A cluster of the circle walks seen from above in the world (its first model's frame undone), fitted onto the truth by
 * the best rotation about the centroid (as a user places it on the sheet), and with `scale` the best scale too (as two
 * control points do): each keyframe's mean distance from its true place, and a point's place once fitted so.
 */
function fittedOnTruth(c: ReturnType<typeof mergeRigModels>[number], truth: { centre: Vec3 }[], scale: boolean) {
  const frame = c.models[0] % 2 ? FRAME_B : FRAME_C;
  const toWorld = (q: Vec3) => rotate(transpose(frame.rotation), sub(q, frame.translation)).map((x) => x / frame.scale) as Vec3;
  const world = c.poses.map((p) => toWorld(p.centre));
  const real = c.poses.map((p) => truth[p.keyframe].centre);
  const mw = meanOf(world);
  const mt = meanOf(real);
  let sxx = 0;
  let sxy = 0;
  let ww = 0;
  world.forEach((q, i) => {
    const a = sub(q, mw);
    const b = sub(real[i], mt);
    sxx += a[0] * b[0] + a[1] * b[1];
    sxy += a[0] * b[1] - a[1] * b[0];
    ww += a[0] * a[0] + a[1] * a[1];
  });
  const t = Math.atan2(sxy, sxx);
  const s = scale ? Math.hypot(sxx, sxy) / ww : 1;
  const place = (q: Vec3): [number, number] => {
    const a = sub(toWorld(q), mw);
    return [s * (Math.cos(t) * a[0] - Math.sin(t) * a[1]) + mt[0], s * (Math.sin(t) * a[0] + Math.cos(t) * a[1]) + mt[1]];
  };
  const gaps = c.poses.map((p, i) => {
    const q = place(p.centre);
    return Math.hypot(q[0] - real[i][0], q[1] - real[i][1]);
  });
  return { error: gaps.reduce((x, y) => x + y, 0) / gaps.length, place };
}

describe('joining the view directions of a walk (rig merge)', () => {
  it('brings three directions, each its own model in its own frame, into the first one’s frame exactly', () => {
    const truth = walk(40);
    const models = [model(0, range(0, 40), IDENTITY), model(1, range(0, 40), FRAME_B), model(2, range(0, 40), FRAME_C, truth, [[5, 5, 5]])];
    const clusters = mergeRigModels(models, refs(40));
    expect(clusters).toHaveLength(1);
    const [c] = clusters;
    expect(c.models).toEqual([0, 1, 2]);
    expect(c.poses.map((p) => p.keyframe)).toEqual(range(0, 40));
    for (const p of c.poses) {
      close(p.centre, truth[p.keyframe].centre);
      close(p.rotation, truth[p.keyframe].rotation);
      expect(p.views).toBe(3);
      expect(p.placers).toBe(3);
      expect(p.spread).toBeLessThan(1e-6);
    }
    // Every model's points, in the cluster's frame.
    expect(c.xyz.length).toBe(9);
    close([...c.xyz.slice(6)], [5, 5, 5], 4);
  });

  it('keeps a walk whole when one direction broke in two, through another direction that saw it through', () => {
    const truth = walk(40);
    const models = [model(0, range(0, 18), IDENTITY), model(0, range(22, 40), FRAME_C), model(1, range(0, 40), FRAME_B)];
    const [c, ...rest] = mergeRigModels(models, refs(40));
    expect(rest).toEqual([]);
    expect(c.poses).toHaveLength(40);
    for (const p of c.poses) close(p.centre, applySimilarity3(FRAME_B, truth[p.keyframe].centre), 5);
    expect(c.poses.find((p) => p.keyframe === 20)!.views).toBe(1);
    expect(c.poses.find((p) => p.keyframe === 10)!.views).toBe(2);
    expect(c.poses.find((p) => p.keyframe === 20)).toMatchObject({ placers: 1, spread: 0, models: [2] });
    // Which models place each keyframe: the broken direction's two pieces (models 0 and 1) each with the other direction.
    expect(c.poses.find((p) => p.keyframe === 17)!.models).toEqual([0, 2]);
    expect(c.poses.find((p) => p.keyframe === 22)!.models).toEqual([1, 2]);
  });

  it('tells how far the models that place a keyframe disagree', () => {
    const truth = walk(40);
    // The third direction places keyframe 15 three centimetres off; the others place it where it was.
    const off = truth.map((t, k) => (k === 15 ? { ...t, centre: [t.centre[0] + 0.03, t.centre[1], t.centre[2]] as Vec3 } : t));
    const [c] = mergeRigModels([model(0, range(0, 40), IDENTITY), model(1, range(0, 40), FRAME_B), model(2, range(0, 40), FRAME_C, off)], refs(40));
    const at = (k: number) => c.poses.find((p) => p.keyframe === k)!;
    // Places 0, 0 and 0.03 scatter round their mean by √((2 · 0.01² + 0.02²) / 3) ≈ 0.014.
    expect(at(15).placers).toBe(3);
    expect(at(15).spread).toBeCloseTo(0.0141, 3);
    expect(at(5).spread).toBeLessThan(0.002);
  });

  it('leaves apart models that share too few keyframes; a keyframe both place stays with the larger', () => {
    const models = [model(0, range(0, 25), IDENTITY), model(1, range(22, 40), FRAME_B)];
    const clusters = mergeRigModels(models, refs(40));
    expect(clusters.map((c) => c.poses.length)).toEqual([25, 15]);
    expect(clusters[1].poses[0].keyframe).toBe(25);
    expect(clusters.map((c) => c.models)).toEqual([[0], [1]]);
  });

  it('does not join a model whose keyframes are turned against the other’s (a wrong reconstruction)', () => {
    const twisted = walk(40).map((p, k) => ({ ...p, rotation: mul(p.rotation, rotZ(k * 9)) }));
    const models = [model(0, range(0, 40), IDENTITY), model(1, range(0, 40), FRAME_B, twisted)];
    const clusters = mergeRigModels(models, refs(40));
    expect(clusters.map((c) => c.poses.length)).toEqual([40, 0]);
  });

  it('leaves out of the fit, and of the mean, a keyframe one model placed far off', () => {
    const truth = walk(40);
    const off = truth.map((p, k) => (k === 17 ? { ...p, centre: [p.centre[0] + 3, p.centre[1], p.centre[2]] as Vec3 } : p));
    const [c] = mergeRigModels([model(0, range(0, 40), IDENTITY), model(1, range(0, 40), FRAME_B, off)], refs(40));
    for (const p of c.poses) close(p.centre, truth[p.keyframe].centre, 5);
    expect(c.poses[17].views).toBe(1);
  });

  it('joins two pieces of a walk through a bridge mapped over their break, keeping the pieces’ own places', () => {
    const truth = walk(40);
    // Every direction stopped at a door: keyframes 0–19 in one pair of models, 22–39 in another, 20 and 21 nowhere.
    const pieces = [model(0, range(0, 20), IDENTITY), model(1, range(0, 20), IDENTITY), model(0, range(22, 40), FRAME_B), model(1, range(22, 40), FRAME_B)];
    expect(mergeRigModels(pieces, refs(40)).map((c) => c.poses.length)).toEqual([20, 18]);
    // The bridge over the break, mapped with a lower threshold: a few centimetres off here and there, with points of its own.
    const rough = truth.map((p, k) => ({ ...p, centre: [p.centre[0] + (k % 2 ? 0.04 : -0.03), p.centre[1], p.centre[2]] as Vec3 }));
    const bridge: RigModel = { ...model(0, range(8, 32), FRAME_C, rough, [[9, 9, 9]]), bridge: true };
    const [c, ...rest] = mergeRigModels([...pieces, bridge], refs(40));
    expect(rest).toEqual([]);
    expect(c.poses.map((p) => p.keyframe)).toEqual(range(0, 40));
    // Each keyframe within the bridge's few centimetres of where it was; the pieces' own places where they have one
    // (keyframe 10: its two directions, not the bridge's view too), the bridge's only where neither placed the keyframe.
    for (const p of c.poses) close(p.centre, truth[p.keyframe].centre, 1);
    expect(c.poses[10].views).toBe(2);
    expect(c.poses[20].views).toBe(1);
    expect(c.poses[30].views).toBe(2);
    expect(c.xyz.length).toBe(4 * 3);
    // A bridge that ties nothing is no cluster of its own.
    expect(mergeRigModels([model(0, range(0, 20), IDENTITY), { ...model(1, range(25, 40), FRAME_B), bridge: true }], refs(40)).map((x) => x.poses.length)).toEqual([20]);
  });

  it('joins mapped models to each other before a bridge, so that a bridge bent inside itself is not the frame they are fitted to', () => {
    const truth = walk(40);
    // Two directions of a window that overlap by eight keyframes, and a bridge over most of both that stretches as it goes
    // (mapped with a lower threshold, it let weak views in): it shares more keyframes with each than they share.
    const mapped = [model(0, range(0, 24), IDENTITY), model(1, range(16, 40), FRAME_B)];
    const centre = truth[20].centre;
    const bent = truth.map((p, k) => ({ ...p, centre: add(centre, sub(p.centre, centre).map((x) => x * (1 + 0.02 * (k - 20))) as Vec3) }));
    const bridge: RigModel = { ...model(2, range(4, 37), FRAME_C, bent), bridge: true };
    const [c, ...rest] = mergeRigModels([...mapped, bridge], refs(40));
    expect(rest).toEqual([]);
    expect(c.poses.map((p) => p.keyframe)).toEqual(range(0, 40));
    // The mapped models agree with each other exactly; fitted to the bridge, the second would have been centimetres off.
    const fit = alignSightings(new Map(c.poses.map((p) => [p.keyframe, p])), new Map(truth.map((p, k) => [k, { ...p, views: 1 }])))!;
    for (const p of c.poses) expect(norm(sub(applySimilarity3(fit, p.centre), truth[p.keyframe].centre))).toBeLessThan(1e-3);
  });

  it('finds the similarity from keyframes both place, or none without enough of them spread out', () => {
    const a = sightingsOf(model(0, range(0, 40), IDENTITY), refs(40));
    const b = sightingsOf(model(2, range(0, 40), FRAME_B), refs(40));
    const sim = alignSightings(a, b)!;
    expect(sim.scale).toBeCloseTo(FRAME_B.scale, 9);
    expect(rotationAngleDeg(mul(transpose(sim.rotation), FRAME_B.rotation))).toBeLessThan(1e-6);
    close(sim.translation, FRAME_B.translation, 9);
    expect(sim.shared).toHaveLength(40);
    const few = sightingsOf(model(2, range(0, 4), FRAME_B), refs(40));
    expect(alignSightings(a, few)).toBeNull();
  });

  it('closes the loop of a long walk mapped in windows: the windows agree with each other at once, not one after the other', () => {
    // Four laps of a 5 m circle, 40 keyframes a lap, mapped in windows of 24 that share 6; each window places its
    // keyframes a few centimetres off (as a mapper does, differently in each window), and the windows after the first
    // lap also place a few keyframes of the lap before at their places (anchors: loop closure).
    const lap = LAP;
    const truth = circleWalk(4);
    let seed = 7;
    const noise = () => {
      seed = (seed * 16807) % 2147483647;
      return (seed / 2147483647 - 0.5) * 0.3;
    };
    const windows = windowsOf(4 * lap);
    const models = windows.map((keys, w) => {
      const off = truth.map((p) => ({ ...p, centre: [p.centre[0] + noise(), p.centre[1] + noise(), p.centre[2]] as Vec3 }));
      const anchors = keys.filter((k) => k >= lap && k % 4 === 0).map((k) => k - lap).filter((k) => !keys.includes(k));
      return model(0, [...keys, ...anchors], w % 2 ? FRAME_B : FRAME_C, off);
    });
    const r = refs(4 * lap);
    // How far the cluster places each keyframe from its true place, in metres: the cluster's frame is its first
    // model's, brought back to the world by that model's own frame.
    const error = (c: ReturnType<typeof mergeRigModels>[number]) => {
      const frame = c.models[0] % 2 ? FRAME_B : FRAME_C;
      const back = transpose(frame.rotation);
      const gaps = c.poses.map((p) => {
        const d = sub(p.centre, frame.translation);
        const world = [0, 1, 2].map((i) => (back[i * 3] * d[0] + back[i * 3 + 1] * d[1] + back[i * 3 + 2] * d[2]) / frame.scale) as Vec3;
        return norm(sub(world, truth[p.keyframe].centre));
      });
      return gaps.reduce((x, y) => x + y, 0) / gaps.length;
    };
    const [oneByOne] = mergeRigModels(models, r, undefined, { ...DEFAULT_REFINE_OPTIONS, rounds: 0 });
    const [together] = mergeRigModels(models, r);
    expect(together.poses).toHaveLength(4 * lap);
    // Better than joined one after the other, and within the windows' own scatter (up to 0.15 m each way).
    expect(error(together)).toBeLessThan(error(oneByOne));
    expect(error(together)).toBeLessThan(0.15);
  });

  it('bends a long walk whose windows each grow as they go: with a scale curve per window, the loops close nearer the truth', () => {
    // Three laps of a 5 m circle, 40 keyframes a lap, in windows of 24 sharing 6. Each window's scale drifts 1 % a
    // keyframe (its steps grow as it goes, as a mapper's do through plain rooms), so neither a similarity nor shifts of
    // its keyframes make it agree both with the window before it and with the lap before, whose keyframes it also places.
    const lap = LAP;
    const n = 3 * lap;
    const truth = circleWalk(3);
    const truePoint = (k: number): Vec3 => [truth[k].centre[0] * 1.4, truth[k].centre[1] * 1.4, 1.6];
    const windows = windowsOf(n);
    const models = windows.map((keys, w) => {
      const off = truth.map((p) => ({ ...p }));
      const grown = (k: number) => Math.exp(0.01 * (k - keys[0]));
      const scaled = (d: Vec3, k: number): Vec3 => [d[0] * grown(k), d[1] * grown(k), d[2] * grown(k)];
      for (const k of keys.slice(1)) off[k] = { ...off[k], centre: add(off[k - 1].centre, scaled(sub(truth[k].centre, truth[k - 1].centre), k)) };
      // Where the window passes the lap before, it places those keyframes too, at its own scale there.
      const anchors = keys.filter((k) => k >= lap && k % 4 === 0);
      for (const k of anchors) off[k - lap] = { ...off[k - lap], centre: add(off[k].centre, scaled(sub(truth[k - lap].centre, truth[k].centre), k)) };
      const mid = keys[keys.length >> 1];
      return model(0, [...keys, ...anchors.map((k) => k - lap)], w % 2 ? FRAME_B : FRAME_C, off, [add(off[mid].centre, scaled(sub(truePoint(mid), truth[mid].centre), mid))]);
    });
    const r = refs(n);
    const fitted = (c: ReturnType<typeof mergeRigModels>[number]) => fittedOnTruth(c, truth, true);
    const [shifted] = mergeRigModels(models, r, { ...DEFAULT_MERGE_OPTIONS, relax: { ...DEFAULT_RELAX_OPTIONS, scales: null } });
    const [scaled] = mergeRigModels(models, r, { ...DEFAULT_MERGE_OPTIONS, relax: { ...DEFAULT_RELAX_OPTIONS, scales: { spacing: 8, stiffness: 0.05, pull: 1e-6, rounds: 3 } } });
    expect(scaled.poses).toHaveLength(n);
    // Shifts alone leave 0.12 m; the windows' scale curves take up most of it (0.03 m).
    expect(fitted(scaled).error).toBeLessThan(0.3 * fitted(shifted).error);
    // Each window's point (2 m outside the circle, beside its middle keyframe) grows with its window and lands near its
    // true place (within 0.04 m).
    const f = fitted(scaled);
    const pointGaps = scaled.models.map((w, i) => {
      const q = f.place([scaled.xyz[i * 3], scaled.xyz[i * 3 + 1], scaled.xyz[i * 3 + 2]]);
      const p = truePoint(windows[w][windows[w].length >> 1]);
      return Math.hypot(q[0] - p[0], q[1] - p[1]);
    });
    expect(Math.max(...pointGaps)).toBeLessThan(0.1);
  });

  it('bends a long walk whose windows each turn as they go: measured in the windows’ own turned frames, the loops close nearer the truth', () => {
    // Three laps of a 5 m circle, 40 keyframes a lap, in windows of 24 sharing 6. Each window's heading drifts 0.4° a
    // keyframe (its steps and rig rotations turn as it goes, as a mapper's do), so no similarity makes it agree both
    // with the window before it and with the lap before, whose keyframes it also places (loop closure).
    const lap = LAP;
    const n = 3 * lap;
    const truth = circleWalk(3);
    const windows = windowsOf(n);
    const models = windows.map((keys, w) => {
      const off = truth.map((p) => ({ ...p }));
      const turned = (k: number) => rotZ(0.4 * (k - keys[0]));
      for (const k of keys.slice(1)) off[k] = { centre: add(off[k - 1].centre, rotate(turned(k), sub(truth[k].centre, truth[k - 1].centre))), rotation: mul(truth[k].rotation, transpose(turned(k))) };
      // Where the window passes the lap before, it places those keyframes too, in its own turned frame.
      const anchors = keys.filter((k) => k >= lap && k % 4 === 0);
      for (const k of anchors) off[k - lap] = { centre: add(off[k].centre, rotate(turned(k), sub(truth[k - lap].centre, truth[k].centre))), rotation: mul(truth[k - lap].rotation, transpose(turned(k))) };
      const mid = keys[keys.length >> 1];
      const point = add(off[mid].centre, rotate(turned(mid), sub([truth[mid].centre[0] * 1.4, truth[mid].centre[1] * 1.4, 1.6], truth[mid].centre)));
      return model(0, [...keys, ...anchors.map((k) => k - lap)], w % 2 ? FRAME_B : FRAME_C, off, [point]);
    });
    const r = refs(n);
    const fitted = (c: ReturnType<typeof mergeRigModels>[number]) => fittedOnTruth(c, truth, false);
    const [rigid] = mergeRigModels(models, r);
    const [shifted] = mergeRigModels(models, r, { ...DEFAULT_MERGE_OPTIONS, relax: { ...DEFAULT_RELAX_OPTIONS, turns: false } });
    const [bent] = mergeRigModels(models, r, { ...DEFAULT_MERGE_OPTIONS, relax: { ...DEFAULT_RELAX_OPTIONS, turns: true } });
    expect(bent.poses).toHaveLength(n);
    // Shifting places alone takes up half the drift; turning the measurements first, nearly all of it (0.70, 0.32, 0.04 m).
    expect(fitted(shifted).error).toBeLessThan(0.6 * fitted(rigid).error);
    expect(fitted(bent).error).toBeLessThan(0.2 * fitted(shifted).error);
    // Each window's point (2 m outside the circle, beside its middle keyframe) turns with its window and lands near its
    // true place (within 0.09 m; shifted only, up to 1.1 m off).
    const f = fitted(bent);
    const pointGaps = bent.models.map((w, i) => {
      const k = windows[w][windows[w].length >> 1];
      const truePoint: Vec3 = [truth[k].centre[0] * 1.4, truth[k].centre[1] * 1.4, 1.6];
      const q = f.place([bent.xyz[i * 3], bent.xyz[i * 3 + 1], bent.xyz[i * 3 + 2]]);
      return Math.hypot(q[0] - truePoint[0], q[1] - truePoint[1]);
    });
    expect(Math.max(...pointGaps)).toBeLessThan(0.15);
  });

  it('averages rotations close to each other', () => {
    const mean = meanRotation([rotZ(10), rotZ(14), rotZ(12)]);
    expect(rotationAngleDeg(mul(transpose(mean), rotZ(12)))).toBeLessThan(1e-6);
  });
});
