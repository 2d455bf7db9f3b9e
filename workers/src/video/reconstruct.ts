import fsp from 'node:fs/promises';
import path from 'node:path';
import { ColmapError, extractFeatures, matchPairs, modelToText, runMapper } from '../adapters/colmap.js';
import { ReconstructionFailed } from '@sitewalk/core/tools/errors.js';
import { parseImages, parsePoints, type ModelImage, type ModelPoint } from './colmap-model.js';
import { matToQuat, type Vec3 } from './linear-algebra.js';
import { DEFAULT_LOOP_OPTIONS, findLoopPairs, panoramaOf, type LoopOptions, type LoopPair, type Panorama } from './loop-closure.js';
import { DEFAULT_PAIR_OPTIONS, angleDiff, choosePairs, matchRuns, type PairOptions } from './pairs.js';
import { DEFAULT_SUBMAP_OPTIONS, planSubmaps, type Anchor, type Submap, type SubmapOptions } from './submaps.js';
import { DEFAULT_BRIDGE_OPTIONS, DEFAULT_LOOP_BRIDGE_OPTIONS, planBridges, planLoopBridges, type BridgeOptions, type LoopBridgeOptions } from './bridges.js';
import sharp from 'sharp';
import { splitClusterByFloor, type FloorSegment } from './floors.js';
import { upFromRotations } from './projection.js';
import { writePly } from './ply.js';
import { DEFAULT_MERGE_OPTIONS, mergeRigModels, sightingsOf, type MergedCluster, type MergedPose, type RigModel, type ViewRef } from './rig-merge.js';
import { DEFAULT_RELAX_OPTIONS, type RelaxOptions } from './walk-relax.js';
import { readManifest, type OnProgress, type ProcessManifest } from './process.js';
import { StageClock } from '@sitewalk/core/tools/run-tool.js';

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
  /** How far the models placing it disagree, in the cluster's units (rig-merge.ts); absent in older reconstructions. */
  spread?: number;
  /** How many models place it. */
  placers?: number;
  /** Which models place it (rig-merge.ts); absent in older reconstructions. */
  models?: number[];
}

/** A joined keyframe as the camera path keeps it, with its frame and time in the video. */
export const pathPoseOf = (p: MergedPose, k: { frame: number; time: number }): PathPose => ({
  keyframe: p.keyframe,
  frame: k.frame,
  time: k.time,
  centre: p.centre,
  rotation: matToQuat(p.rotation),
  views: p.views,
  spread: p.spread,
  placers: p.placers,
  models: p.models,
});

export interface Cluster {
  /** 0, 1, …: the largest first (the `osfm_cluster` number). */
  id: number;
  /** Binary PLY of the cluster's points (absolute path). */
  plyPath: string;
  /** JSON of `path` (absolute path). */
  pathPath: string;
  points: number;
  path: PathPose[];
  /** The storey of a walk that took the stairs (floors.ts): 'floor' n (0 the lowest) or 'stairs'; absent on one storey. */
  level?: { kind: FloorSegment['kind']; floor: number | null };
}

export interface Reconstruction {
  clusters: Cluster[];
  /** Keyframes placed in no cluster. */
  unplaced: number[];
  /** Seconds per stage: wall clock, and CPU of this process and its tools. */
  timings: { wall: Record<string, number>; cpu: Record<string, number> };
  stats: { pairs: number; viewsRegistered: number; viewsTotal: number; loopPairs?: number; submaps?: number; bridges?: number };
  /** Keyframe pairs found to show the same place on two passes of the walk (loop-closure.ts). */
  loops?: LoopPair[];
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
  /** Loop closure: places the walk passes again are recognised and their views matched (false: off; a flat video has none). */
  loops: LoopOptions | false;
  /** Windows of a long walk mapped on their own (submaps.ts). */
  submaps: SubmapOptions;
  /**
   * A walk mapped in several windows bends where its models disagree (walk-relax.ts) rather than keeping each window
   * rigid (false: rigid). Measured on the two-storey building walk's kept models (bench/merge-experiment.ts): each
   * floor's shape 0.30 and 0.34 m rigid, 0.14 and 0.14 m bent.
   */
  relax: RelaxOptions | false;
  /** Where the walk's clusters meet, a short stretch mapped again with `bridgeMapper` to tie them (bridges.ts; false: off). */
  bridges: BridgeOptions | false;
  /** The two ends of loops no model ties mapped together (bridges.ts planLoopBridges; false: off). */
  loopBridges: LoopBridgeOptions | false;
  /** `Mapper.*` options of a bridge over those of `mapper`. */
  bridgeMapper: Record<string, string | number | boolean>;
  /** Benches only: a JSON file the models' placed views and the views' keyframes are written to, to try merges offline. */
  keepModels?: string;
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
  // (one run each: the placement scatters from run to run).
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
    // still (4×, 8 iterations) halved the CPU again but doubled the placement error. (Measured with one mapper over all
    // views; each direction's mapper now has one thread of its own, so the multi-threading threshold matters only
    // where a mapper gets several: a flat video's, or VIDEO_COLMAP_THREADS above the directions.)
    ba_global_images_ratio: 2.5,
    ba_global_points_ratio: 2.5,
    ba_global_max_num_iterations: 30,
    ba_global_max_refinements: 2,
    ba_local_max_num_iterations: 12,
    ba_local_max_refinements: 1,
    ba_min_num_residuals_for_multi_threading: 5000,
  },
  minClusterFrames: 3,
  loops: DEFAULT_LOOP_OPTIONS,
  submaps: DEFAULT_SUBMAP_OPTIONS,
  relax: DEFAULT_RELAX_OPTIONS,
  bridges: DEFAULT_BRIDGE_OPTIONS,
  loopBridges: DEFAULT_LOOP_BRIDGE_OPTIONS,
  // Half of COLMAP's 30 inliers to place a view and of its 100 for the first pair: enough to go through a door into
  // a plain room that every direction's model stopped at, on a stretch short enough not to drift.
  bridgeMapper: { abs_pose_min_num_inliers: 15, init_min_num_inliers: 50 },
};

/** Options over the defaults: the mapper's and the pair choice's each over their own defaults. */
export type ReconstructOverrides = Partial<Omit<ReconstructOptions, 'pairs'>> & { pairs?: Partial<PairOptions> };

/** Size of the grey equirectangular thumbnails the keyframes are recognised by (loop-closure.ts). */
const PANORAMA_WIDTH = 128;

/** Each keyframe's panorama, from its 360 image (a few milliseconds each). */
async function readPanoramas(workDir: string, manifest: ProcessManifest): Promise<Panorama[]> {
  const out: Panorama[] = [];
  for (const k of manifest.keyframes) {
    const grey = await sharp(path.join(workDir, k.room)).greyscale().resize(PANORAMA_WIDTH, PANORAMA_WIDTH / 2, { fit: 'fill' }).raw().toBuffer();
    out.push(panoramaOf(new Uint8Array(grey.buffer, grey.byteOffset, grey.length), PANORAMA_WIDTH, PANORAMA_WIDTH / 2));
  }
  return out;
}

export const RECONSTRUCTION_DIR = 'reconstruction';

async function readComponent(dir: string, txtDir: string, signal?: AbortSignal): Promise<{ images: ModelImage[]; points: ModelPoint[] }> {
  await modelToText(dir, txtDir, signal);
  const [images, points] = await Promise.all([fsp.readFile(path.join(txtDir, 'images.txt'), 'utf8'), fsp.readFile(path.join(txtDir, 'points3D.txt'), 'utf8')]);
  return { images: parseImages(images), points: parsePoints(points) };
}

/**
 * One COLMAP mapper for each view direction of each submap (submaps.ts),
 * three at a time. The directions are matched only among themselves
 * (pairs.ts), so one mapper over every view would build a model per
 * direction anyway, and spend most of its time trying views of the other
 * directions at every step: measured on the 50 s loop, 9 s of wall and
 * 16 CPU-s for the three mappers together against 12–27 s and 16–39 CPU-s
 * for one. Each mapper gets its share of the threads (a flat video's one
 * direction gets them all). A mapper COLMAP cannot start (no initial pair)
 * is left out while another gives a model; rig-merge.ts joins the models
 * by the keyframes they share.
 */
async function mapSubmaps(
  manifest: ProcessManifest,
  submaps: Submap[],
  o: { database: string; imageDir: string; sparse: string; flat: boolean; opts: ReconstructOptions },
  onRegistered: (views: number, total: number) => void,
): Promise<RigModel[]> {
  const directions = [...new Set(manifest.keyframes.flatMap((k) => k.views.map((v) => v.view)))].sort((a, b) => a - b);
  const threads = Math.max(1, Math.floor(o.opts.threads / directions.length));
  const viewsOf = new Map(manifest.keyframes.map((k) => [k.index, k.views]));
  const yawOf = new Map(manifest.keyframes.flatMap((k) => k.views.map((v) => [v.view, v.yawDeg] as const)));
  // An anchor's view that looks where this direction looks in its partner of the window (the loop's turn taken into
  // account, as its views were matched: pairs.ts), whichever direction it is of the anchor's own rig.
  const anchorView = (a: Anchor, d: number) => {
    const views = (viewsOf.get(a.keyframe) ?? []).map((v) => ({ v, off: angleDiff(v.yawDeg + a.turnDeg, yawOf.get(d) ?? 0) }));
    const best = views.sort((x, y) => x.off - y.off)[0];
    return best && best.off < o.opts.pairs.maxAngleDeg ? [best.v.name] : [];
  };
  const jobs = submaps.flatMap((s, w) =>
    directions.map((d) => ({
      outputDir: path.join(o.sparse, `s${w}-v${d}`),
      imageList: [...s.keyframes.flatMap((k) => (viewsOf.get(k) ?? []).filter((v) => v.view === d).map((v) => v.name)), ...s.anchors.flatMap((a) => anchorView(a, d))],
    })),
  );
  const total = jobs.reduce((n, j) => n + j.imageList.length, 0);
  // Views registered so far per mapper: the current model's count plus the finished models' (the count restarts with each model).
  const done = jobs.map(() => ({ finished: 0, current: 0 }));
  const runOne = async (i: number) => {
    const { outputDir, imageList } = jobs[i];
    await runMapper({ database: o.database, imageDir: o.imageDir, outputDir, imageList, threads, mapper: o.opts.mapper, refineIntrinsics: o.flat, signal: o.opts.signal }, (_id, k) => {
      const n = k ?? 0;
      if (n < done[i].current) done[i].finished += done[i].current;
      done[i].current = n;
      onRegistered(done.reduce((sum, c) => sum + c.finished + c.current, 0), total);
    });
    const names = (await fsp.readdir(outputDir)).filter((m) => /^\d+$/.test(m)).sort((a, b) => Number(a) - Number(b));
    return Promise.all(names.map(async (m) => ({ ...(await readComponent(path.join(outputDir, m), path.join(outputDir, `txt-${m}`), o.opts.signal)), source: `${path.basename(outputDir)}/${m}` })));
  };
  // As many mappers at once as there are directions: one submap's directions side by side, as before submaps.
  const runs: PromiseSettledResult<RigModel[]>[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    directions.map(async () => {
      while (next < jobs.length) {
        const i = next++;
        runs[i] = await runOne(i).then(
          (value) => ({ status: 'fulfilled' as const, value }),
          (reason: unknown) => ({ status: 'rejected' as const, reason }),
        );
        // Anything but COLMAP failing to map (a cancelled job, a disk error) stops the rest at once.
        if (runs[i].status === 'rejected' && !((runs[i] as PromiseRejectedResult).reason instanceof ColmapError)) next = jobs.length;
      }
    }),
  );
  const settled = runs.filter(Boolean);
  const other = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof ColmapError));
  if (other) throw other.reason;
  const models = settled.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (!models.length && failed) {
    const err = failed.reason as ColmapError;
    throw new ReconstructionFailed(
      `The walk could not be reconstructed (${/initial|pair/i.test(err.message) ? 'no starting pair of keyframes was found' : 'the mapper stopped'}). Film again with more texture in view and a slower walk.`,
      manifest.keyframes.map((k) => k.index),
    );
  }
  return models;
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
  options: ReconstructOverrides = {},
): Promise<Reconstruction> {
  const opts: ReconstructOptions = {
    ...DEFAULT_RECONSTRUCT_OPTIONS,
    ...options,
    mapper: { ...DEFAULT_RECONSTRUCT_OPTIONS.mapper, ...options.mapper },
    pairs: { ...DEFAULT_RECONSTRUCT_OPTIONS.pairs, ...options.pairs },
  };
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
      (done, total) => onProgress((30 * done) / (total || nViews), `Finding features (${done} of ${total} views)`, { phase: 'features', unit: 'views', done, total: total || nViews, span: [0, 30] }),
    );
    lap('features');

    // One view a keyframe (flat): more neighbours along the walk make up for the views it does not have.
    // Loop closure (360 only: a flat view does not see the whole place): pairs of keyframes far apart along the walk
    // that show the same place, and the turn between them, so that their views looking the same way are matched too.
    const loops = !flat && opts.loops ? findLoopPairs(manifest.keyframes, await readPanoramas(workDir, manifest), opts.loops).pairs : [];
    lap('loops');
    const pairs = choosePairs(manifest.keyframes, flat ? { ...opts.pairs, neighbours: Math.max(opts.pairs.neighbours, 4) } : opts.pairs, loops);
    onProgress(30, 'Matching neighbouring keyframes');
    // COLMAP matches a pair list in blocks of 1,225 pairs and reports only whole blocks: a walk of a minute or two is
    // one block, and its matching (up to half the step) would show no progress and no rate for the time left. The
    // list is given in runs (matchRuns) in walking order (each run loads the descriptors of the
    // keyframes it pairs, mostly its own), so the progress moves in steps of an eighth at least.
    const runs = matchRuns(pairs);
    for (const [r, run] of runs.entries()) {
      await matchPairs({ database, pairs: run, threads: opts.threads, workDir: stage, maxTrials: opts.maxTrials, crossCheck: opts.crossCheck, signal: opts.signal }, (done, total) => {
        const blocks = r + done / (total || 1);
        onProgress(30 + (20 * blocks) / runs.length, `Matching neighbouring keyframes (part ${Math.min(runs.length, Math.floor(blocks) + 1)} of ${runs.length})`, { phase: 'matching', unit: 'blocks', done: blocks, total: runs.length, span: [30, 50] });
      });
    }
    lap('matching');

    onProgress(50, 'Placing the keyframes');
    const sparse = path.join(stage, 'sparse');
    // The time after the last view was placed is the mappers' final adjustment: timed as a stage of its own ('refine').
    let lastPlacedAt = Date.now();
    // A long walk is mapped in windows (submaps.ts); the places it comes back to give the later windows their anchors.
    const order = manifest.keyframes.map((k) => k.index);
    const submaps = planSubmaps(order, flat ? [] : loops, opts.submaps);
    const models = await mapSubmaps(manifest, submaps, { database, imageDir, sparse, flat, opts }, (registered, total) => {
      lastPlacedAt = Date.now();
      const share = Math.min(1, registered / total);
      onProgress(50 + 45 * share, `Placing the keyframes (${Math.round(share * manifest.keyframes.length)} of ${manifest.keyframes.length})`, { phase: 'mapping', unit: 'images', done: Math.min(registered, total), total, span: [50, 95] });
    });
    clock.lapWithTail('mapping', 'refine', (Date.now() - lastPlacedAt) / 1000);

    const refs = new Map<string, ViewRef>();
    for (const k of manifest.keyframes) for (const v of k.views) refs.set(v.name, { keyframe: k.index, yawDeg: v.yawDeg });
    // One window is one rigid picture of the walk (its view directions agree); several may each have drifted.
    const mergeOptions = { ...DEFAULT_MERGE_OPTIONS, relax: submaps.length > 1 && opts.relax ? opts.relax : null };
    let joined = mergeRigModels(models, refs, mergeOptions);
    // Where the walk goes from one cluster into another (a door into a plain room every direction stopped at), a short
    // stretch around the break is mapped again with a lower threshold, and the clusters joined through it.
    // And where the walk passed a place twice but no model holds both passes (a piece cut off at a door, tied to the
    // rest at one end only), the two passes are mapped together.
    const placedBy = models.map((m) => [...sightingsOf(m, refs).keys()]);
    const bridges: Submap[] = [
      ...(opts.bridges ? planBridges(order, joined.filter((c) => c.poses.length >= opts.minClusterFrames).map((c) => c.poses.map((p) => p.keyframe)), opts.bridges) : []).map((keyframes) => ({ keyframes, anchors: [] })),
      ...(opts.loopBridges && !flat ? planLoopBridges(order, loops, placedBy, opts.loopBridges) : []),
    ];
    if (bridges.length) {
      onProgress(95, `Joining the walk's pieces (${bridges.length} ${bridges.length === 1 ? 'bridge' : 'bridges'})`);
      const bridgeModels = await mapSubmaps(
        manifest,
        bridges,
        { database, imageDir, sparse: path.join(stage, 'bridges'), flat, opts: { ...opts, mapper: { ...opts.mapper, ...opts.bridgeMapper } } },
        () => undefined,
      ).catch((err: unknown) => {
        // A bridge COLMAP cannot map leaves the clusters as they were; a cancelled job stops.
        if (err instanceof ReconstructionFailed) return [];
        throw err;
      });
      models.push(...bridgeModels.map((m) => ({ ...m, source: `bridge ${m.source}`, bridge: true })));
      if (bridgeModels.length) joined = mergeRigModels(models, refs, mergeOptions);
      lap('bridges');
    }
    // The models kept for the benches' offline tries (merge-experiment.ts, remerge-replay.ts), their points flat.
    if (opts.keepModels) {
      const kept = models.map((m) => ({ images: m.images, points: [], xyz: m.points.flatMap((p) => p.xyz), rgb: m.points.flatMap((p) => p.rgb), source: m.source, bridge: m.bridge }));
      await fsp.writeFile(opts.keepModels, JSON.stringify({ models: kept, refs: [...refs] }));
    }
    const merged = clustersByFloor(joined, flat, opts.minClusterFrames);
    if (!merged.length) {
      const seen = new Set(models.flatMap((m) => m.images.flatMap((i) => refs.get(i.name)?.keyframe ?? [])));
      throw new ReconstructionFailed(
        `The walk could not be reconstructed: ${seen.size ? `only ${seen.size} of ${manifest.keyframes.length} keyframes could be placed together` : 'too few features matched between keyframes'}. Film again with more texture in view and a slower walk.`,
        all,
      );
    }
    const outDir = path.join(stage, 'out');
    await fsp.mkdir(outDir);
    const byIndex = new Map(manifest.keyframes.map((k) => [k.index, k]));
    const clusters: Cluster[] = [];
    for (const [id, c] of merged.entries()) {
      const pathPoses = c.poses.map((p) => pathPoseOf(p, byIndex.get(p.keyframe)!));
      await writePly(path.join(outDir, `cluster-${id}.ply`), { xyz: c.xyz, rgb: c.rgb });
      await fsp.writeFile(path.join(outDir, `cluster-${id}.path.json`), JSON.stringify(pathPoses));
      clusters.push({
        id,
        plyPath: path.join(workDir, RECONSTRUCTION_DIR, `cluster-${id}.ply`),
        pathPath: path.join(workDir, RECONSTRUCTION_DIR, `cluster-${id}.path.json`),
        points: c.xyz.length / 3,
        path: pathPoses,
        ...(c.level ? { level: c.level } : {}),
      });
    }
    const placed = new Set(clusters.flatMap((c) => c.path.map((p) => p.keyframe)));
    const viewsRegistered = new Set(models.flatMap((m) => m.images.map((i) => i.name))).size;
    lap('export');
    const result: Reconstruction = {
      clusters,
      unplaced: all.filter((i) => !placed.has(i)),
      timings: { wall: clock.wall, cpu: clock.cpu },
      stats: { pairs: pairs.length, viewsRegistered, viewsTotal: nViews, loopPairs: loops.length, submaps: submaps.length, bridges: bridges.length },
      loops,
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

/**
 * The joined clusters as they are laid on sheets: a walk that took the stairs splits into each storey and each flight
 * (floors.ts), every one a cluster of its own; the clusters of fewer than `minFrames` keyframes left out; largest first.
 */
export function clustersByFloor(joined: MergedCluster[], flat: boolean, minFrames: number): (MergedCluster & { level: Cluster['level'] })[] {
  return joined
    .flatMap((c): (MergedCluster & { level: Cluster['level'] })[] => {
      if (flat || c.poses.length < 2) return [{ ...c, level: undefined }];
      const parts = splitClusterByFloor(c.poses, c.xyz, c.rgb, upFromRotations(c.poses.map((p) => p.rotation)));
      if (parts.length <= 1) return [{ ...c, level: undefined }];
      return parts.map((p) => ({ models: c.models, poses: p.poses, xyz: p.xyz, rgb: p.rgb, level: { kind: p.segment.kind, floor: p.segment.floor } }));
    })
    .filter((c) => c.poses.length >= minFrames)
    .sort((a, b) => b.poses.length - a.poses.length);
}
