/**
 * Video → placed walk (issue 8; a measurement, not a test): one generated
 * 360 walk-through of about 50 s with a known camera path
 * (test/fixtures/walk-video), reconstructed in one run by
 *
 *   (a) plain COLMAP as most people run it: 1 frame a second, 4 perspective
 *       views of 640 × 640 px (90°) per frame cut with ffmpeg v360,
 *       feature_extractor + sequential_matcher + mapper with default options;
 *   (b) a tuned COLMAP 3.8 reference: the same frames, 3 views of 120°
 *       (640 × 480), one PINHOLE camera with the known focal,
 *       SiftExtraction.max_num_features 2048, SequentialMatching.overlap 8,
 *       Mapper.ba_refine_focal_length 0 (and no extra parameters);
 *   (c) SiteWalk's own pipeline (workers/src/video: processVideo, reconstruct,
 *       then projectCluster of the largest cluster with the walk's start and
 *       end as control points), as last committed (--sitewalk-from worktree:
 *       the files as they are), loaded by path when those modules are there;
 *       otherwise skipped with a line saying so.
 *
 * For each: wall time (extraction included) and its ratio to the video's
 * duration and to SiteWalk's, frames (keyframes) placed in the largest model
 * against all, trajectory error after a similarity alignment (Umeyama/Horn,
 * 3D, with scale) to the true camera path, and the placement error on the
 * plan in metres when only the start and the end are given (the first and
 * last placed camera positions are fitted to their true places by a 2D
 * similarity on the floor plane; every other position is then compared with
 * its true place; for SiteWalk, its own projectCluster does that fit, then
 * snaps the walk to the plan image's walls as the product does with a
 * sheet, and the bench's plain fit is given beside it). Prints a table with the targets and appends a dated
 * section with the machine and its load to bench/RESULTS.md.
 *
 *   npx tsx bench/video-pipeline-bench.ts [--quick] [--skip-plain] [--skip-tuned] [--seconds N] [--plain-limit-min M] [--deadline-min M] [--no-record]
 *   (or: bash bench/run.sh video)
 *
 * --quick walks 20 s instead of 50 s; --skip-plain leaves out (a), which
 * takes about 17 minutes on 2 cores for the 50 s walk; --plain-limit-min
 * stops it after M minutes and records the time as a lower bound
 * (--deadline-min M does the same for tuned and plain COLMAP together, from the start). The runs go
 * SiteWalk, tuned, plain, so a busy machine gives the main figures first. The walk is generated
 * once into $DATA_DIR/walk-<seconds>s-…/ (default .data/video-bench; the name
 * carries a hash of the generator's sources) and reused;
 * its generation is not timed in the comparison. COLMAP runs on the CPU.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type PathJson, generateWalk } from '../test/fixtures/walk-video/generate.js';
import { cpuSeconds, loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'skip-plain': { type: 'boolean', default: false },
    'skip-tuned': { type: 'boolean', default: false },
    seconds: { type: 'string' },
    'no-record': { type: 'boolean', default: false },
    'self-check': { type: 'boolean', default: false },
    'plain-limit-min': { type: 'string' },
    'deadline-min': { type: 'string' },
    'sitewalk-from': { type: 'string', default: 'head' },
    seed: { type: 'string' },
    reverse: { type: 'boolean', default: false },
    'start-at': { type: 'string' },
    speed: { type: 'string' },
    bob: { type: 'string' },
    'tilt-deg': { type: 'string' },
  },
});
const SECONDS = Number(flags.seconds ?? process.env.VIDEO_BENCH_SECONDS ?? (flags.quick ? 20 : 50));
const WIDTH = 1920;
const HEIGHT = 960;
const FPS = 30;
const SEED = Number(flags.seed ?? 1);
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
/** Another walk than the default loop (test/fixtures/walk-video/path.ts WalkVariant): judged changes must hold on more than one walk. */
const VARIANT = {
  reverse: flags.reverse || undefined,
  startAt: num(flags['start-at']),
  speed: num(flags.speed),
  bob: num(flags.bob),
  tiltDeg: num(flags['tilt-deg']),
};
const variantText = () =>
  [
    VARIANT.reverse ? 'reversed' : '',
    VARIANT.startAt !== undefined ? `start at ${VARIANT.startAt} m along the loop` : '',
    VARIANT.speed !== undefined ? `${VARIANT.speed} m/s` : '',
    VARIANT.bob !== undefined ? `bobbing ±${VARIANT.bob} m` : '',
    VARIANT.tiltDeg !== undefined ? `tilting up to ±${VARIANT.tiltDeg}°` : '',
  ].filter(Boolean).join(', ');
const variantTag = () =>
  [VARIANT.reverse ? 'rev' : '', VARIANT.startAt !== undefined ? `at${VARIANT.startAt}` : '', VARIANT.speed !== undefined ? `v${VARIANT.speed}` : '', VARIANT.bob !== undefined ? `bob${VARIANT.bob}` : '', VARIANT.tiltDeg !== undefined ? `tilt${VARIANT.tiltDeg}` : '']
    .filter(Boolean)
    .map((t) => `-${t}`)
    .join('');
const DATA = path.resolve(ROOT, process.env.DATA_DIR ?? '.data/video-bench');

type V3 = [number, number, number];

// ---------------------------------------------------------------------------------------------
// Geometry: quaternions, a similarity alignment in 3D, and the start-and-end placement in 2D.

/** COLMAP quaternion (w, x, y, z), world → camera, as a row-major 3 × 3 matrix. */
function quatToMat([w, x, y, z]: number[]): number[] {
  const n = Math.hypot(w, x, y, z);
  w /= n;
  x /= n;
  y /= n;
  z /= n;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/** Eigenvector of the largest eigenvalue of a symmetric 4 × 4 matrix (cyclic Jacobi). */
function topEigenvector4(m: number[][]): number[] {
  const a = m.map((r) => r.slice());
  const v: number[][] = [0, 1, 2, 3].map((i) => [0, 1, 2, 3].map((j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < 4; p++) for (let q = p + 1; q < 4; q++) off += a[p][q] ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < 4; p++) {
      for (let q = p + 1; q < 4; q++) {
        if (Math.abs(a[p][q]) < 1e-300) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < 4; k++) {
          const akp = a[k][p];
          const akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < 4; k++) {
          const apk = a[p][k];
          const aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 4; k++) {
          const vkp = v[k][p];
          const vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  let best = 0;
  for (let i = 1; i < 4; i++) if (a[i][i] > a[best][best]) best = i;
  return [v[0][best], v[1][best], v[2][best], v[3][best]];
}

/**
 * Similarity (scale s, rotation R, translation t) minimising Σ |s R x + t − y|²
 * (Umeyama's least squares, rotation by Horn's quaternion method). Returns
 * the aligned points.
 */
export function alignSimilarity(xs: V3[], ys: V3[]): { aligned: V3[]; scale: number } {
  const n = xs.length;
  const mean = (ps: V3[]) => ps.reduce<V3>((m, p) => [m[0] + p[0] / n, m[1] + p[1] / n, m[2] + p[2] / n], [0, 0, 0]);
  const mx = mean(xs);
  const my = mean(ys);
  const S = [0, 1, 2].map(() => [0, 0, 0]);
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    const a = [xs[i][0] - mx[0], xs[i][1] - mx[1], xs[i][2] - mx[2]];
    const b = [ys[i][0] - my[0], ys[i][1] - my[1], ys[i][2] - my[2]];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) S[r][c] += a[r] * b[c];
    sxx += a[0] ** 2 + a[1] ** 2 + a[2] ** 2;
  }
  const [[Sxx, Sxy, Sxz], [Syx, Syy, Syz], [Szx, Szy, Szz]] = S;
  const N = [
    [Sxx + Syy + Szz, Syz - Szy, Szx - Sxz, Sxy - Syx],
    [Syz - Szy, Sxx - Syy - Szz, Sxy + Syx, Szx + Sxz],
    [Szx - Sxz, Sxy + Syx, -Sxx + Syy - Szz, Syz + Szy],
    [Sxy - Syx, Szx + Sxz, Syz + Szy, -Sxx - Syy + Szz],
  ];
  const R = quatToMat(topEigenvector4(N)); // rotates x-space into y-space
  let num = 0;
  for (let i = 0; i < n; i++) {
    const a = [xs[i][0] - mx[0], xs[i][1] - mx[1], xs[i][2] - mx[2]];
    const b = [ys[i][0] - my[0], ys[i][1] - my[1], ys[i][2] - my[2]];
    for (let r = 0; r < 3; r++) num += b[r] * (R[r * 3] * a[0] + R[r * 3 + 1] * a[1] + R[r * 3 + 2] * a[2]);
  }
  const s = sxx > 0 ? num / sxx : 1;
  const aligned = xs.map((p): V3 => {
    const a = [p[0] - mx[0], p[1] - mx[1], p[2] - mx[2]];
    return [0, 1, 2].map((r) => my[r] + s * (R[r * 3] * a[0] + R[r * 3 + 1] * a[1] + R[r * 3 + 2] * a[2])) as V3;
  });
  return { aligned, scale: s };
}

interface Placed {
  /** Frame number in the video. */
  frame: number;
  /** Camera centre in the model's frame. */
  centre: V3;
  /** World up in the model's frame, from the camera's orientation (−y of a levelled view). */
  up: V3;
}

interface Errors {
  mean: number;
  median: number;
  max: number;
  rmse: number;
}

function stats(errs: number[]): Errors {
  const s = [...errs].sort((a, b) => a - b);
  return {
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    median: s[Math.floor(s.length / 2)],
    max: s[s.length - 1],
    rmse: Math.sqrt(s.reduce((a, b) => a + b * b, 0) / s.length),
  };
}

/**
 * Placement on the plan given the start and the end: the model's camera
 * centres are projected onto the floor plane (normal = mean world up of the
 * cameras), then a 2D similarity maps the first and last placed positions
 * onto their true places; the error of every placed frame is its distance
 * (metres) to its true place.
 */
function placementErrors(placed: Placed[], truth: PathJson['frames']): Errors {
  const up = placed.reduce<V3>((m, p) => [m[0] + p.up[0], m[1] + p.up[1], m[2] + p.up[2]], [0, 0, 0]);
  const ul = Math.hypot(...up);
  const u: V3 = [up[0] / ul, up[1] / ul, up[2] / ul];
  const first = placed[0];
  const last = placed[placed.length - 1];
  let e1: V3 = [last.centre[0] - first.centre[0], last.centre[1] - first.centre[1], last.centre[2] - first.centre[2]];
  const d = e1[0] * u[0] + e1[1] * u[1] + e1[2] * u[2];
  e1 = [e1[0] - d * u[0], e1[1] - d * u[1], e1[2] - d * u[2]];
  const l1 = Math.hypot(...e1);
  e1 = [e1[0] / l1, e1[1] / l1, e1[2] / l1];
  // e2 = up × e1: (e1, e2, up) is right-handed, as (east, north, up) is.
  const e2: V3 = [u[1] * e1[2] - u[2] * e1[1], u[2] * e1[0] - u[0] * e1[2], u[0] * e1[1] - u[1] * e1[0]];
  const flat = (c: V3): [number, number] => [c[0] * e1[0] + c[1] * e1[1] + c[2] * e1[2], c[0] * e2[0] + c[1] * e2[1] + c[2] * e2[2]];
  const [z1r, z1i] = flat(first.centre);
  const [z2r, z2i] = flat(last.centre);
  const t1 = truth[first.frame];
  const t2 = truth[last.frame];
  // a = (w2 − w1) / (z2 − z1) in complex numbers; b = w1 − a z1.
  const dzr = z2r - z1r;
  const dzi = z2i - z1i;
  const dwr = t2.x - t1.x;
  const dwi = t2.y - t1.y;
  const den = dzr * dzr + dzi * dzi;
  const ar = (dwr * dzr + dwi * dzi) / den;
  const ai = (dwi * dzr - dwr * dzi) / den;
  const br = t1.x - (ar * z1r - ai * z1i);
  const bi = t1.y - (ar * z1i + ai * z1r);
  return stats(
    placed.map((p) => {
      const [zr, zi] = flat(p.centre);
      const t = truth[p.frame];
      return Math.hypot(ar * zr - ai * zi + br - t.x, ar * zi + ai * zr + bi - t.y);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Running tools.

class OutOfTime extends Error {}


/** Runs a tool; past `deadline` (performance.now() ms) it is stopped and OutOfTime thrown. */
async function run(cmd: string, args: string[], deadline = Infinity): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' } });
    let tail = '';
    let late = false;
    const keep = (d: Buffer) => (tail = (tail + d.toString()).slice(-4000));
    const timer = Number.isFinite(deadline)
      ? setTimeout(() => {
          late = true;
          child.kill('SIGKILL');
        }, Math.max(0, deadline - performance.now()))
      : undefined;
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (late) reject(new OutOfTime(`${cmd} ${args[0]} stopped at the time limit`));
      else if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args[0]} failed (${code}): ${tail.trim().split('\n').slice(-5).join(' | ')}`));
    });
  });
}

/** Reads the registered images of a COLMAP model folder (converted to text). */
async function readModel(modelDir: string, txtDir: string): Promise<Array<{ name: string; q: number[]; t: number[] }>> {
  fs.mkdirSync(txtDir, { recursive: true });
  await run('colmap', ['model_converter', '--input_path', modelDir, '--output_path', txtDir, '--output_type', 'TXT']);
  const lines = fs.readFileSync(path.join(txtDir, 'images.txt'), 'utf8').split('\n');
  const out: Array<{ name: string; q: number[]; t: number[] }> = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim();
    if (!l || l.startsWith('#')) continue;
    const f = l.split(/\s+/);
    out.push({ q: f.slice(1, 5).map(Number), t: f.slice(5, 8).map(Number), name: f.slice(9).join(' ') });
    i++;
  }
  return out;
}

const centreOf = (q: number[], t: number[]): V3 => {
  const R = quatToMat(q);
  return [0, 1, 2].map((c) => -(R[c] * t[0] + R[3 + c] * t[1] + R[6 + c] * t[2])) as V3;
};
/** World up of a levelled view: −(camera y axis) = −(second row of R). */
const upOf = (q: number[]): V3 => {
  const R = quatToMat(q);
  return [-R[3], -R[4], -R[5]];
};

/** Camera positions per frame of one model: views of one frame share a centre, so their mean. */
function framesOfModel(images: Array<{ name: string; q: number[]; t: number[] }>, frameOf: (name: string) => number | undefined): Placed[] {
  const byFrame = new Map<number, { c: V3; u: V3; n: number }>();
  for (const img of images) {
    const f = frameOf(img.name);
    if (f === undefined) continue;
    const e = byFrame.get(f) ?? { c: [0, 0, 0] as V3, u: [0, 0, 0] as V3, n: 0 };
    const c = centreOf(img.q, img.t);
    const u = upOf(img.q);
    for (let k = 0; k < 3; k++) {
      e.c[k] += c[k];
      e.u[k] += u[k];
    }
    e.n++;
    byFrame.set(f, e);
  }
  return [...byFrame.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([frame, e]) => ({ frame, centre: e.c.map((v) => v / e.n) as V3, up: e.u.map((v) => v / e.n) as V3 }));
}

interface Outcome {
  label: string;
  ms?: number;
  /** Stopped at the time limit: ms is a lower bound. */
  unfinished?: boolean;
  /** CPU seconds of the run (this process and its tools). */
  cpu?: number;
  skipped?: string;
  failed?: string;
  framesTotal?: number;
  framesPlaced?: number;
  framesAnyModel?: number;
  models?: number;
  traj?: Errors;
  placement?: Errors;
  /** Places the walk passed twice: how far apart their two placements are, beyond the true distance (after the sim3 fit). */
  loopGap?: Errors & { pairs: number };
  phases?: string;
}

/** Two placed frames are passes of one place when truly within this distance (m) and this many seconds apart. */
const LOOP_NEAR_M = 0.3;
const LOOP_APART_S = 20;

/**
 * Loop-closure gap: for frames that truly stand within LOOP_NEAR_M of each
 * other on two passes, how much their placements' offset differs from the
 * true offset (m), with no control point (the whole path's sim3 fit).
 */
function loopGaps(aligned: V3[], ys: V3[], times: number[]): (Errors & { pairs: number }) | undefined {
  const gaps: number[] = [];
  for (let i = 0; i < ys.length; i++) {
    for (let j = i + 1; j < ys.length; j++) {
      if (times[j] - times[i] < LOOP_APART_S) continue;
      const t = [ys[i][0] - ys[j][0], ys[i][1] - ys[j][1], ys[i][2] - ys[j][2]];
      if (Math.hypot(t[0], t[1], t[2]) > LOOP_NEAR_M) continue;
      gaps.push(Math.hypot(aligned[i][0] - aligned[j][0] - t[0], aligned[i][1] - aligned[j][1] - t[1], aligned[i][2] - aligned[j][2] - t[2]));
    }
  }
  return gaps.length ? { ...stats(gaps), pairs: gaps.length } : undefined;
}

function evaluate(placed: Placed[], truth: PathJson['frames']): { traj: Errors; placement: Errors; loopGap?: Errors & { pairs: number } } {
  const xs = placed.map((p) => p.centre);
  const ys = placed.map((p): V3 => [truth[p.frame].x, truth[p.frame].y, truth[p.frame].z]);
  const { aligned } = alignSimilarity(xs, ys);
  const traj = stats(aligned.map((a, i) => Math.hypot(a[0] - ys[i][0], a[1] - ys[i][1], a[2] - ys[i][2])));
  return { traj, placement: placementErrors(placed, truth), loopGap: loopGaps(aligned, ys, placed.map((p) => truth[p.frame].t)) };
}

// ---------------------------------------------------------------------------------------------
// (a) and (b): COLMAP on 1 fps frames cut into perspective views.

interface ColmapRecipe {
  label: string;
  views: Array<{ yawDeg: number }>;
  hFovDeg: number;
  width: number;
  height: number;
  extractor: string[];
  matcher: string[];
  mapper: string[];
}

function plainRecipe(): ColmapRecipe {
  return {
    label: '(a) plain COLMAP: 1 fps, 4 views 640 px 90°, default options',
    views: [0, 90, 180, 270].map((yawDeg) => ({ yawDeg })),
    hFovDeg: 90,
    width: 640,
    height: 640,
    extractor: ['--SiftExtraction.use_gpu', '0'],
    matcher: ['--SiftMatching.use_gpu', '0'],
    mapper: [],
  };
}

function tunedRecipe(): ColmapRecipe {
  const width = 640;
  const height = 480;
  const f = width / 2 / Math.tan(Math.PI / 3);
  return {
    label: '(b) tuned COLMAP 3.8: 1 fps, 3 views 640 × 480 120°, one PINHOLE camera, 2048 features, overlap 8, fixed focal',
    views: [0, 120, 240].map((yawDeg) => ({ yawDeg })),
    hFovDeg: 120,
    width,
    height,
    extractor: [
      '--SiftExtraction.use_gpu', '0',
      '--SiftExtraction.max_num_features', '2048',
      '--ImageReader.single_camera', '1',
      '--ImageReader.camera_model', 'PINHOLE',
      '--ImageReader.camera_params', `${f},${f},${width / 2},${height / 2}`,
    ],
    matcher: ['--SiftMatching.use_gpu', '0', '--SequentialMatching.overlap', '8'],
    mapper: ['--Mapper.ba_refine_focal_length', '0', '--Mapper.ba_refine_principal_point', '0', '--Mapper.ba_refine_extra_params', '0'],
  };
}

async function runColmap(recipe: ColmapRecipe, video: string, truth: PathJson, work: string, limitMs = Infinity): Promise<Outcome> {
  if (limitMs < 60_000) return { label: recipe.label, skipped: 'not run: less than a minute left before the time limit' };
  fs.rmSync(work, { recursive: true, force: true });
  const images = path.join(work, 'images');
  fs.mkdirSync(images, { recursive: true });
  const step = Math.round(truth.fps); // 1 frame a second: frames 0, fps, 2 fps, …
  const vFovDeg = (2 * Math.atan((Math.tan((recipe.hFovDeg * Math.PI) / 360) * recipe.height) / recipe.width) * 180) / Math.PI;
  const n = recipe.views.length;
  const graph =
    `[0:v]select='not(mod(n\\,${step}))',split=${n}${recipe.views.map((_, k) => `[s${k}]`).join('')};` +
    recipe.views.map((v, k) => `[s${k}]v360=e:flat:yaw=${v.yawDeg > 180 ? v.yawDeg - 360 : v.yawDeg}:h_fov=${recipe.hFovDeg}:v_fov=${vFovDeg}:w=${recipe.width}:h=${recipe.height}[o${k}]`).join(';');
  const outputs = recipe.views.flatMap((_, k) => ['-map', `[o${k}]`, '-fps_mode', 'passthrough', '-q:v', '2', '-start_number', '0', path.join(images, `%06d_${k}.jpg`)]);
  const db = path.join(work, 'database.db');
  const sparse = path.join(work, 'sparse');
  fs.mkdirSync(sparse);
  const phases: Record<string, number> = {};
  const c0 = cpuSeconds();
  const t0 = performance.now();
  const deadline = t0 + limitMs;
  let t = t0;
  let current = 'frames';
  const lap = (name: string) => {
    const now = performance.now();
    phases[current] = (now - t) / 1000;
    t = now;
    current = name;
  };
  try {
    await run('ffmpeg', ['-y', '-loglevel', 'error', '-i', video, '-filter_complex', graph, ...outputs], deadline);
    lap('features');
    await run('colmap', ['feature_extractor', '--database_path', db, '--image_path', images, ...recipe.extractor], deadline);
    lap('matching');
    await run('colmap', ['sequential_matcher', '--database_path', db, ...recipe.matcher], deadline);
    lap('mapping');
    await run('colmap', ['mapper', '--database_path', db, '--image_path', images, '--output_path', sparse, ...recipe.mapper], deadline);
    lap('');
  } catch (err) {
    if (!(err instanceof OutOfTime)) throw err;
    lap('');
    const text = Object.entries(phases).map(([k, v]) => `${k} ${v.toFixed(0)} s`).join(', ');
    return { label: recipe.label, ms: performance.now() - t0, cpu: cpuSeconds() - c0, unfinished: true, failed: `stopped at the time limit of ${(limitMs / 60000).toFixed(0)} min, unfinished (${text})`, phases: text };
  }
  const ms = performance.now() - t0;
  const cpu = cpuSeconds() - c0;
  const frameOf = (name: string) => {
    const m = /^(\d+)_\d+\.jpg$/.exec(name);
    return m ? Number(m[1]) * step : undefined;
  };
  const framesTotal = fs.readdirSync(images).filter((f) => f.endsWith('_0.jpg')).length;
  const models = fs.readdirSync(sparse).filter((d) => /^\d+$/.test(d));
  const perModel: Placed[][] = [];
  for (const m of models) perModel.push(framesOfModel(await readModel(path.join(sparse, m), path.join(work, `txt-${m}`)), frameOf));
  return { ...summarise(recipe.label, ms, framesTotal, perModel, truth, phases), cpu };
}

function summarise(label: string, ms: number, framesTotal: number, perModel: Placed[][], truth: PathJson, phases: Record<string, number>): Outcome {
  const phaseText = Object.entries(phases).map(([k, v]) => `${k} ${v.toFixed(0)} s`).join(', ');
  const largest = perModel.reduce<Placed[]>((a, b) => (b.length > a.length ? b : a), []);
  const any = new Set(perModel.flat().map((p) => p.frame)).size;
  const base = { label, ms, framesTotal, framesPlaced: largest.length, framesAnyModel: any, models: perModel.length, phases: phaseText };
  if (largest.length < 3) return { ...base, failed: `only ${largest.length} frames in the largest model` };
  return { ...base, ...evaluate(largest, truth.frames) };
}

// ---------------------------------------------------------------------------------------------
// (c) SiteWalk's pipeline, loaded by path so the bench still runs (and type-checks) before it exists.

type ProcessVideo = (input: string, workDir: string) => Promise<{ keyframes: Array<{ index: number; frame: number }>; timings?: Record<string, number> }>;
type ClusterPose = { keyframe: number; frame: number; time: number; centre: V3; rotation: number[] };
type Reconstruct = (workDir: string) => Promise<{ clusters: Array<{ plyPath: string; path: ClusterPose[] }>; timings?: Record<string, unknown> }>;
type ProjectCluster = (input: {
  points: Float32Array;
  path: ClusterPose[];
  sheet: { width: number; height: number };
  controls: Array<{ keyframe: number; sheet: [number, number] }>;
  plan?: { width: number; height: number; grey: Uint8Array; scale: number };
}) => { rooms: Array<{ keyframe: number; frame: number; x: number; y: number }>; fittedBy?: string };
type DecodePly = (buf: Buffer) => { xyz: Float32Array };

interface SiteWalk {
  processVideo: ProcessVideo;
  reconstruct: Reconstruct;
  /** The project-points geometry, when it is there. */
  projectCluster?: ProjectCluster;
  decodePly?: DecodePly;
}

/**
 * Where SiteWalk's code is loaded from: by default the last commit (git
 * archive of workers/src at HEAD into $DATA_DIR/sitewalk-src/<commit>/), so
 * the figures belong to a known commit and edits in progress in the work
 * tree cannot break the run; `--sitewalk-from worktree` takes the files as
 * they are.
 */
function siteWalkSource(): { dir: string; what: string } {
  if (flags['sitewalk-from'] === 'worktree') return { dir: path.join(ROOT, 'workers/src/video'), what: 'the work tree' };
  const commit = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dest = path.join(DATA, 'sitewalk-src', commit);
  if (!fs.existsSync(path.join(dest, 'workers/src'))) {
    fs.mkdirSync(dest, { recursive: true });
    const tar = execFileSync('git', ['archive', 'HEAD', 'workers/src'], { cwd: ROOT, maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', dest], { input: tar });
  }
  const dirty = execFileSync('git', ['status', '--porcelain', '--', 'workers/src'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
  return { dir: path.join(dest, 'workers/src/video'), what: `commit ${commit}${dirty ? ' (uncommitted changes in workers/src left out)' : ''}` };
}

let siteWalkWhat = '';

async function loadSiteWalk(): Promise<SiteWalk | string> {
  const { dir, what } = siteWalkSource();
  siteWalkWhat = what;
  const load = async (file: string): Promise<Record<string, unknown> | undefined> =>
    fs.existsSync(path.join(dir, file)) ? ((await import(pathToFileURL(path.join(dir, file)).href)) as Record<string, unknown>) : undefined;
  try {
    const [p, r, proj, ply] = await Promise.all([load('process.ts'), load('reconstruct.ts'), load('projection.ts'), load('ply.ts')]);
    if (typeof p?.processVideo !== 'function' || typeof r?.reconstruct !== 'function') return 'workers/src/video does not export processVideo (process.ts) and reconstruct (reconstruct.ts) yet';
    return {
      processVideo: p.processVideo as ProcessVideo,
      reconstruct: r.reconstruct as Reconstruct,
      projectCluster: typeof proj?.projectCluster === 'function' ? (proj.projectCluster as ProjectCluster) : undefined,
      decodePly: typeof ply?.decodePly === 'function' ? (ply.decodePly as DecodePly) : undefined,
    };
  } catch (err) {
    return `workers/src/video does not load: ${(err as Error).message.split('\n')[0]}`;
  }
}

interface PlanJson {
  pxPerMetre: number;
  origin: { px: number; py: number };
  imageWidth: number;
  imageHeight: number;
}

async function runSiteWalk(video: string, truth: PathJson, plan: PlanJson, work: string): Promise<Outcome> {
  const label = '(c) SiteWalk: processVideo + reconstruct + projectCluster (workers/src/video)';
  const sw = await loadSiteWalk();
  if (typeof sw === 'string') return { label, skipped: `${sw} (${siteWalkWhat})` };
  console.log(`  SiteWalk's code: ${siteWalkWhat}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const phases: Record<string, number> = {};
  const c0 = cpuSeconds();
  const t0 = performance.now();
  const manifest = await sw.processVideo(video, work);
  const t1 = performance.now();
  phases.process = (t1 - t0) / 1000;
  const rec = await sw.reconstruct(work);
  const t2 = performance.now();
  phases.reconstruct = (t2 - t1) / 1000;
  const clusters = [...rec.clusters].sort((a, b) => b.path.length - a.path.length);
  const main = clusters[0];
  // The product's placement: the largest cluster laid on the plan with the walk's start and end as control points.
  let projected: Errors | undefined;
  let projectNote = '';
  if (main && main.path.length >= 2 && sw.projectCluster && sw.decodePly) {
    const poses = [...main.path].sort((a, b) => a.frame - b.frame);
    const toSheet = (frame: number): [number, number] => [plan.origin.px + truth.frames[frame].x * plan.pxPerMetre, plan.origin.py - truth.frames[frame].y * plan.pxPerMetre];
    const first = poses[0];
    const last = poses[poses.length - 1];
    const points = sw.decodePly(fs.readFileSync(main.plyPath)).xyz;
    // The sheet's picture, as the project-points job reads it from the sheet's tiles: here the plan itself.
    const { data: grey, info } = await sharp(path.join(path.dirname(video), 'walk.plan.png')).greyscale().raw().toBuffer({ resolveWithObject: true });
    const proj = sw.projectCluster({
      plan: { width: info.width, height: info.height, grey: new Uint8Array(grey.buffer, grey.byteOffset, grey.length), scale: 1 },
      points,
      path: poses,
      sheet: { width: plan.imageWidth, height: plan.imageHeight },
      controls: [
        { keyframe: first.keyframe, sheet: toSheet(first.frame) },
        { keyframe: last.keyframe, sheet: toSheet(last.frame) },
      ],
    });
    if (proj.fittedBy) projectNote = `placed by projectCluster: ${proj.fittedBy === 'plan' ? 'start and end, then snapped to the plan\'s walls' : proj.fittedBy}`;
    projected = stats(proj.rooms.map((r) => Math.hypot((r.x - plan.origin.px) / plan.pxPerMetre - truth.frames[r.frame].x, (plan.origin.py - r.y) / plan.pxPerMetre - truth.frames[r.frame].y)));
  } else projectNote = 'projectCluster not there yet: placement by the bench\'s own start-and-end fit';
  const ms = performance.now() - t0;
  const cpu = cpuSeconds() - c0;
  phases.project = (performance.now() - t2) / 1000;
  const perModel = rec.clusters.map((c) =>
    c.path.map((p): Placed => ({ frame: p.frame, centre: p.centre, up: upOf(p.rotation) })).sort((a, b) => a.frame - b.frame),
  );
  const o: Outcome = { ...summarise(label, ms, manifest.keyframes.length, perModel, truth, phases), cpu };
  // reconstruct's own timings: seconds by phase, possibly grouped (wall, cpu).
  const detail = Object.entries(rec.timings ?? {})
    .map(([k, v]) =>
      typeof v === 'number'
        ? `${k} ${v.toFixed(0)} s`
        : v && typeof v === 'object'
          ? `${k}: ${Object.entries(v as Record<string, unknown>).map(([k2, v2]) => `${k2} ${Number(v2).toFixed(0)} s`).join(', ')}`
          : '',
    )
    .filter(Boolean)
    .join('; ');
  if (detail) o.phases += ` (reconstruct's own timings: ${detail})`;
  if (projected) {
    o.phases += `; ${projectNote}; the bench's own start-and-end fit of the same cameras: mean ${fmtM(o.placement?.mean)}, max ${fmtM(o.placement?.max)}`;
    o.placement = projected;
  } else if (projectNote) o.phases += `; ${projectNote}`;
  return o;
}

// ---------------------------------------------------------------------------------------------

const fmtS = (ms?: number) => (ms === undefined ? '–' : `${(ms / 1000).toFixed(1)} s`);
const fmtM = (m?: number) => (m === undefined ? '–' : `${m.toFixed(3)} m`);

async function main() {
  const loadBefore = loadAverage();
  const deadlineAt = flags['deadline-min'] ? performance.now() + Number(flags['deadline-min']) * 60_000 : Infinity;
  // The cached walk is named after the generator's sources, so a changed generator makes a new one.
  const fixture = path.join(ROOT, 'test/fixtures/walk-video');
  const hash = createHash('sha1');
  for (const f of fs.readdirSync(fixture).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts')).sort()) hash.update(fs.readFileSync(path.join(fixture, f)));
  const walkDir = path.join(DATA, `walk-${SECONDS}s-${WIDTH}-seed${SEED}${variantTag()}-${hash.digest('hex').slice(0, 8)}`);
  const pathJson = path.join(walkDir, 'walk.path.json');
  let generatedIn = 'reused from an earlier run';
  if (!fs.existsSync(pathJson) || !fs.existsSync(path.join(walkDir, 'walk.mp4'))) {
    console.log(`Generating the ${SECONDS} s 360 walk (${WIDTH} × ${HEIGHT}, ${FPS} fps) into ${path.relative(ROOT, walkDir)} …`);
    const g = await generateWalk({ kind: '360', seconds: SECONDS, width: WIDTH, height: HEIGHT, fps: FPS, seed: SEED, outDir: walkDir, variant: VARIANT });
    generatedIn = `generated in ${(g.ms / 1000).toFixed(0)} s`;
  }
  const truth = JSON.parse(fs.readFileSync(pathJson, 'utf8')) as PathJson;
  const video = path.join(walkDir, 'walk.mp4');
  const walked = truth.frames[truth.frames.length - 1].s;
  const startEnd = Math.hypot(truth.frames[truth.frames.length - 1].x - truth.frames[0].x, truth.frames[truth.frames.length - 1].y - truth.frames[0].y);
  console.log(`Walk: ${truth.seconds} s, ${walked.toFixed(1)} m, ${truth.frameCount} frames (${generatedIn}).`);

  const outcomes: Outcome[] = [];
  const attempt = async (label: string, skip: string | undefined, f: () => Promise<Outcome>) => {
    if (skip) {
      outcomes.push({ label, skipped: skip });
      return;
    }
    console.log(`\n${label} …`);
    try {
      const o = await f();
      outcomes.push(o);
      console.log(`  ${fmtS(o.ms)}; ${o.skipped ?? o.failed ?? `${o.framesPlaced}/${o.framesTotal} frames placed, trajectory RMSE ${fmtM(o.traj?.rmse)}, placement mean ${fmtM(o.placement?.mean)}`}`);
    } catch (err) {
      outcomes.push({ label, failed: (err as Error).message.slice(0, 300) });
      console.log(`  failed: ${(err as Error).message}`);
    }
  };
  // SiteWalk first, plain COLMAP last: on a busy machine the figures that matter most come first.
  const runs = path.join(DATA, 'runs');
  const plan = JSON.parse(fs.readFileSync(path.join(walkDir, 'walk.plan.json'), 'utf8')) as PlanJson;
  await attempt('(c) SiteWalk: processVideo + reconstruct + projectCluster (workers/src/video)', undefined, () => runSiteWalk(video, truth, plan, path.join(runs, 'sitewalk')));
  const left = () => Math.max(0, deadlineAt - performance.now());
  await attempt(tunedRecipe().label, flags['skip-tuned'] ? 'left out (--skip-tuned)' : undefined, () => runColmap(tunedRecipe(), video, truth, path.join(runs, 'tuned'), left()));
  const plainLimit = Math.min(flags['plain-limit-min'] ? Number(flags['plain-limit-min']) * 60_000 : Infinity, left());
  await attempt(plainRecipe().label, flags['skip-plain'] ? 'left out (--skip-plain)' : undefined, () => runColmap(plainRecipe(), video, truth, path.join(runs, 'plain'), plainLimit));
  const loadAfter = loadAverage();

  const [site, tuned, plain] = outcomes;
  const duration = truth.seconds * 1000;
  const ratio = (a?: Outcome, b?: Outcome) => (a?.ms !== undefined && b?.ms !== undefined && (!a.failed || a.unfinished) && !b.failed ? a.ms / b.ms : undefined);
  const atLeast = (o?: Outcome) => (o?.unfinished ? '≥ ' : '');
  const row = (o: Outcome) =>
    o.skipped
      ? `| ${o.label} | skipped: ${o.skipped} | | | | | | |`
      : `| ${o.label} | ${atLeast(o)}${fmtS(o.ms)} | ${o.ms !== undefined ? `${atLeast(o)}${(o.ms / duration).toFixed(2)}×` : '–'} | ${o.cpu !== undefined ? `${atLeast(o)}${o.cpu.toFixed(0)} s` : '–'} | ${o.framesPlaced ?? '–'} / ${o.framesTotal ?? '–'}${o.models !== undefined ? ` (${o.models} model${o.models === 1 ? '' : 's'}; ${o.framesAnyModel} in any)` : ''} | ${o.traj ? `${fmtM(o.traj.rmse)} (max ${fmtM(o.traj.max)})` : '–'} | ${o.placement ? `${fmtM(o.placement.mean)} / ${fmtM(o.placement.median)} / ${fmtM(o.placement.max)}` : o.failed ? `failed: ${o.failed}` : '–'} | ${o.loopGap ? `${fmtM(o.loopGap.mean)} / ${fmtM(o.loopGap.max)} (${o.loopGap.pairs})` : '–'} | ${o.phases ?? ''} |`;
  const target = (name: string, value: number | undefined, ok: (v: number) => boolean | undefined, text: (v: number) => string) => {
    const verdict = value === undefined ? '–' : ({ true: 'met', false: 'missed', undefined: 'not known' } as const)[`${ok(value)}`];
    return `| ${name} | ${value === undefined ? 'not measured' : text(value)} | ${verdict} |`;
  };
  const placedShare = site?.framesPlaced !== undefined && site.framesTotal ? site.framesPlaced / site.framesTotal : undefined;
  const siteOk = site && !site.skipped && !site.failed ? site : undefined;
  const lines = [
    `## Video to placed walk (issue 8), ${runDate()}`,
    '',
    `Machine: ${machine()}; ${colmapVersion()}, ${ffmpegVersion()}, COLMAP on the CPU; load average before the run ${loadBefore}, after ${loadAfter} (1, 5, 15 min; the machine is shared).`,
    `SiteWalk's code: ${siteWalkWhat || 'not loaded'}.
Input: the generated 360 walk of test/fixtures/walk-video (seed ${SEED}): ${truth.seconds} s, ${truth.camera.width} × ${truth.camera.height}, ${truth.fps} fps, H.264; ${walked.toFixed(1)} m walked at ${truth.speed} m/s through six textured rooms${variantText() ? ` (${variantText()}; start and end ${startEnd.toFixed(1)} m apart)` : ` (start and end ${startEnd.toFixed(1)} m apart)`} with a ${truth.pause?.seconds ?? 0} s pause and ${truth.headTurns.length} head turns (${generatedIn}, not timed). Wall and CPU time include cutting the frames; CPU time is that of the bench process and the tools it ran (ffmpeg, COLMAP). Frames placed: frames (keyframes for SiteWalk) in the largest model / all frames given to it. Trajectory error: camera centres against the true path after a 3D similarity alignment (Umeyama). Placement: start and end given (the first and last placed positions fitted to their true places on the plan by a 2D similarity on the floor plane), then the distance of every placed position to its true place; for SiteWalk its own projectCluster makes that fit (with the floor it finds) and then snaps the walk to the walls of the plan image (walk.plan.png, standing in for the sheet's tiles), and the bench's plain start-and-end fit of the same cameras is given beside it.`,
    '',
    '| Run | Wall time | × video | CPU time | Frames placed | Trajectory RMSE (sim3) | Placement error mean / median / max | Loop-closure gap mean / max (pairs) | Phases (wall) |',
    '| --- | ---: | ---: | ---: | --- | --- | --- | --- | --- |',
    ...outcomes.map(row),
    '',
    '| Target (SiteWalk) | Measured | |',
    '| --- | --- | --- |',
    target('≤ 1.0× video duration', siteOk ? siteOk.ms! / duration : undefined, (v) => v <= 1, (v) => `${v.toFixed(2)}×`),
    target('≥ 2× faster than tuned COLMAP', ratio(tuned, siteOk), (v) => v >= 2, (v) => `${v.toFixed(1)}×`),
    target('≥ 15× faster than plain COLMAP', ratio(plain, siteOk), (v) => (v >= 15 ? true : plain?.unfinished ? undefined : false), (v) => `${atLeast(plain)}${v.toFixed(1)}×${plain?.unfinished ? ' (plain COLMAP stopped unfinished)' : ''}`),
    target('≥ 95 % keyframes placed', siteOk ? placedShare : undefined, (v) => v >= 0.95, (v) => `${(v * 100).toFixed(1)} %`),
    target('mean placement error ≤ 0.10 m', siteOk?.placement?.mean, (v) => v <= 0.1, (v) => `${v.toFixed(3)} m`),
  ];
  const cpuRatio = (a?: Outcome, b?: Outcome) => (a?.cpu !== undefined && b?.cpu !== undefined && (!a.failed || a.unfinished) && !b.failed ? a.cpu / b.cpu : undefined);
  const cr = [
    ['tuned COLMAP', cpuRatio(tuned, siteOk), tuned],
    ['plain COLMAP', cpuRatio(plain, siteOk), plain],
  ] as const;
  const crText = cr.filter(([, v]) => v !== undefined).map(([n, v, o]) => `${atLeast(o)}${v!.toFixed(1)}× less CPU than ${n}`);
  if (crText.length) lines.push('', `In CPU time (less sensitive to a shared machine's load than wall time), SiteWalk uses ${crText.join(' and ')}.`);
  const tp = ratio(plain, tuned);
  // A lower bound under 1 (plain stopped early) says nothing.
  if (tp !== undefined && (!plain?.unfinished || tp >= 1)) lines.push('', `Tuned COLMAP is ${atLeast(plain)}${tp.toFixed(1)}× faster than plain COLMAP on the same frames.`);
  const section = lines.join('\n');
  console.log(`\n${section}`);
  if (!flags['no-record']) appendResults(section);
}

function versionOf(cmd: string, args: string[], re: RegExp): string {
  let out = '';
  try {
    out = execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' } });
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? ''); // colmap -h exits non-zero
  }
  return re.exec(out)?.[0] ?? cmd;
}
const colmapVersion = () => versionOf('colmap', ['-h'], /COLMAP \d+\.\d+(\.\d+)?/);
const ffmpegVersion = () => versionOf('ffmpeg', ['-version'], /ffmpeg version [^\s-]+/);

/** --self-check: the alignment and the placement give 0 error on an exact similarity of the true path. */
function selfCheck() {
  const truth = Array.from({ length: 60 }, (_, i) => ({ i, t: i, x: 3 + 5 * Math.cos(i / 9), y: 2 + 4 * Math.sin(i / 7), z: 1.6, yaw: 0, pitch: 0, roll: 0, heading: 0, s: 0 }));
  // A model frame: scale 0.37, rotated so that world up is along (0.3, −0.9, 0.2)-ish, shifted.
  const q = [0.8, 0.3, -0.4, 0.33];
  const R = quatToMat(q);
  const move = (p: V3): V3 => [0, 1, 2].map((r) => 0.37 * (R[r * 3] * p[0] + R[r * 3 + 1] * p[1] + R[r * 3 + 2] * p[2]) + [5, -2, 7][r]) as V3;
  const up = move([0, 0, 1]).map((v, k) => v - move([0, 0, 0])[k]) as V3;
  const placed: Placed[] = truth.map((t) => ({ frame: t.i, centre: move([t.x, t.y, t.z]), up }));
  const e = evaluate(placed, truth);
  console.log(`self-check: trajectory RMSE ${e.traj.rmse.toExponential(2)} m, placement max ${e.placement.max.toExponential(2)} m`);
  if (e.traj.rmse > 1e-6 || e.placement.max > 1e-6) process.exit(1);
}

if (process.argv.includes('--self-check')) selfCheck();
else await main();
