/**
 * Geometry of step "project-points" (pure, framework-free): the floor plane
 * of a reconstruction, the top-down view of its points and camera path, and
 * the fit of that view to a sheet (pixels, y down).
 *
 * Conventions. Reconstruction coordinates are COLMAP's (arbitrary scale and
 * orientation; cameras x right, y down, z forward). Top-down coordinates are
 * image-like: looking down at the floor, x to the right and y down, so a fit
 * to sheet pixels is a proper similarity (no mirror).
 */
import { ProjectionFailed } from '@sitewalk/core/tools/errors.js';
import { angleDeg, applySimilarity, cross, dot, median, norm, quatToMat, sub, symmetricEigen3, unit, type Similarity2D, type Vec2, type Vec3 } from './linear-algebra.js';
import { fitSimilarity2D } from './similarity-fit.js';
import { placementConfidence, type ConfidenceOptions, type PlacementConfidence } from './placement-confidence.js';
import { distanceToInkEdge, lookedFrom, snapToWalls, type SheetRaster, type SnapResult } from './wall-snap.js';
import { bendToWalls, nearestOnTrack, type BendOptions, type WallBend } from './wall-bend.js';


export { fitSimilarity2D } from './similarity-fit.js';

/** Least-squares plane through points: unit normal (smallest spread direction), centroid, and the eigenvalues. */
export function fitPlane(points: Vec3[]): { normal: Vec3; centroid: Vec3; values: Vec3 } {
  const n = points.length;
  const c: Vec3 = [0, 0, 0];
  for (const p of points) for (let i = 0; i < 3; i++) c[i] += p[i] / n;
  const m = new Array(9).fill(0);
  for (const p of points) {
    const d = sub(p, c);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[i * 3 + j] += (d[i] * d[j]) / n;
  }
  const e = symmetricEigen3(m);
  return { normal: unit(e.vectors[0]), centroid: c, values: e.values };
}

/**
 * The up direction of a walk from its cameras' rotations (world → camera,
 * row-major 3×3): the views are cut level from the 360 frames, so every
 * camera's y axis (down) points along gravity.
 */
export function upFromRotations(rotations: number[][]): Vec3 {
  if (!rotations.length) throw new ProjectionFailed('No placed keyframe to tell which way is up.');
  const s: Vec3 = [0, 0, 0];
  for (const r of rotations) for (let i = 0; i < 3; i++) s[i] -= r[3 + i];
  if (norm(s) < 1e-9) throw new ProjectionFailed('The keyframes disagree on which way is up.');
  return unit(s);
}

export interface FloorOptions {
  iterations: number;
  /** Inlier distance; by default 1 % of the cloud's size. */
  threshold?: number;
  /** Largest angle between the floor's normal and the cameras' up (degrees). */
  maxTiltDeg: number;
  /** Seed of the sampling, for repeatable results. */
  seed: number;
}

export const DEFAULT_FLOOR_OPTIONS: FloorOptions = { iterations: 400, maxTiltDeg: 15, seed: 1 };

export interface Floor {
  /** Unit normal pointing up (towards the cameras). */
  normal: Vec3;
  /** Plane: dot(normal, p) = offset. */
  offset: number;
  inliers: number;
  /** Median height of the cameras above the floor (reconstruction units). */
  cameraHeight: number;
}

/** A small deterministic random generator (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The floor: RANSAC over planes of three points whose normal is within
 * `maxTiltDeg` of `up` and that lie below the cameras; the plane with most
 * points within the threshold wins and is refined by least squares on them.
 */
export function findFloor(points: Vec3[], cameras: Vec3[], up: Vec3, options: Partial<FloorOptions> = {}): Floor {
  const o = { ...DEFAULT_FLOOR_OPTIONS, ...options };
  if (cameras.length < 1) throw new ProjectionFailed('No placed keyframe: the floor cannot be found.');
  if (points.length < 10) throw new ProjectionFailed(`Only ${points.length} points were reconstructed; at least 10 are needed to find the floor.`);
  const u = unit(up);
  const camH = median(cameras.map((c) => dot(u, c)));
  let threshold = o.threshold;
  if (!threshold) {
    const heights = points.map((p) => dot(u, p));
    const spread = median(heights.map((h) => Math.abs(h - camH)));
    threshold = Math.max(1e-9, 0.03 * spread);
  }
  const random = rng(o.seed);
  const cosTilt = Math.cos((o.maxTiltDeg * Math.PI) / 180);
  let best: { normal: Vec3; offset: number; count: number } | null = null;
  for (let it = 0; it < o.iterations; it++) {
    const a = points[Math.floor(random() * points.length)];
    const b = points[Math.floor(random() * points.length)];
    const c = points[Math.floor(random() * points.length)];
    let n = cross(sub(b, a), sub(c, a));
    if (norm(n) < 1e-12) continue;
    n = unit(n);
    if (dot(n, u) < 0) n = [-n[0], -n[1], -n[2]];
    if (dot(n, u) < cosTilt) continue;
    const offset = dot(n, a);
    if (median(cameras.map((cam) => dot(n, cam) - offset)) <= 0) continue; // the floor is below the cameras
    let count = 0;
    for (const p of points) if (Math.abs(dot(n, p) - offset) < threshold) count++;
    if (!best || count > best.count) best = { normal: n, offset, count };
  }
  if (!best || best.count < 3) throw new ProjectionFailed('No floor was found under the walk: too few points lie on a level surface below the camera.');
  // Least squares on the inliers, then once more on a band three times narrower (fewer stray points in it).
  let inl = points.filter((p) => Math.abs(dot(best!.normal, p) - best!.offset) < threshold!);
  let plane = fitPlane(inl);
  const narrow = points.filter((p) => Math.abs(dot(plane.normal, p) - dot(plane.normal, plane.centroid)) < threshold! / 3);
  if (narrow.length >= Math.max(3, inl.length / 3)) {
    inl = narrow;
    plane = fitPlane(inl);
  }
  let normal = plane.normal;
  if (dot(normal, u) < 0) normal = [-normal[0], -normal[1], -normal[2]];
  // A refit that leaves the allowed tilt (points of one line, say) keeps the sampled plane.
  if (angleDeg(normal, u) > o.maxTiltDeg || !(plane.values[1] > 0)) normal = best.normal;
  const offset = dot(normal, plane.centroid);
  return { normal, offset, inliers: inl.length, cameraHeight: median(cameras.map((c) => dot(normal, c) - offset)) };
}

/** An orthonormal top-down frame on the floor: e1 to the right, e2 down the image, both ⟂ the up normal. */
export interface TopDown {
  normal: Vec3;
  e1: Vec3;
  e2: Vec3;
}

/**
 * The top-down frame of a floor normal. `forward` (e.g. the first camera's
 * looking direction) picks which way is "up the image"; any direction not
 * parallel to the normal works.
 */
export function topDownFrame(normal: Vec3, forward: Vec3 = [1, 0, 0]): TopDown {
  const n = unit(normal);
  let f = sub(forward, n.map((x) => x * dot(forward, n)) as Vec3);
  if (norm(f) < 1e-9) f = Math.abs(n[0]) < 0.9 ? sub([1, 0, 0], n.map((x) => x * n[0]) as Vec3) : sub([0, 1, 0], n.map((x) => x * n[1]) as Vec3);
  const north = unit(f);
  // Looking down: east = north × up; image y grows southwards.
  const east = unit(cross(north, n));
  return { normal: n, e1: east, e2: [-north[0], -north[1], -north[2]] };
}

export const toTopDown = (f: TopDown, p: Vec3): Vec2 => [dot(f.e1, p), dot(f.e2, p)];

/** Share of the sheet the walk fills in the first fit. */
const FILL = 0.8;

/**
 * A first placement of a top-down cloud on a sheet before anyone picked
 * control points: the cloud's main axis along the sheet's longer side, its
 * robust extent (5–95 %) filling 80 % of the sheet, centred.
 */
export function initialFit(cloud: Vec2[], sheet: { width: number; height: number }): Similarity2D {
  if (cloud.length < 2) throw new ProjectionFailed('Too few points to place the walk on the sheet.');
  const n = cloud.length;
  let mx = 0, my = 0;
  for (const p of cloud) { mx += p[0] / n; my += p[1] / n; }
  let sxx = 0, sxy = 0, syy = 0;
  for (const p of cloud) {
    const x = p[0] - mx, y = p[1] - my;
    sxx += x * x; sxy += x * y; syy += y * y;
  }
  const major = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const target = sheet.width >= sheet.height ? 0 : Math.PI / 2;
  const rotation = target - major;
  const rotated = cloud.map((p) => applySimilarity({ scale: 1, rotation, tx: 0, ty: 0 }, p));
  const q = (xs: number[], f: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.max(0, Math.round(f * (s.length - 1))))];
  };
  const xs = rotated.map((p) => p[0]), ys = rotated.map((p) => p[1]);
  const [x0, x1, y0, y1] = [q(xs, 0.05), q(xs, 0.95), q(ys, 0.05), q(ys, 0.95)];
  const w = x1 - x0, h = y1 - y0;
  if (!(w > 0 || h > 0)) throw new ProjectionFailed('The reconstructed points all lie at one place; the walk cannot be placed.');
  const scale = FILL * Math.min(w > 0 ? sheet.width / w : Infinity, h > 0 ? sheet.height / h : Infinity);
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const c = Math.cos(rotation) * scale, s = Math.sin(rotation) * scale;
  // Centre of the rotated extent goes to the sheet centre.
  const ox = c * 0 + cx * scale, oy = cy * scale;
  void s;
  return { scale, rotation, tx: sheet.width / 2 - ox, ty: sheet.height / 2 - oy };
}

/** A keyframe of the camera path, as `reconstruct` gives it. */
export interface PathPoseLike {
  keyframe: number;
  frame: number;
  time: number;
  centre: Vec3 | number[];
  rotation: number[];
  /** How many of the keyframe's views the reconstruction placed (fewer: a weaker place). */
  views?: number;
  /** How far the models placing it disagree, and how many they are (rig-merge.ts; absent in older reconstructions). */
  spread?: number;
  placers?: number;
  /** Which models place it (rig-merge.ts; absent in older reconstructions). */
  models?: number[];
}

/** A keyframe ↔ sheet pixel correspondence chosen by the user (walk start and end, or any frame). */
export interface ControlPoint {
  keyframe: number;
  /** Sheet pixel (x right, y down). */
  sheet: Vec2;
}

export interface ProjectionInput {
  /** Reconstructed points, xyz triples. */
  points: Float32Array | number[];
  path: PathPoseLike[];
  sheet: { width: number; height: number };
  controls?: ControlPoint[];
  floor?: Partial<FloorOptions>;
  /** The sheet's picture: with two or more control points, the walk is snapped to its walls. */
  plan?: SheetRaster;
  /** Keyframe pairs the reconstruction found to show one place on two passes (loop closures). */
  loops?: { a: number; b: number }[];
  /** Tuning of how sure each room is (placement-confidence.ts). */
  confidence?: Partial<ConfidenceOptions>;
  /** Tuning of the bend onto the walls once snapped (wall-bend.ts); false: not bent. */
  bend?: Partial<BendOptions> | false;
}

export interface RoomPosition {
  keyframe: number;
  frame: number;
  time: number;
  /** Sheet pixel. */
  x: number;
  y: number;
}

export interface Projection {
  floor: Floor;
  topDown: TopDown;
  /** Top-down → sheet pixels. */
  transform: Similarity2D;
  /** 'initial' without control points, 'controls' when fitted to them, 'plan' when then snapped to the plan's walls. */
  fittedBy: 'initial' | 'controls' | 'plan';
  /** What snapping to the plan found, when it was tried. */
  snap?: Omit<SnapResult, 'transform'>;
  /** Sheet pixels of every point (xy pairs). */
  points: Float32Array;
  rooms: RoomPosition[];
  /** Residuals at the control points (sheet pixels). */
  controlResiduals: number[];
  /** With two or more control points: how sure each room's place is, and where one more control point would help. */
  confidence: PlacementConfidence | null;
}

/**
 * Lays one cluster on a sheet: floor by RANSAC against the cameras' up,
 * points and path top-down, then the similarity to the sheet — fitted to
 * the control points when there are two or more, otherwise a first guess
 * (one control point then only moves that guess onto it).
 */
export function projectCluster(input: ProjectionInput): Projection {
  const { path, sheet } = input;
  if (!(sheet.width > 0 && sheet.height > 0)) throw new ProjectionFailed('The sheet has no size.');
  if (path.length < 2) throw new ProjectionFailed('At least two placed keyframes are needed to lay the walk on the sheet.');
  const pts: Vec3[] = [];
  for (let i = 0; i + 2 < input.points.length; i += 3) {
    const p: Vec3 = [input.points[i], input.points[i + 1], input.points[i + 2]];
    if (p.every(Number.isFinite)) pts.push(p);
  }
  const centres = path.map((p) => [p.centre[0], p.centre[1], p.centre[2]] as Vec3);
  const rots = path.map((p) => quatToMat(p.rotation));
  const up = upFromRotations(rots);
  const floor = findFloor(pts, centres, up, input.floor);
  /** Reconstruction units per metre, from the camera's height over the floor. */
  const metre = floor.cameraHeight / EYE_HEIGHT_M;
  // "Up the image" = where the first keyframe's view 0 looks (its z axis, third row).
  const frame = topDownFrame(floor.normal, [rots[0][6], rots[0][7], rots[0][8]]);
  const cloud = pts.map((p) => toTopDown(frame, p));
  const track = centres.map((c) => toTopDown(frame, c));
  let transform: Similarity2D;
  let fittedBy: Projection['fittedBy'] = 'initial';
  let snap: Projection['snap'];
  let controlFit: Similarity2D | undefined;
  /** Snapped: how far each keyframe moves onto the walls its stretch saw (sheet pixels), and where the walls hold it. */
  let bend: Vec2[] | undefined;
  let held: Pick<WallBend, 'held' | 'holdRingM' | 'windows'> | undefined;
  const controls = input.controls ?? [];
  const byKey = new Map(path.map((p, i) => [p.keyframe, i]));
  for (const c of controls) {
    if (!byKey.has(c.keyframe)) throw new ProjectionFailed(`Keyframe ${c.keyframe} is not placed in this cluster; choose a control point on a placed keyframe.`);
    if (!c.sheet.every(Number.isFinite)) throw new ProjectionFailed('A control point on the sheet has no valid position.');
  }
  if (controls.length >= 2) {
    transform = fitSimilarity2D(controls.map((c) => track[byKey.get(c.keyframe)!]), controls.map((c) => c.sheet));
    controlFit = transform;
    fittedBy = 'controls';
    if (input.plan) {
      const { snap: result, wall } = snapWalk(pts, floor, frame, track, transform, controls.map((c) => ({ from: track[byKey.get(c.keyframe)!], to: c.sheet })), input.plan);
      const { transform: snapped, ...found } = result;
      snap = found;
      if (found.kept) {
        transform = snapped;
        fittedBy = 'plan';
        // Then each stretch of the walk onto the walls it saw (wall-bend.ts).
        if (input.bend !== false) {
          const bent = bendToWalls({
            track,
            shifted: wall.shifted,
            toward: wall.toward,
            nearest: wall.nearest,
            offset: wall.offset,
            transform,
            dist: wall.dist,
            raster: input.plan,
            unitsPerMetre: metre,
            options: input.bend,
          });
          bend = bent.shiftPx;
          held = { held: bent.held, holdRingM: bent.holdRingM, windows: bent.windows };
        }
      }
    }
  } else {
    transform = initialFit(cloud.length >= 10 ? cloud : track, sheet);
    if (controls.length === 1) {
      const at = applySimilarity(transform, track[byKey.get(controls[0].keyframe)!]);
      transform = { ...transform, tx: transform.tx + controls[0].sheet[0] - at[0], ty: transform.ty + controls[0].sheet[1] - at[1] };
    }
  }
  const out = new Float32Array(cloud.length * 2);
  cloud.forEach((p, i) => out.set(applySimilarity(transform, p), i * 2));
  // The points bend with the walk: each by its nearest keyframe's shift, so the preview shows the walls where the rooms are.
  if (bend) {
    const nearest = nearestOnTrack(track, Float64Array.from(cloud.flat()), metre);
    nearest.forEach((k, i) => {
      out[2 * i] += bend![k][0];
      out[2 * i + 1] += bend![k][1];
    });
  }
  const confidence =
    controls.length >= 2
      ? placementConfidence({
          track,
          keyframes: path.map((p) => p.keyframe),
          views: path.every((p) => typeof p.views === 'number') ? path.map((p) => p.views!) : undefined,
          ...(path.every((p) => typeof p.spread === 'number' && typeof p.placers === 'number') ? { spread: path.map((p) => p.spread!), placers: path.map((p) => p.placers!) } : {}),
          ...(path.every((p) => Array.isArray(p.models)) ? { placedBy: path.map((p) => p.models!) } : {}),
          transform,
          controls: controls.map((c) => ({ index: byKey.get(c.keyframe)!, sheet: c.sheet })),
          unitsPerMetre: metre,
          loops: input.loops,
          ...(fittedBy === 'plan' ? { beforeSnap: controlFit } : {}),
          ...(bend ? { bendPx: bend } : {}),
          ...(held ? { wallsHold: held } : {}),
          options: input.confidence,
        })
      : null;
  // The rooms where the fit puts them; with three or more control points, pulled along the walk to where they were given.
  const rooms = path.map((p, i) => {
    const [x, y] = applySimilarity(transform, track[i]);
    const [dx, dy] = confidence?.shiftPx[i] ?? [0, 0];
    const [bx, by] = bend?.[i] ?? [0, 0];
    return { keyframe: p.keyframe, frame: p.frame, time: p.time, x: x + bx + dx, y: y + by + dy };
  });
  const controlResiduals = controls.map((c) => {
    const room = rooms[byKey.get(c.keyframe)!];
    return Math.hypot(room.x - c.sheet[0], room.y - c.sheet[1]);
  });
  return { floor, topDown: frame, transform, fittedBy, snap, points: out, rooms, controlResiduals, confidence };
}

/** Eye height assumed to turn the reconstruction's units into metres for the snap's reaches (a person holding a 360 camera). */
const EYE_HEIGHT_M = 1.6;
/** Wall points: between these heights above the floor, as shares of the camera's — above most furniture, below the ceiling. */
const WALL_BAND: [number, number] = [0.9, 1.5];
/** Reach of the snap's robust cost, wide to narrow, metres: the first fit from two cameras is off by tens of centimetres at the far end. */
const SNAP_REACHES_M = [0.5, 0.25, 0.12];
/** How far a wall point is looked at from its camera's side: thicker than most walls, metres. */
const WALL_OFFSET_M = 0.3;
/**
 * How far the snap may leave a control point from where it was given, metres. A long walk's pinned cameras sit up to
 * 0.6 m from where the rest of its own shape puts them (the two-storey walk's floors, pinned at their true places,
 * 0.43–0.59 m): at 0.5 m every start near the walls' true placement was turned away, and the snap settled 0.27 and
 * 0.53 m off where the truth's best similarity was 0.16 and 0.17 m (bench/RESULTS.md, 2026-12-02). What the snap then
 * misses a control point by, the certainty counts in the rooms around it.
 */
const SNAP_CONTROL_TOLERANCE_M = 1;
/** At most this many wall points take part (evenly picked): enough for the fit, bounded work. */
const MAX_WALL_POINTS = 20_000;

/** The wall points a snap and a bend take: top-down, each with the direction to its camera and its nearest keyframe. */
interface WallPoints {
  walls: Vec2[];
  toward: Vec2[];
  /** Each wall point moved `offset` towards its camera: where it is looked at from (wall-snap.ts). */
  shifted: Vec2[];
  nearest: Int32Array;
  /** How far a wall point is looked at from its camera's side (reconstruction units). */
  offset: number;
  dist: Float32Array;
}

/** The control-point fit snapped to the plan's walls (see wall-snap.ts), and the wall points it took. */
function snapWalk(pts: Vec3[], floor: Floor, frame: TopDown, track: Vec2[], start: Similarity2D, controls: { from: Vec2; to: Vec2 }[], plan: SheetRaster): { snap: SnapResult; wall: WallPoints } {
  const h = floor.cameraHeight;
  const band = pts.filter((p) => {
    const z = dot(floor.normal, p) - floor.offset;
    return z > WALL_BAND[0] * h && z < WALL_BAND[1] * h;
  });
  const every = Math.max(1, Math.ceil(band.length / MAX_WALL_POINTS));
  const walls = band.filter((_, i) => i % every === 0).map((p) => toTopDown(frame, p));
  const metre = h / EYE_HEIGHT_M;
  // Each wall point is taken as seen from the nearest place the camera passed.
  const nearest = nearestOnTrack(track, Float64Array.from(walls.flat()), metre);
  const toward = walls.map((p, wi): Vec2 => {
    const [dx, dy] = [track[nearest[wi]][0] - p[0], track[nearest[wi]][1] - p[1]];
    const n = Math.hypot(dx, dy) || 1;
    return [dx / n, dy / n];
  });
  const offset = WALL_OFFSET_M * metre;
  const wall: WallPoints = { walls, toward, shifted: lookedFrom(walls, toward, offset), nearest, offset, dist: distanceToInkEdge(plan) };
  const snap = snapToWalls({
    walls,
    toward,
    offset: wall.offset,
    start,
    controls,
    dist: wall.dist,
    raster: plan,
    reaches: SNAP_REACHES_M.map((m) => m * metre),
    controlTolerance: SNAP_CONTROL_TOLERANCE_M * metre * start.scale,
  });
  return { snap, wall };
}
