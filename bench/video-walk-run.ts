/**
 * One run of the video pipeline on a generated walk, as the workers chain it
 * after an upload is accepted: processVideo (keyframes), reconstruct
 * (COLMAP), then projectCluster of the largest cluster with the walk's start
 * and end as control points (the rooms proposed on the sheet). Records every
 * progress report (for the remaining-time harness), the stage timings as the
 * worker stores them, the wall and CPU time, and the peak memory of this
 * process with the tools it runs (the sum of their RSS, sampled).
 */
import { cpuSeconds } from './machine.js';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { EtaSample } from '../core/src/video-eta.js';
import { processVideo } from '../workers/src/video/process.js';
import { reconstruct, type Cluster, type ReconstructOverrides } from '../workers/src/video/reconstruct.js';
import { projectCluster } from '../workers/src/video/projection.js';
import type { ConfidenceOptions } from '../workers/src/video/placement-confidence.js';
import { shapeErrors } from './shape-error.js';
import { decodePly } from '../workers/src/video/ply.js';
import type { CachedWalk } from './walk-cache.js';

export type RecordedStep = 'process' | 'generate-ply';

export interface WalkRun {
  keyframes: number;
  placed: number;
  rooms: number;
  /**
   * Rooms' distance to where the walk truly was, start and end pinned (metres): mean and 95th percentile; and the mean
   * after the best 2D similarity over every room (the shape's own error, without the two pins').
   */
  placement?: { meanM: number; p95M: number; shapeM: number };
  /** Rooms the projection says it is unsure of (placement-confidence.ts). */
  unsure?: number;
  /** Rooms placed further off than the confidence threshold (0.3 m) and not flagged unsure: misplaced in silence. */
  silent?: number;
  /**
   * The user's next move when rooms are unsure: one more control point at the keyframe the projection suggests (its
   * true place), projected again — the placement and the rooms still unsure and misplaced in silence then.
   */
  withSuggested?: { meanM: number; p95M: number; unsure: number; silent: number };
  /** A walk that took the stairs: its segments as the reconstruction split them, keyframes laid on the wrong floor, and kept apart as stairs. */
  floors?: { segments: string; wrongFloor: number; stairs: number };
  /** Windows the walk was mapped in (submaps.ts). */
  submaps?: number;
  /** Wall time of each step and of the projection, ms. */
  ms: { process: number; 'generate-ply': number; project: number; total: number };
  cpuSeconds: number;
  peakRssBytes: number;
  /** `process.decode`, `generate-ply.mapping`, … seconds, as a run stores them. */
  timings: Record<string, number>;
  steps: Record<RecordedStep, EtaSample[]>;
}


/** The summed RSS of this process and every process under it (Linux /proc; this process alone elsewhere). */
export function treeRss(): number {
  try {
    const parent = new Map<number, number>();
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {
        /* gone meanwhile */
      }
    }
    const inTree = (pid: number): boolean => {
      for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === process.pid) return true;
      return false;
    };
    let sum = 0;
    for (const pid of parent.keys()) {
      if (!inTree(pid)) continue;
      try {
        sum += Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
      } catch {
        /* gone meanwhile */
      }
    }
    return sum;
  } catch {
    return process.memoryUsage().rss;
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const p95 = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))];
};

/** What the user gets on one sheet: rooms, their distances to where the walk truly was, unsure and silent ones, and again with the suggested third control point. */
export interface Judged {
  rooms: number;
  off: number[];
  shape: number[];
  unsure: number;
  silent: number;
  withSuggested?: { off: number[]; unsure: number; silent: number };
  /** After each further control point asked for and given, the first being `withSuggested`. */
  rounds?: { off: number[]; unsure: number; silent: number }[];
}

/**
 * One cluster proposed on the plan `planName` (walk.plan, walk.plan-0, …) with two keyframes pinned where the walk
 * truly was (its first and last, or its first and the one furthest from it when the walk ends where it began),
 * judged against the truth; then with the third control point the projection asks for.
 */
export async function judgeOnSheet(
  walk: CachedWalk,
  cluster: Pick<Cluster, 'id' | 'plyPath' | 'path'>,
  planName: string,
  frames: { x: number; y: number }[],
  loops: { a: number; b: number }[],
  confidence?: Partial<ConfidenceOptions>,
  suggestions = 1,
): Promise<Judged> {
  const plan = JSON.parse(fs.readFileSync(path.join(walk.dir, `${planName}.json`), 'utf8')) as PlanJson;
  const poses = [...cluster.path].sort((a, b) => a.frame - b.frame);
  const toSheet = (frame: number): [number, number] => [plan.origin.px + frames[frame].x * plan.pxPerMetre, plan.origin.py - frames[frame].y * plan.pxPerMetre];
  const { data: grey, info } = await sharp(path.join(walk.dir, `${planName}.png`)).greyscale().raw().toBuffer({ resolveWithObject: true });
  const sheetPlan = { width: info.width, height: info.height, grey: new Uint8Array(grey.buffer, grey.byteOffset, grey.length), scale: 1 };
  const points = decodePly(fs.readFileSync(cluster.plyPath)).xyz;
  // The two control points a user would give: the walk's start and end — unless they are the same place (a storey
  // entered and left by the same stairs, a walk that ends where it began), then the start and the room furthest from it.
  const trueAt = (q: { frame: number }) => frames[q.frame];
  const gap = (a: { frame: number }, b: { frame: number }) => Math.hypot(trueAt(a).x - trueAt(b).x, trueAt(a).y - trueAt(b).y);
  const furthest = poses.reduce((best, q) => (gap(q, poses[0]) > gap(best, poses[0]) ? q : best), poses[0]);
  const second = gap(poses[poses.length - 1], poses[0]) >= gap(furthest, poses[0]) / 4 ? poses[poses.length - 1] : furthest;
  const project = (extra: number[]) =>
    projectCluster({
      plan: sheetPlan,
      points,
      path: poses,
      sheet: { width: plan.imageWidth, height: plan.imageHeight },
      // The loop closures, as the projection job reads them from reconstruction.json.
      loops: loops.map((l) => ({ a: l.a, b: l.b })),
      confidence,
      ...(process.env.WALK_BENCH_BEND ? { bend: JSON.parse(process.env.WALK_BENCH_BEND) } : {}),
      controls: [poses[0], ...extra.map((k) => poses.find((q) => q.keyframe === k)!), second].map((q) => ({ keyframe: q.keyframe, sheet: toSheet(q.frame) })),
    });
  const threshold = (proj: ReturnType<typeof projectCluster>) => proj.confidence?.thresholdM ?? 0.3;
  /** Each room's distance to where the walk truly was, how many are flagged unsure, and how many are off in silence. */
  const judge = (proj: ReturnType<typeof projectCluster>) => {
    const placed = proj.rooms.map((q): [number, number] => [(q.x - plan.origin.px) / plan.pxPerMetre, (plan.origin.py - q.y) / plan.pxPerMetre]);
    const real = proj.rooms.map((q): [number, number] => [frames[q.frame].x, frames[q.frame].y]);
    const off = placed.map((p, i) => Math.hypot(p[0] - real[i][0], p[1] - real[i][1]));
    const flagged = new Set(proj.confidence?.unsure ?? []);
    return { placed, real, off, flagged, unsure: flagged.size, silent: proj.rooms.filter((q, i) => off[i] > threshold(proj) && !flagged.has(q.keyframe)).length };
  };
  const proj = project([]);
  if (proj.rooms.length < 2) return { rooms: proj.rooms.length, off: [], shape: [], unsure: 0, silent: 0 };
  const first = judge(proj);
  // WALK_BENCH_DETAIL=dir: each room's error, flag and place along the walk, to see where rooms are off in silence.
  if (process.env.WALK_BENCH_DETAIL) {
    fs.mkdirSync(process.env.WALK_BENCH_DETAIL, { recursive: true });
    fs.writeFileSync(
      path.join(process.env.WALK_BENCH_DETAIL, `${planName}-${cluster.id}.json`),
      JSON.stringify({ pins: [poses[0].keyframe, second.keyframe], loops, fittedBy: proj.fittedBy, unitsPerMetre: proj.floor.cameraHeight / 1.6, controlResiduals: proj.controlResiduals, pxPerMetre: plan.pxPerMetre, confidence: proj.confidence, rooms: proj.rooms.map((q, i) => ({ keyframe: q.keyframe, frame: q.frame, off: first.off[i], unsure: first.flagged.has(q.keyframe), placed: first.placed[i], real: first.real[i] })) }),
    );
    fs.copyFileSync(cluster.plyPath, path.join(process.env.WALK_BENCH_DETAIL, `${planName}-${cluster.id}.ply`));
    fs.writeFileSync(path.join(process.env.WALK_BENCH_DETAIL, `${planName}-${cluster.id}.path.json`), JSON.stringify(cluster.path));
  }
  // The user answers each request for one more control point (up to `suggestions` of them), as the stepper asks.
  const answered: number[] = [];
  const rounds: { off: number[]; unsure: number; silent: number }[] = [];
  for (let last = proj; rounds.length < suggestions; ) {
    const suggested = last.confidence?.suggested;
    if (suggested === null || suggested === undefined) break;
    answered.push(suggested);
    last = project(answered);
    const j = judge(last);
    // WALK_BENCH_SILENT=1: each room off in silence after a point asked for, with its certainty and the control points.
    if (process.env.WALK_BENCH_SILENT) {
      const c = last.confidence!;
      const controls = [poses[0].keyframe, ...answered, second.keyframe].join(', ');
      last.rooms.forEach((q, r) => {
        if (j.off[r] > threshold(last) && !j.flagged.has(q.keyframe)) console.log(`  +${rounds.length + 1}: keyframe ${q.keyframe} off ${j.off[r].toFixed(2)} m in silence, its error taken as ${c.errorM[r].toFixed(3)} m (controls ${controls}; drift ${c.driftM.toFixed(3)} m/√m, calibration ${c.calibration.toFixed(2)})`);
      });
    }
    rounds.push({ off: j.off, unsure: j.unsure, silent: j.silent });
  }
  return {
    rooms: proj.rooms.length,
    off: first.off,
    shape: shapeErrors(first.placed, first.real),
    unsure: first.unsure,
    silent: first.silent,
    ...(rounds.length ? { withSuggested: rounds[0], rounds } : {}),
  };
}

interface PlanJson {
  pxPerMetre: number;
  origin: { px: number; py: number };
  imageWidth: number;
  imageHeight: number;
}

export async function runWalk(walk: CachedWalk, work: string): Promise<WalkRun> {
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const steps: Record<RecordedStep, EtaSample[]> = { process: [], 'generate-ply': [] };
  const record = (list: EtaSample[], t0: number) => (percent: number, _message: string, measure?: EtaSample['measure']) => {
    list.push({ t: Math.round(performance.now() - t0), percent: Math.round(percent * 100) / 100, ...(measure ? { measure: { ...measure, done: Math.round(measure.done * 100) / 100, total: Math.round(measure.total * 100) / 100 } } : {}) });
  };
  let peak = treeRss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRss());
  }, 250);
  try {
    const c0 = cpuSeconds();
    const t0 = performance.now();
    const manifest = await processVideo(walk.video, work, record(steps.process, t0));
    const t1 = performance.now();
    // With WALK_BENCH_DETAIL the mappers' models are kept too, to try merges and certainty offline (merge-experiment.ts).
    const detail = process.env.WALK_BENCH_DETAIL;
    if (detail) fs.mkdirSync(detail, { recursive: true });
    // WALK_BENCH_RECONSTRUCT='{…}': reconstruct options over the defaults, to try them on a walk (run with --no-record).
    const tried = JSON.parse(process.env.WALK_BENCH_RECONSTRUCT ?? '{}') as ReconstructOverrides;
    const rec = await reconstruct(work, record(steps['generate-ply'], t1), { ...tried, ...(detail ? { keepModels: path.join(detail, 'models.json') } : {}) });
    // And the keyframes' manifest, so that `merge-experiment.ts --work <detail>` finds each keyframe's frame.
    if (detail) fs.copyFileSync(path.join(work, 'manifest.json'), path.join(detail, 'manifest.json'));
    const t2 = performance.now();
    // The rooms proposed on the sheet: the largest cluster with the start and end pinned where the walk really was; on
    // a walk that took the stairs, each floor segment on its own storey's plan with its own start and end pinned.
    const truth = JSON.parse(fs.readFileSync(walk.pathJson, 'utf8')) as { frames: { x: number; y: number; level?: number | 'stairs' }[] };
    const levelled = rec.clusters.filter((c) => c.level);
    // A building walk too short to take the stairs has one storey's plan among its storeys' (walk.plan-0).
    const oneStoreyPlan = fs.existsSync(path.join(walk.dir, 'walk.plan.json')) ? 'walk.plan' : 'walk.plan-0';
    const proposed = levelled.length
      ? levelled.filter((c) => c.level!.kind === 'floor' && c.path.length >= 2).map((c) => ({ cluster: c, plan: `walk.plan-${c.level!.floor}` }))
      : [...rec.clusters].sort((a, b) => b.path.length - a.path.length).slice(0, 1).filter((c) => c.path.length >= 2).map((c) => ({ cluster: c, plan: oneStoreyPlan }));
    const judged = [];
    for (const { cluster, plan } of proposed) judged.push(await judgeOnSheet(walk, cluster, plan, truth.frames, rec.loops ?? []));
    const rooms = judged.reduce((n, j) => n + j.rooms, 0);
    const all = judged.flatMap((j) => j.off);
    let placement: WalkRun['placement'];
    let withSuggested: WalkRun['withSuggested'];
    if (all.length >= 2) {
      placement = { meanM: mean(all), p95M: p95(all), shapeM: mean(judged.flatMap((j) => j.shape)) };
      const again = judged.flatMap((j) => j.withSuggested?.off ?? j.off);
      if (judged.some((j) => j.withSuggested)) {
        withSuggested = { meanM: mean(again), p95M: p95(again), unsure: judged.reduce((n, j) => n + (j.withSuggested ?? j).unsure, 0), silent: judged.reduce((n, j) => n + (j.withSuggested ?? j).silent, 0) };
      }
    }
    const unsure = all.length >= 2 ? judged.reduce((n, j) => n + j.unsure, 0) : undefined;
    const silent = all.length >= 2 ? judged.reduce((n, j) => n + j.silent, 0) : undefined;
    // Floors: segments, keyframes laid on a floor they were not on (the truth's level), keyframes kept apart as stairs.
    const floors = levelled.length
      ? {
          segments: levelled.map((c) => (c.level!.kind === 'floor' ? `floor ${c.level!.floor} (${c.path.length})` : `stairs (${c.path.length})`)).join(', '),
          wrongFloor: levelled.filter((c) => c.level!.kind === 'floor').reduce((n, c) => n + c.path.filter((p) => typeof truth.frames[p.frame].level === 'number' && truth.frames[p.frame].level !== c.level!.floor).length, 0),
          stairs: levelled.filter((c) => c.level!.kind === 'stairs').reduce((n, c) => n + c.path.length, 0),
        }
      : undefined;
    const t3 = performance.now();
    return {
      keyframes: manifest.keyframes.length,
      placed: manifest.keyframes.length - rec.unplaced.length,
      rooms,
      placement,
      unsure,
      silent,
      withSuggested,
      floors,
      submaps: rec.stats.submaps,
      ms: { process: t1 - t0, 'generate-ply': t2 - t1, project: t3 - t2, total: t3 - t0 },
      cpuSeconds: cpuSeconds() - c0,
      peakRssBytes: Math.max(peak, treeRss()),
      timings: Object.fromEntries([
        ...Object.entries(manifest.timings.wall).map(([k, v]) => [`process.${k}`, v]),
        ...Object.entries(rec.timings.wall).map(([k, v]) => [`generate-ply.${k}`, v]),
      ]),
      steps,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** A run's progress reports as the remaining-time harness reads them (bench/video-progress-*.json). */
export interface ProgressRecording {
  walk_seconds: number;
  seed?: number;
  cores: number;
  recorded: string;
  load?: { before: string; after: string };
  duration_ms: Record<RecordedStep, number>;
  /** The run's stage timings as the worker stores them: `process.decode`, `generate-ply.mapping`, … (seconds). */
  timings?: Record<string, number>;
  steps: Record<RecordedStep, EtaSample[]>;
}

/** Saves a run's reports beside the bench for the remaining-time harness; returns the file. */
export function saveRecording(run: WalkRun, walk: { seconds: number; seed: number }, meta: { cores: number; recorded: string; load: { before: string; after: string } }): string {
  // One file per run (the time it was recorded in its name): the harness learns each run's profile from the others.
  const stamp = meta.recorded.replace(/[^0-9]/g, '').slice(0, 12);
  const out = path.join(path.dirname(new URL(import.meta.url).pathname), `video-progress-${walk.seconds}s-seed${walk.seed}-${stamp}.json`);
  const recording: ProgressRecording = {
    walk_seconds: walk.seconds,
    seed: walk.seed,
    ...meta,
    duration_ms: { process: Math.round(run.ms.process), 'generate-ply': Math.round(run.ms['generate-ply']) },
    timings: run.timings,
    steps: run.steps,
  };
  fs.writeFileSync(out, `${JSON.stringify(recording)}\n`);
  return out;
}
