import fsp from 'node:fs/promises';
import path from 'node:path';
import { ColmapError, extractFeatures, matchPairs, modelToText, runMapper } from '../adapters/colmap.js';
import { ReconstructionFailed } from './errors.js';
import { centreOf, matToQuat, parseImages, parsePoints, quatToMat, rigRotationFromView, type Mat3, type ModelImage, type ModelPoint, type Vec3 } from './colmap-model.js';
import { DEFAULT_PAIR_OPTIONS, choosePairs, type PairOptions } from './pairs.js';
import { writePly } from './ply.js';
import { readManifest, type OnProgress, type ProcessManifest } from './process.js';
import { StageClock } from './run-tool.js';

/** One placed keyframe of a cluster's camera path. */
export interface PathPose {
  /** Keyframe number (walking order). */
  keyframe: number;
  /** Frame number in the video. */
  frame: number;
  /** Seconds from the start of the video. */
  time: number;
  /** Camera centre in the cluster's frame (mean of its views' centres). */
  centre: Vec3;
  /** World → camera rotation of view 0 (yaw 0 of the 360 image) as a quaternion (w, x, y, z), COLMAP's axes (x right, y down, z forward). */
  rotation: [number, number, number, number];
  /** How many of the keyframe's views were placed. */
  views: number;
}

export interface Cluster {
  /** 0, 1, …: the largest first (the `osfm_cluster` number). */
  id: number;
  /** Binary PLY of the cluster's points (absolute path). */
  plyPath: string;
  /** JSON of `path` (absolute path). */
  pathPath: string;
  points: number;
  path: PathPose[];
}

export interface Reconstruction {
  clusters: Cluster[];
  /** Keyframes placed in no cluster. */
  unplaced: number[];
  /** Seconds per stage: wall clock, and CPU of this process and its tools. */
  timings: { wall: Record<string, number>; cpu: Record<string, number> };
  stats: { pairs: number; viewsRegistered: number; viewsTotal: number };
}

export interface ReconstructOptions {
  maxFeatures: number;
  /** SIFT first octave (−1 doubles the views first; 0 is about 4× faster). */
  firstOctave: number;
  /** Upright SIFT (one orientation a feature) for 360 views; a flat video's frames keep rotated features. */
  upright: boolean;
  /** SIFT peak threshold (COLMAP's default 0.0067). */
  peakThreshold: number;
  /** RANSAC trials of the two-view verification of a pair. */
  maxTrials: number;
  /**
   * Keep a match only when each feature is the other's nearest neighbour (COLMAP's default). Off, each pair
   * is searched one way only: about 40 % less matching CPU, and the two-view verification drops what the
   * check would have.
   */
  crossCheck: boolean;
  threads: number;
  pairs: PairOptions;
  /** Extra COLMAP `Mapper.*` options. */
  mapper: Record<string, string | number | boolean>;
  /** Clusters with fewer keyframes than this are not kept (their keyframes are unplaced). */
  minClusterFrames: number;
  signal?: AbortSignal;
}

export const DEFAULT_RECONSTRUCT_OPTIONS: ReconstructOptions = {
  maxFeatures: 768,
  firstOctave: 0,
  // The views are cut level from the 360 frame (their up is the world's up, within a handheld tilt of a few degrees),
  // so one orientation per feature: no second copy of a feature with another orientation to describe and match, and
  // matches that cannot pair features turned against each other. With the three 130° views and the higher peak
  // threshold (only the more contrasted features: ≈ 510 a view instead of ≈ 670), measured on the 50 s loop:
  // features 23 CPU-s instead of 31, matching 35 instead of 38, mapping 41 instead of 42, and placement with start and
  // end 0.019 m instead of 0.185 m (best-fit shape 0.008 m); on the 36 s reversed, tilting walk 0.140 m against 0.102 m
  // (one run each: the placement scatters from run to run; with ties on every second keyframe, pairs.ts, 0.083 and 0.055 m).
  upright: true,
  peakThreshold: 0.01,
  maxTrials: 2000,
  // Measured on two generated walks with the mapper options below (50 s loop, 109 keyframes; 36 s reversed, faster,
  // bobbing and tilting, 91 keyframes): matching 52 CPU-s instead of about 75 on the first, 41 instead of 75 on the
  // second; placement with start and end 0.119 → 0.074 m and 0.066 → 0.088 m (within run-to-run scatter).
  crossCheck: false,
  threads: 2,
  pairs: DEFAULT_PAIR_OPTIONS,
  mapper: {
    init_min_tri_angle: 8,
    // Global bundle adjustment only when the model grew by 2.5× (the mapper ends with one anyway), shorter local
    // adjustments, and both threads in every adjustment of more than 5,000 residuals (COLMAP's 50,000 kept most of
    // them on one core): 50 CPU-s of mapping instead of 73 on the 50 s walk at the same placement. Rarer or shorter
    // still (4×, 8 iterations) halved the CPU again but doubled the placement error.
    ba_global_images_ratio: 2.5,
    ba_global_points_ratio: 2.5,
    ba_global_max_num_iterations: 30,
    ba_global_max_refinements: 2,
    ba_local_max_num_iterations: 12,
    ba_local_max_refinements: 1,
    ba_min_num_residuals_for_multi_threading: 5000,
  },
  minClusterFrames: 3,
};

export const RECONSTRUCTION_DIR = 'reconstruction';

/**
 * Groups the registered views of each COLMAP component by keyframe. A
 * keyframe belongs to the component holding most of its views; its centre
 * is the mean of those views' centres (the views of one 360 frame share a
 * centre) and its rotation that of view 0, derived from any placed view
 * through the known yaw between views.
 */
export function framesOfComponents(
  manifest: ProcessManifest,
  components: ModelImage[][],
): { component: number; pose: PathPose }[] {
  const byName = new Map<string, { keyframe: number; view: number; yawDeg: number }>();
  for (const k of manifest.keyframes) for (const v of k.views) byName.set(v.name, { keyframe: k.index, view: v.view, yawDeg: v.yawDeg });
  const out: { component: number; pose: PathPose }[] = [];
  const perFrame = new Map<number, { component: number; imgs: { img: ModelImage; yawDeg: number; view: number }[] }[]>();
  components.forEach((imgs, c) => {
    for (const img of imgs) {
      const ref = byName.get(img.name);
      if (!ref) continue;
      const list = perFrame.get(ref.keyframe) ?? [];
      let entry = list.find((e) => e.component === c);
      if (!entry) list.push((entry = { component: c, imgs: [] }));
      entry.imgs.push({ img, yawDeg: ref.yawDeg, view: ref.view });
      perFrame.set(ref.keyframe, list);
    }
  });
  for (const k of manifest.keyframes) {
    const list = perFrame.get(k.index);
    if (!list) continue;
    const best = list.reduce((a, b) => (b.imgs.length > a.imgs.length ? b : a));
    const centre: Vec3 = [0, 0, 0];
    for (const { img } of best.imgs) {
      const c = centreOf(img);
      for (let i = 0; i < 3; i++) centre[i] += c[i] / best.imgs.length;
    }
    const first = best.imgs.find((e) => e.view === 0) ?? best.imgs[0];
    const rot: Mat3 = rigRotationFromView(quatToMat(first.img.q), first.yawDeg);
    out.push({ component: best.component, pose: { keyframe: k.index, frame: k.frame, time: k.time, centre, rotation: matToQuat(rot), views: best.imgs.length } });
  }
  return out;
}

async function readComponent(dir: string, txtDir: string, signal?: AbortSignal): Promise<{ images: ModelImage[]; points: ModelPoint[] }> {
  await modelToText(dir, txtDir, signal);
  const [images, points] = await Promise.all([fsp.readFile(path.join(txtDir, 'images.txt'), 'utf8'), fsp.readFile(path.join(txtDir, 'points3D.txt'), 'utf8')]);
  return { images: parseImages(images), points: parsePoints(points) };
}

/**
 * Step "generate-ply": structure-from-motion of the perspective views that
 * `processVideo` wrote in `workDir`, with COLMAP (features, matching of the
 * chosen view pairs, incremental mapping with the known focal length).
 * Writes `reconstruction/cluster-N.ply` and `cluster-N.path.json` per
 * cluster and `reconstruction/reconstruction.json`; nothing when it fails
 * (`ReconstructionFailed`, with the keyframes that could not be placed).
 */
export async function reconstruct(
  workDir: string,
  onProgress: OnProgress = () => undefined,
  options: Partial<ReconstructOptions> = {},
): Promise<Reconstruction> {
  const opts = { ...DEFAULT_RECONSTRUCT_OPTIONS, ...options, mapper: { ...DEFAULT_RECONSTRUCT_OPTIONS.mapper, ...options.mapper } };
  const manifest = await readManifest(workDir);
  const clock = new StageClock();
  const lap = (name: string) => clock.lap(name);
  const stage = await fsp.mkdtemp(path.join(workDir, '.sfm-'));
  const database = path.join(stage, 'database.db');
  const imageDir = path.join(workDir, 'views');
  const all = manifest.keyframes.map((k) => k.index);
  const nViews = manifest.keyframes.length * manifest.views.count;
  try {
    const { focal, width, height } = manifest.views;
    // A flat video's lens is only guessed: a camera with one radial term whose focal length the mapper refines.
    const flat = manifest.kind === 'flat';
    const camera = flat ? { model: 'SIMPLE_RADIAL' as const, params: [focal, width / 2, height / 2, 0] } : undefined;
    onProgress(0, 'Finding features in the keyframes');
    await extractFeatures(
      { database, imageDir, pinhole: [focal, focal, width / 2, height / 2], camera, maxFeatures: opts.maxFeatures, firstOctave: opts.firstOctave, upright: opts.upright && !flat, peakThreshold: opts.peakThreshold, threads: opts.threads, signal: opts.signal },
      (done, total) => onProgress((30 * done) / (total || nViews), `Finding features (${done} of ${total} views)`),
    );
    lap('features');

    // One view a keyframe (flat): more neighbours along the walk make up for the views it does not have.
    const pairs = choosePairs(manifest.keyframes, flat ? { ...opts.pairs, neighbours: Math.max(opts.pairs.neighbours, 4), sameFrameMaxAngleDeg: 0 } : opts.pairs);
    onProgress(30, 'Matching neighbouring keyframes');
    await matchPairs({ database, pairs, threads: opts.threads, workDir: stage, maxTrials: opts.maxTrials, crossCheck: opts.crossCheck, signal: opts.signal }, (done, total) =>
      onProgress(30 + (20 * done) / (total || 1), `Matching neighbouring keyframes (block ${done} of ${total})`),
    );
    lap('matching');

    onProgress(50, 'Placing the keyframes');
    const sparse = path.join(stage, 'sparse');
    let registered = 0;
    try {
      await runMapper({ database, imageDir, outputDir: sparse, threads: opts.threads, mapper: opts.mapper, refineIntrinsics: flat, signal: opts.signal }, (_id, k) => {
        registered = Math.max(registered, k ?? 0);
        onProgress(50 + 45 * Math.min(1, registered / nViews), `Placing the keyframes (${Math.ceil(registered / manifest.views.count)} of ${manifest.keyframes.length})`);
      });
    } catch (err) {
      if (err instanceof ColmapError) {
        throw new ReconstructionFailed(`The walk could not be reconstructed (${/initial|pair/i.test(err.message) ? 'no starting pair of keyframes was found' : 'the mapper stopped'}). Film again with more texture in view and a slower walk.`, all);
      }
      throw err;
    }
    lap('mapping');

    const models = (await fsp.readdir(sparse).catch(() => [] as string[])).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(a) - Number(b));
    const comps: { images: ModelImage[]; points: ModelPoint[] }[] = [];
    for (const m of models) comps.push(await readComponent(path.join(sparse, m), path.join(stage, `txt-${m}`), opts.signal));
    const frames = framesOfComponents(manifest, comps.map((c) => c.images));
    // Clusters by size, largest first; too small ones are dropped.
    const sizes = comps.map((_, c) => frames.filter((f) => f.component === c).length);
    const order = comps.map((_, c) => c).filter((c) => sizes[c] >= opts.minClusterFrames).sort((a, b) => sizes[b] - sizes[a] || a - b);
    if (!order.length) {
      throw new ReconstructionFailed(
        `The walk could not be reconstructed: ${frames.length ? `only ${frames.length} of ${manifest.keyframes.length} keyframes could be placed together` : 'too few features matched between keyframes'}. Film again with more texture in view and a slower walk.`,
        all.filter((i) => !frames.some((f) => f.pose.keyframe === i && sizes[f.component] >= opts.minClusterFrames)),
      );
    }
    const outDir = path.join(stage, 'out');
    await fsp.mkdir(outDir);
    const clusters: Cluster[] = [];
    for (const [id, c] of order.entries()) {
      const pts = comps[c].points;
      const xyz = new Float32Array(pts.length * 3);
      const rgb = new Uint8Array(pts.length * 3);
      pts.forEach((p, i) => {
        xyz.set(p.xyz, i * 3);
        rgb.set(p.rgb, i * 3);
      });
      const pathPoses = frames.filter((f) => f.component === c).map((f) => f.pose).sort((a, b) => a.keyframe - b.keyframe);
      await writePly(path.join(outDir, `cluster-${id}.ply`), { xyz, rgb });
      await fsp.writeFile(path.join(outDir, `cluster-${id}.path.json`), JSON.stringify(pathPoses));
      clusters.push({
        id,
        plyPath: path.join(workDir, RECONSTRUCTION_DIR, `cluster-${id}.ply`),
        pathPath: path.join(workDir, RECONSTRUCTION_DIR, `cluster-${id}.path.json`),
        points: pts.length,
        path: pathPoses,
      });
    }
    const placed = new Set(clusters.flatMap((c) => c.path.map((p) => p.keyframe)));
    const viewsRegistered = new Set(comps.flatMap((c) => c.images.map((i) => i.name))).size;
    lap('export');
    const result: Reconstruction = {
      clusters,
      unplaced: all.filter((i) => !placed.has(i)),
      timings: { wall: clock.wall, cpu: clock.cpu },
      stats: { pairs: pairs.length, viewsRegistered, viewsTotal: nViews },
    };
    await fsp.writeFile(path.join(outDir, 'reconstruction.json'), JSON.stringify({ ...result, clusters: clusters.map(({ path: _p, ...c }) => c) }, null, 1));
    const final = path.join(workDir, RECONSTRUCTION_DIR);
    await fsp.rm(final, { recursive: true, force: true });
    await fsp.rename(outDir, final);
    onProgress(100, `${placed.size} of ${manifest.keyframes.length} keyframes placed in ${clusters.length} ${clusters.length === 1 ? 'cluster' : 'clusters'}`);
    return result;
  } catch (err) {
    if (err instanceof ColmapError) throw new ReconstructionFailed(`The walk could not be reconstructed (${err.command} failed).`, all);
    throw err;
  } finally {
    await fsp.rm(stage, { recursive: true, force: true });
  }
}
