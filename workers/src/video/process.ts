import fsp from 'node:fs/promises';
import path from 'node:path';
import { probeVideo, type VideoProbe } from '../adapters/ffprobe.js';
import sharp from 'sharp';
import { decodeTwoStreams } from '../adapters/ffmpeg.js';
import { renderView, viewMap, yuv420ToRgb } from './equirect.js';
import { VideoRejected } from './errors.js';
import { DEFAULT_KEYFRAME_OPTIONS, KeyframeChooser, type KeyframeOptions } from './keyframes.js';
import { StageClock } from './run-tool.js';

/** Reports where a step stands: 0–100 and a sentence for the user. */
export type OnProgress = (percent: number, message: string) => void;

/** The perspective views cut from each 360 frame for structure-from-motion. */
export interface ViewsOptions {
  /** Number of views around the horizon, evenly spaced in yaw starting at 0. */
  count: number;
  hFovDeg: number;
  width: number;
  height: number;
}

export const DEFAULT_VIEWS: ViewsOptions = { count: 4, hFovDeg: 120, width: 480, height: 320 };

export interface ProcessOptions {
  keyframes: KeyframeOptions;
  views: ViewsOptions;
  /** Width of the grey stream motion is measured on. */
  motionWidth: number;
  /** Width the 360 room images are written at (default: the video's). */
  roomWidth?: number;
  /** Shortest walk accepted, seconds. */
  minDuration: number;
  /** Fewest keyframes a walk must give. */
  minKeyframes: number;
  signal?: AbortSignal;
}

export const DEFAULT_PROCESS_OPTIONS: ProcessOptions = {
  keyframes: DEFAULT_KEYFRAME_OPTIONS,
  views: DEFAULT_VIEWS,
  motionWidth: 256,
  minDuration: 1,
  minKeyframes: 4,
};

/** One perspective view of a keyframe, as COLMAP sees it. */
export interface ViewInfo {
  /** View direction index (0 … count−1); also the COLMAP camera of that direction. */
  view: number;
  yawDeg: number;
  /** Path relative to `views/` (COLMAP's image name). */
  name: string;
}

export interface KeyframeInfo {
  /** Keyframe number, 0 … n−1, in walking order. */
  index: number;
  /** Frame number in the video. */
  frame: number;
  /** Seconds from the start of the video. */
  time: number;
  /** Heading estimate from the motion analysis, degrees, relative to the first keyframe. */
  headingDeg: number;
  reason: string;
  /** The full 360 image, relative to the work folder. */
  room: string;
  views: ViewInfo[];
}

/** `manifest.json` of a processed video: what `reconstruct` reads. */
export interface ProcessManifest {
  version: 1;
  video: VideoProbe;
  views: ViewsOptions & { vFovDeg: number; focal: number; yawsDeg: number[] };
  keyframes: KeyframeInfo[];
  /** Seconds per stage: wall clock, and CPU of this process and its tools. */
  timings: { wall: Record<string, number>; cpu: Record<string, number> };
}

export const MANIFEST = 'manifest.json';

/** Vertical field of view of a pinhole view of this size and horizontal field (degrees). */
export const verticalFov = (v: ViewsOptions): number =>
  (2 * Math.atan((Math.tan((v.hFovDeg * Math.PI) / 360) * v.height) / v.width) * 180) / Math.PI;

/** The pinhole focal length in pixels of a view: f = w / 2 / tan(hfov / 2). */
export const focalOf = (v: ViewsOptions): number => v.width / 2 / Math.tan((v.hFovDeg * Math.PI) / 360);

/**
 * Step "process": checks the video (ffprobe), chooses keyframes by motion
 * while decoding a small grey stream, then in one more pass writes each
 * keyframe's 360 image (`rooms/NNNN.jpg`) and its perspective views
 * (`views/vK/NNNN.jpg`), and `manifest.json`. Everything is made in a
 * staging folder and moved into `workDir` at the end, so a failure leaves
 * nothing half-made. Refuses bad input with `VideoRejected`.
 */
export async function processVideo(
  input: string,
  workDir: string,
  onProgress: OnProgress = () => undefined,
  options: Partial<ProcessOptions> = {},
): Promise<ProcessManifest> {
  const opts = { ...DEFAULT_PROCESS_OPTIONS, ...options };
  const clock = new StageClock();
  const lap = (name: string) => clock.lap(name);
  await fsp.mkdir(workDir, { recursive: true });
  const stage = await fsp.mkdtemp(path.join(workDir, '.process-'));
  /** Keyframe images being written while decoding goes on. */
  const writing = new Set<Promise<void>>();
  try {
    onProgress(0, 'Checking the video');
    const video = await probeVideo(input);
    if (!video.is360) {
      throw new VideoRejected(`This video is ${video.width}×${video.height}; a 360° walk-through video (equirectangular, twice as wide as high) is needed.`);
    }
    if (video.duration < opts.minDuration) throw new VideoRejected(`This video lasts ${video.duration.toFixed(1)} s; a walk-through needs at least ${opts.minDuration} s.`);
    lap('probe');

    const v = opts.views;
    const vFovDeg = verticalFov(v);
    const focal = focalOf(v);
    const yawsDeg = Array.from({ length: v.count }, (_, k) => (k * 360) / v.count);
    const roomWidth = Math.min(video.width, opts.roomWidth ?? video.width) & ~1;
    const roomHeight = (roomWidth / 2) & ~1;
    const maps = yawsDeg.map((yawDeg) => viewMap({ yawDeg, width: v.width, height: v.height, focal }, roomWidth, roomHeight));
    await fsp.mkdir(path.join(stage, 'rooms'));
    for (let k = 0; k < v.count; k++) await fsp.mkdir(path.join(stage, 'views', `v${k}`), { recursive: true });
    const pad = (i: number) => String(i).padStart(4, '0');
    /** Writes keyframe number `n` from its full picture: the 360 room and its perspective views. */
    const writeKeyframe = async (n: number, yuv: Uint8Array) => {
      const rgb = yuv420ToRgb(yuv, roomWidth, roomHeight);
      const raw = { raw: { width: roomWidth, height: roomHeight, channels: 3 as const } };
      const room = sharp(rgb, raw).jpeg({ quality: 88 }).toFile(path.join(stage, 'rooms', `${pad(n)}.jpg`));
      const views = maps.map((map, k) =>
        sharp(renderView({ data: rgb, width: roomWidth, height: roomHeight }, map, v.width, v.height), { raw: { width: v.width, height: v.height, channels: 3 } })
          .jpeg({ quality: 92 })
          .toFile(path.join(stage, 'views', `v${k}`, `${pad(n)}.jpg`)),
      );
      await Promise.all([room, ...views]);
    };

    onProgress(2, 'Finding where the camera moved');
    const chooser = new KeyframeChooser(opts.keyframes);
    const times: number[] = [];
    const mw = opts.motionWidth;
    let last: { index: number; full: Uint8Array } | null = null;
    const decoded = await decodeTwoStreams(
      input,
      { greyWidth: mw, fullWidth: roomWidth, fullHeight: roomHeight },
      ({ index, grey, full }) => {
        if (index % 30 === 0) onProgress(2 + 93 * Math.min(1, index / video.frames), `Finding where the camera moved (${Math.round(index / video.fps)} s of ${Math.round(video.duration)} s, ${chooser.keyframes.length} keyframes)`);
        last = { index, full };
        if (!chooser.push(index, index / video.fps, { data: grey, width: mw, height: mw / 2 })) return;
        // Two keyframes are written while decoding goes on; a third waits for one of them (bounded memory).
        const write = writeKeyframe(chooser.keyframes.length - 1, full).finally(() => writing.delete(write));
        // Awaited below; when decoding fails first (the video was deleted, the run cancelled) the
        // write is abandoned, and its failure must not surface as an unhandled rejection.
        write.catch(() => undefined);
        writing.add(write);
        if (writing.size >= 2) return Promise.race(writing);
      },
      { signal: opts.signal, onTime: (i, t) => (times[i] = t) },
    );
    if (decoded.frames < Math.max(1, 0.9 * video.frames - 2)) {
      throw new VideoRejected(`The video is cut off: only ${decoded.frames} of its ${video.frames} frames can be read. Upload the whole file again.`);
    }
    if (chooser.contrast < opts.keyframes.minContrast) {
      throw new VideoRejected('The video shows almost nothing (a blank or dark picture); the walk cannot be placed.');
    }
    await Promise.all(writing);
    const before = chooser.keyframes.length;
    const kfs = chooser.finish();
    const lastFrame = last as { index: number; full: Uint8Array } | null;
    if (kfs.length > before && lastFrame) await writeKeyframe(kfs.length - 1, lastFrame.full);
    if (kfs.length < opts.minKeyframes) {
      throw new VideoRejected(`The camera hardly moves in this video (${kfs.length} distinct positions); walk through the rooms while filming.`);
    }
    lap('decode-and-write');

    const manifest: ProcessManifest = {
      version: 1,
      video,
      views: { ...v, vFovDeg, focal, yawsDeg },
      keyframes: kfs.map((k, i) => ({
        index: i,
        frame: k.frame,
        time: times[k.frame] ?? k.time,
        headingDeg: k.headingDeg,
        reason: k.reason,
        room: `rooms/${pad(i)}.jpg`,
        views: yawsDeg.map((yawDeg, view) => ({ view, yawDeg, name: `v${view}/${pad(i)}.jpg` })),
      })),
      timings: { wall: clock.wall, cpu: clock.cpu },
    };
    await fsp.writeFile(path.join(stage, MANIFEST), JSON.stringify(manifest, null, 1));
    // Move the finished results in place; an earlier run's are replaced.
    for (const name of ['rooms', 'views', MANIFEST]) {
      await fsp.rm(path.join(workDir, name), { recursive: true, force: true });
      await fsp.rename(path.join(stage, name), path.join(workDir, name));
    }
    onProgress(100, `${kfs.length} keyframes chosen`);
    return manifest;
  } finally {
    // Writes still under way when a step fails are let finish before their folder goes.
    await Promise.allSettled(writing);
    await fsp.rm(stage, { recursive: true, force: true });
  }
}

/** Reads the manifest `processVideo` left in `workDir`. */
export async function readManifest(workDir: string): Promise<ProcessManifest> {
  return JSON.parse(await fsp.readFile(path.join(workDir, MANIFEST), 'utf8')) as ProcessManifest;
}
