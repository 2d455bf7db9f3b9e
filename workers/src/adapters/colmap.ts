import fsp from 'node:fs/promises';
import path from 'node:path';
import { runTool, type ToolRun } from '@sitewalk/core/tools/run-tool.js';

/**
 * COLMAP 3.8 (Debian package `colmap`, CPU build) run as subprocesses. Each
 * call passes the options it needs explicitly and reports progress parsed
 * from COLMAP's log lines ("Processed file [i/n]", "Matching block [i/n]",
 * "Registering image #id (k)").
 */

export interface ColmapProgress {
  (done: number, total: number | null, line: string): void;
}

export class ColmapError extends Error {
  override name = 'ColmapError';
  constructor(readonly command: string, readonly run: ToolRun) {
    super(`colmap ${command} ended with ${run.signal ?? `code ${run.code}`}: ${run.stderr.trim().split('\n').slice(-4).join(' | ').slice(0, 600)}`);
  }
}

const flags = (o: Record<string, string | number | boolean>): string[] =>
  Object.entries(o).flatMap(([k, v]) => [`--${k}`, typeof v === 'boolean' ? (v ? '1' : '0') : String(v)]);

async function colmap(command: string, options: Record<string, string | number | boolean>, onProgress?: ColmapProgress, re?: RegExp, signal?: AbortSignal): Promise<ToolRun> {
  const run = await runTool('colmap', [command, ...flags(options)], {
    signal,
    onLine: (line) => {
      if (!onProgress || !re) return;
      const m = re.exec(line);
      if (m) onProgress(Number(m[1]), m[2] ? Number(m[2]) : null, line);
    },
  });
  if (run.code !== 0) throw new ColmapError(command, run);
  return run;
}

export interface ExtractOptions {
  database: string;
  imageDir: string;
  /** Only these images (names relative to imageDir); all when omitted. */
  imageList?: string[];
  /** fx, fy, cx, cy of the PINHOLE camera shared by every image of one folder. */
  pinhole: [number, number, number, number];
  /** Another camera model and its parameters instead (e.g. SIMPLE_RADIAL f, cx, cy, k for a flat video's unknown lens). */
  camera?: { model: 'SIMPLE_RADIAL'; params: number[] };
  maxFeatures: number;
  /** SIFT's first octave: −1 (COLMAP's default) doubles the image first, 0 does not (about 4× less work, fewer fine features). */
  firstOctave: number;
  threads: number;
  /** One orientation per feature (the view's up): for views cut level from a 360 frame. */
  upright?: boolean;
  /** SIFT's peak threshold (COLMAP's default 0.0067): higher keeps only the more contrasted features. */
  peakThreshold?: number;
  signal?: AbortSignal;
}

/** SIFT features on the CPU, one PINHOLE camera per image folder (one per view direction). */
export async function extractFeatures(o: ExtractOptions, onProgress?: ColmapProgress): Promise<void> {
  await withImageList(o.database, o.imageList, (list) =>
    colmap(
      'feature_extractor',
      {
        database_path: o.database,
        image_path: o.imageDir,
        ...(list ? { image_list_path: list } : {}),
        'ImageReader.camera_model': o.camera?.model ?? 'PINHOLE',
        'ImageReader.single_camera_per_folder': 1,
        'ImageReader.camera_params': (o.camera?.params ?? o.pinhole).join(','),
        'SiftExtraction.use_gpu': 0,
        'SiftExtraction.num_threads': o.threads,
        'SiftExtraction.max_num_features': o.maxFeatures,
        'SiftExtraction.max_image_size': 4000,
        'SiftExtraction.first_octave': o.firstOctave,
        ...(o.upright !== undefined ? { 'SiftExtraction.upright': o.upright } : {}),
        ...(o.peakThreshold !== undefined ? { 'SiftExtraction.peak_threshold': o.peakThreshold } : {}),
      },
      onProgress,
      /Processed file \[(\d+)\/(\d+)\]/,
      o.signal,
    ),
  );
}

/** Image lists written so far by this process (their names must differ while mappers run side by side). */
let lists = 0;

/** Runs `fn` with the path of a file listing `names` (one a line) beside `near`, or with nothing when there is no list. */
async function withImageList<T>(near: string, names: string[] | undefined, fn: (list: string | undefined) => Promise<T>): Promise<T> {
  if (!names) return fn(undefined);
  const list = `${near}.list-${process.pid}-${++lists}.txt`;
  await fsp.writeFile(list, names.join('\n') + '\n');
  try {
    return await fn(list);
  } finally {
    await fsp.rm(list, { force: true });
  }
}

/** Matches exactly the listed image pairs (names relative to the image folder), with geometric verification. */
export async function matchPairs(
  o: { database: string; pairs: [string, string][]; threads: number; workDir: string; maxTrials?: number; crossCheck?: boolean; signal?: AbortSignal },
  onProgress?: ColmapProgress,
): Promise<void> {
  const file = path.join(o.workDir, 'pairs.txt');
  await fsp.writeFile(file, o.pairs.map(([a, b]) => `${a} ${b}`).join('\n') + '\n');
  await colmap(
    'matches_importer',
    {
      database_path: o.database,
      match_list_path: file,
      match_type: 'pairs',
      'SiftMatching.use_gpu': 0,
      'SiftMatching.num_threads': o.threads,
      'SiftMatching.max_num_matches': 8192,
      'SiftMatching.max_num_trials': o.maxTrials ?? 10000,
      'SiftMatching.cross_check': o.crossCheck ?? true,
    },
    onProgress,
    /Matching block \[(\d+)\/(\d+)\]/,
    o.signal,
  );
}

export interface MapperOptions {
  database: string;
  imageDir: string;
  outputDir: string;
  /** Only these images (names relative to imageDir); all when omitted. */
  imageList?: string[];
  threads: number;
  /** Extra `Mapper.*` options (without the prefix), e.g. { ba_global_images_ratio: 1.5 }. */
  mapper?: Record<string, string | number | boolean>;
  /** Refine the focal length and distortion (a camera known only roughly); fixed by default. */
  refineIntrinsics?: boolean;
  signal?: AbortSignal;
}

/** Incremental mapping with fixed intrinsics; every connected component is written as outputDir/0, /1, … */
export async function runMapper(o: MapperOptions, onProgress?: ColmapProgress): Promise<ToolRun> {
  await fsp.mkdir(o.outputDir, { recursive: true });
  const extra = Object.fromEntries(Object.entries(o.mapper ?? {}).map(([k, v]) => [`Mapper.${k}`, v]));
  return withImageList(o.outputDir, o.imageList, (list) =>
    colmap(
      'mapper',
      {
        database_path: o.database,
        image_path: o.imageDir,
        output_path: o.outputDir,
        ...(list ? { image_list_path: list } : {}),
        'Mapper.num_threads': o.threads,
        'Mapper.ba_refine_focal_length': o.refineIntrinsics ? 1 : 0,
        'Mapper.ba_refine_principal_point': 0,
        'Mapper.ba_refine_extra_params': o.refineIntrinsics ? 1 : 0,
        ...extra,
      },
      onProgress,
      /Registering image #(\d+) \((\d+)\)/,
      o.signal,
    ),
  );
}

/** Writes a binary model as cameras.txt, images.txt, points3D.txt. */
export async function modelToText(inputDir: string, outputDir: string, signal?: AbortSignal): Promise<void> {
  await fsp.mkdir(outputDir, { recursive: true });
  await colmap('model_converter', { input_path: inputDir, output_path: outputDir, output_type: 'TXT' }, undefined, undefined, signal);
}
