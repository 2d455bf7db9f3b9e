import { describe, expect, it } from 'vitest';
import { ProjectionFailed } from '@sitewalk/core/tools/errors.js';
import {
  findFloor,
  fitSimilarity2D,
  initialFit,
  projectCluster,
  toTopDown,
  topDownFrame,
  upFromRotations,
  type PathPoseLike,
  type Projection,
} from '../src/video/projection.js';
import { applySimilarity, matToQuat, mul, rotate, symmetricEigen3, transpose, type Mat3, type Vec2, type Vec3 } from '../src/video/linear-algebra.js';
import { rotY } from '../src/video/colmap-model.js';

/** Deterministic pseudo-random numbers for the synthetic scenes. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rotation taking world z-up to an arbitrary orientation (row-major). */
function rotation(ax: number, ay: number, az: number): Mat3 {
  const rx: Mat3 = [1, 0, 0, 0, Math.cos(ax), -Math.sin(ax), 0, Math.sin(ax), Math.cos(ax)];
  const ry: Mat3 = [Math.cos(ay), 0, Math.sin(ay), 0, 1, 0, -Math.sin(ay), 0, Math.cos(ay)];
  const rz: Mat3 = [Math.cos(az), -Math.sin(az), 0, Math.sin(az), Math.cos(az), 0, 0, 0, 1];
  return mul(rz, mul(ry, rx));
}
const apply = rotate;

describe('fitSimilarity2D', () => {
  it('recovers a known scale, rotation and translation exactly', () => {
    const truth = { scale: 37.5, rotation: 1.234, tx: 512.25, ty: -77.5 };
    const random = rng(3);
    const src: Vec2[] = Array.from({ length: 12 }, () => [random() * 10 - 5, random() * 8 - 4]);
    const dst = src.map((p) => applySimilarity(truth, p));
    const fit = fitSimilarity2D(src, dst);
    expect(Math.abs(fit.scale - truth.scale)).toBeLessThan(1e-9);
    expect(Math.abs(fit.rotation - truth.rotation)).toBeLessThan(1e-9);
    expect(Math.abs(fit.tx - truth.tx)).toBeLessThan(1e-9);
    expect(Math.abs(fit.ty - truth.ty)).toBeLessThan(1e-9);
  });

  it('is exact from two points (walk start and end)', () => {
    const truth = { scale: 0.02, rotation: -2.9, tx: 3, ty: 4 };
    const src: Vec2[] = [[100, 200], [-300, 50]];
    const fit = fitSimilarity2D(src, src.map((p) => applySimilarity(truth, p)));
    for (const k of ['scale', 'rotation', 'tx', 'ty'] as const) expect(Math.abs(fit[k] - truth[k])).toBeLessThan(1e-9);
  });

  it('refuses fewer than two points and coincident points with a clear error', () => {
    expect(() => fitSimilarity2D([[1, 1]], [[2, 2]])).toThrow(ProjectionFailed);
    expect(() => fitSimilarity2D([[1, 1], [1, 1]], [[2, 2], [5, 5]])).toThrow(/same place/);
    expect(() => fitSimilarity2D([[1, 1], [3, 1]], [[2, 2], [2, 2]])).toThrow(/same place/);
  });
});

describe('symmetricEigen3', () => {
  it('diagonalises a symmetric matrix', () => {
    const r = rotation(0.3, -0.7, 1.1);
    const d: Mat3 = [5, 0, 0, 0, 1, 0, 0, 0, 3];
    const m = mul(transpose(r), mul(d, r));
    const e = symmetricEigen3(m);
    expect(e.values.map((v) => Number(v.toFixed(9)))).toEqual([1, 3, 5]);
    const v0 = apply(m, e.vectors[0]);
    for (let i = 0; i < 3; i++) expect(Math.abs(v0[i] - e.values[0] * e.vectors[0][i])).toBeLessThan(1e-9);
  });
});

/**
 * A synthetic walk in an arbitrarily oriented and scaled reconstruction
 * frame: floor z = 0, ceiling z = 2.8, walls, cameras at 1.6 m walking an
 * L-shaped path, level cameras (COLMAP axes) turned to their heading.
 */
function syntheticWalk(opts: { outliers: number; seed: number; fourWalls?: boolean }) {
  const random = rng(opts.seed);
  const world: Vec3[] = [];
  for (let i = 0; i < 700; i++) world.push([random() * 8, random() * 6, 0]); // floor
  for (let i = 0; i < 300; i++) world.push([random() * 8, random() * 6, 2.8]); // ceiling
  for (let i = 0; i < 300; i++) world.push([random() * 8, 0, random() * 2.8]); // a wall
  for (let i = 0; i < 100; i++) world.push([random() * 8, random() * 6, 0.75]); // a table top
  if (opts.fourWalls) {
    for (let i = 0; i < 300; i++) world.push([random() * 8, 6, random() * 2.8]);
    for (let i = 0; i < 300; i++) world.push([0, random() * 6, random() * 2.8]);
    for (let i = 0; i < 300; i++) world.push([8, random() * 6, random() * 2.8]);
  }
  const nOut = Math.round((opts.outliers / (1 - opts.outliers)) * world.length);
  for (let i = 0; i < nOut; i++) world.push([random() * 12 - 2, random() * 10 - 2, random() * 6 - 1.5]);
  const walk: { p: Vec3; yaw: number }[] = [];
  for (let i = 0; i <= 10; i++) walk.push({ p: [1 + 0.5 * i, 1.5, 1.6], yaw: 0 });
  for (let i = 1; i <= 8; i++) walk.push({ p: [6, 1.5 + 0.5 * i, 1.6], yaw: Math.PI / 2 });
  // Reconstruction frame: x_r = s·M·x_w + t.
  const M = rotation(0.4, -1.1, 2.2);
  const s = 0.37;
  const t: Vec3 = [3, -2, 7];
  const toRec = (p: Vec3): Vec3 => {
    const q = apply(M, p);
    return [s * q[0] + t[0], s * q[1] + t[1], s * q[2] + t[2]];
  };
  const path: PathPoseLike[] = walk.map((w, i) => {
    // Camera looking along yaw (CCW from +x), level: camera z = (cos, sin, 0), x = right = (sin, −cos, 0), y = down.
    const camToWorld: Mat3 = [Math.sin(w.yaw), 0, Math.cos(w.yaw), -Math.cos(w.yaw), 0, Math.sin(w.yaw), 0, -1, 0];
    const worldToCam = transpose(camToWorld);
    const rec = mul(worldToCam, transpose(M)); // world_rec → camera
    return { keyframe: i, frame: i * 10, time: i / 3, centre: toRec(w.p), rotation: matToQuat(rec) };
  });
  const points = new Float32Array(world.flatMap((p) => toRec(p)));
  return { world, walk, path, points, toRec, M, s };
}

describe('findFloor', () => {
  it('finds the floor, not the ceiling or a table, with 30 % outliers', () => {
    const w = syntheticWalk({ outliers: 0.3, seed: 5 });
    const pts: Vec3[] = [];
    for (let i = 0; i < w.points.length; i += 3) pts.push([w.points[i], w.points[i + 1], w.points[i + 2]]);
    const up = upFromRotations(w.path.map((p) => {
      const [qw, x, y, z] = p.rotation;
      return [1 - 2 * (y * y + z * z), 2 * (x * y - qw * z), 2 * (x * z + qw * y), 2 * (x * y + qw * z), 1 - 2 * (x * x + z * z), 2 * (y * z - qw * x), 2 * (x * z - qw * y), 2 * (y * z + qw * x), 1 - 2 * (x * x + y * y)];
    }));
    const trueUp = apply(w.M, [0, 0, 1]);
    for (let i = 0; i < 3; i++) expect(Math.abs(up[i] - trueUp[i])).toBeLessThan(1e-6);
    const floor = findFloor(pts, w.path.map((p) => p.centre as Vec3), up);
    const angle = Math.acos(Math.min(1, floor.normal[0] * trueUp[0] + floor.normal[1] * trueUp[1] + floor.normal[2] * trueUp[2]));
    expect(angle).toBeLessThan(1e-3); // points are float32, as in a PLY
    expect(floor.cameraHeight / w.s).toBeCloseTo(1.6, 3);
    expect(floor.inliers).toBeGreaterThanOrEqual(600);
  });

  it('refuses a cloud with too few points, and one with no level surface under the cameras', () => {
    expect(() => findFloor([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[0, 0, 1]], [0, 0, 1])).toThrow(ProjectionFailed);
    const wall: Vec3[] = Array.from({ length: 50 }, (_, i) => [i % 7, 0, Math.floor(i / 7)]);
    expect(() => findFloor(wall, [[0, 2, 1]], [0, 0, 1])).toThrow(/No floor/);
  });
});

describe('projectCluster', () => {
  const sheet = { width: 1200, height: 900 };
  /** Plan of the synthetic world: 50 px per metre, origin at (100, 800), y up the plan. */
  const plan = (p: Vec3): Vec2 => [100 + 50 * p[0], 800 - 50 * p[1]];
  /** The sheet's picture of the synthetic room: its walls, 20 cm thick, drawn black outside its 8 m × 6 m. */
  const roomPlan = (): Uint8Array => {
    const grey = new Uint8Array(sheet.width * sheet.height).fill(255);
    const [x0, y1] = plan([-0.2, -0.2, 0]);
    const [x1, y0] = plan([8.2, 6.2, 0]);
    const [ix0, iy1] = plan([0, 0, 0]);
    const [ix1, iy0] = plan([8, 6, 0]);
    for (let y = Math.round(y0); y < Math.round(y1); y++) {
      for (let x = Math.round(x0); x < Math.round(x1); x++) {
        if (x < ix0 || x >= ix1 || y < iy0 || y >= iy1) grey[y * sheet.width + x] = 0;
      }
    }
    return grey;
  };
  /** The farthest keyframe between the walk's two ends from where it truly was (sheet pixels). */
  const worstBetweenEnds = (w: ReturnType<typeof syntheticWalk>, r: Projection) =>
    Math.max(...r.rooms.slice(1, -1).map((q, i) => {
      const [x, y] = plan(w.walk[i + 1].p);
      return Math.hypot(q.x - x, q.y - y);
    }));

  it('places every keyframe on the plan exactly from the start and end of the walk', () => {
    const w = syntheticWalk({ outliers: 0.3, seed: 9 });
    const last = w.path.length - 1;
    const result = projectCluster({
      points: w.points,
      path: w.path,
      sheet,
      controls: [
        { keyframe: 0, sheet: plan(w.walk[0].p) },
        { keyframe: last, sheet: plan(w.walk[last].p) },
      ],
    });
    expect(result.fittedBy).toBe('controls');
    result.rooms.forEach((r, i) => {
      const [x, y] = plan(w.walk[i].p);
      expect(Math.hypot(r.x - x, r.y - y)).toBeLessThan(1e-6);
    });
    // The floor points land inside the room on the plan (8 m × 6 m from (100, 800)).
    for (let i = 0; i < 700; i++) {
      expect(result.points[i * 2]).toBeGreaterThan(100 - 1e-3);
      expect(result.points[i * 2]).toBeLessThan(500 + 1e-3);
      expect(result.points[i * 2 + 1]).toBeLessThan(800 + 1e-3);
      expect(result.points[i * 2 + 1]).toBeGreaterThan(500 - 1e-3);
    }
  });

  it('snaps the walk to the walls the sheet draws when the end camera is placed 15 cm off', () => {
    const w = syntheticWalk({ outliers: 0.1, seed: 12, fourWalls: true });
    const grey = roomPlan();
    const last = w.path.length - 1;
    // The user clicks where the walk truly ended; the reconstruction put that camera 15 cm (7.5 px) away.
    const [ex, ey] = plan(w.walk[last].p);
    const controls = [{ keyframe: 0, sheet: plan(w.walk[0].p) }, { keyframe: last, sheet: [ex + 6, ey - 4.5] as Vec2 }];
    const error = (r: Projection) => worstBetweenEnds(w, r);
    const byControls = projectCluster({ points: w.points, path: w.path, sheet, controls });
    const snapped = projectCluster({ points: w.points, path: w.path, sheet, controls, plan: { width: sheet.width, height: sheet.height, grey, scale: 1 } });
    expect(byControls.fittedBy).toBe('controls');
    expect(error(byControls)).toBeGreaterThan(6);
    expect(snapped.fittedBy).toBe('plan');
    expect(snapped.snap?.onInkAfter).toBeGreaterThan(snapped.snap!.onInkBefore);
    // Every keyframe between the two ends back within 2 px (4 cm) of where it was: the walls, not the
    // misplaced end camera, now decide the walk's turn and scale (the clicks still pull a little). The walls at
    // the room's far sides are seen at an angle from the walk: counted with the whole offset towards their
    // camera instead of its share along their normal, they pulled the room in and left keyframes 5 px off.
    expect(error(snapped)).toBeLessThan(2);
  });

  it('lets the walls lay a walk whose pinned camera sits 0.6 m from where the rest of its shape puts it, and says the point is missed', () => {
    // A long walk's pinned cameras are its least tied places: the two-storey walk's sat 0.43–0.59 m from where their
    // floors' own shapes put them. The walls must still decide, the point missed by what the camera is off.
    const w = syntheticWalk({ outliers: 0.1, seed: 12, fourWalls: true });
    const grey = roomPlan();
    const last = w.path.length - 1;
    const [ex, ey] = plan(w.walk[last].p);
    // 0.6 m (30 px) from where the walk truly ended, along the walk's last leg.
    const controls = [{ keyframe: 0, sheet: plan(w.walk[0].p) }, { keyframe: last, sheet: [ex, ey - 30] as Vec2 }];
    const snapped = projectCluster({ points: w.points, path: w.path, sheet, controls, plan: { width: sheet.width, height: sheet.height, grey, scale: 1 } });
    expect(snapped.fittedBy).toBe('plan');
    expect(worstBetweenEnds(w, snapped)).toBeLessThan(3);
    // The end point is left where the walls have it, and the rooms round it are flagged as that far off.
    expect(snapped.controlResiduals[1]).toBeGreaterThan(25);
    expect(snapped.confidence?.unsure).toContain(last);
  });

  it('without control points proposes a placement inside the sheet, not mirrored', () => {
    const w = syntheticWalk({ outliers: 0, seed: 2 });
    const result = projectCluster({ points: w.points, path: w.path, sheet });
    expect(result.fittedBy).toBe('initial');
    for (const r of result.rooms) {
      expect(r.x).toBeGreaterThan(0);
      expect(r.x).toBeLessThan(sheet.width);
      expect(r.y).toBeGreaterThan(0);
      expect(r.y).toBeLessThan(sheet.height);
    }
    // Same shape as the plan up to a similarity: the best similarity leaves no residual (no mirror image).
    const fit = fitSimilarity2D(result.rooms.map((r) => [r.x, r.y] as Vec2), w.walk.map((k) => plan(k.p)));
    const worst = Math.max(...result.rooms.map((r, i) => {
      const [x, y] = applySimilarity(fit, [r.x, r.y]);
      const [px, py] = plan(w.walk[i].p);
      return Math.hypot(x - px, y - py);
    }));
    expect(worst).toBeLessThan(1e-3); // sheet pixels; float32 points
  });

  it('moves the first guess onto a single control point', () => {
    const w = syntheticWalk({ outliers: 0, seed: 4 });
    const result = projectCluster({ points: w.points, path: w.path, sheet, controls: [{ keyframe: 3, sheet: [600, 450] }] });
    expect(Math.hypot(result.rooms[3].x - 600, result.rooms[3].y - 450)).toBeLessThan(1e-6);
  });

  it('refuses degenerate input with a clear error', () => {
    const w = syntheticWalk({ outliers: 0, seed: 1 });
    expect(() => projectCluster({ points: w.points, path: w.path.slice(0, 1), sheet })).toThrow(/two placed keyframes/);
    expect(() => projectCluster({ points: w.points, path: w.path, sheet: { width: 0, height: 10 } })).toThrow(ProjectionFailed);
    expect(() => projectCluster({ points: new Float32Array(9), path: w.path, sheet })).toThrow(/points/);
    expect(() => projectCluster({ points: w.points, path: w.path, sheet, controls: [{ keyframe: 99, sheet: [1, 1] }, { keyframe: 0, sheet: [5, 5] }] })).toThrow(/not placed/);
    expect(() => projectCluster({ points: w.points, path: w.path, sheet, controls: [{ keyframe: 2, sheet: [1, 1] }, { keyframe: 2, sheet: [5, 5] }] })).toThrow(/same place/);
  });
});

describe('topDownFrame', () => {
  it('is right-handed seen from above: east × north = up', () => {
    const f = topDownFrame([0, 0, 1], [0, 1, 0]);
    expect(toTopDown(f, [1, 0, 0])[0]).toBeCloseTo(1, 12); // east is right
    expect(toTopDown(f, [0, 1, 0])[1]).toBeCloseTo(-1, 12); // north is up the image
  });
});

describe('initialFit', () => {
  it('lays the main axis along the sheet’s long side and fits inside', () => {
    const cloud: Vec2[] = Array.from({ length: 200 }, (_, i) => [0.1 * (i % 10), 2 * Math.floor(i / 10)]);
    const t = initialFit(cloud, { width: 1000, height: 500 });
    const mapped = cloud.map((p) => applySimilarity(t, p));
    const xs = mapped.map((p) => p[0]), ys = mapped.map((p) => p[1]);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(Math.max(...ys) - Math.min(...ys));
    for (const [x, y] of mapped) {
      expect(x).toBeGreaterThan(-1);
      expect(x).toBeLessThan(1001);
      expect(y).toBeGreaterThan(-1);
      expect(y).toBeLessThan(501);
    }
  });
});
