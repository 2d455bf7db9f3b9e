import fsp from 'node:fs/promises';
import path from 'node:path';
import { probeVideo, type VideoProbe } from '@sitewalk/core/tools/ffprobe.js';
import sharp from 'sharp';
import { decodeTwoStreams } from '../adapters/ffmpeg.js';
import { flatToEquirect, renderView, viewMap, yuv420ToRgb } from './equirect.js';
import { VideoRejected } from '@sitewalk/core/tools/errors.js';
import { DEFAULT_KEYFRAME_OPTIONS, FlatKeyframeChooser, KeyframeChooser, type KeyframeOptions } from './keyframes.js';
import { StageClock } from '@sitewalk/core/tools/run-tool.js';

/**
 * What a phase of a step has done, in its own units, for the remaining time
 * (core/src/video-eta.ts): `span` is the part of the step's percent the phase covers.
 */
export interface ProgressMeasure {
  phase: string;
  unit: 'video_seconds' | 'views' | 'blocks' | 'images';
  done: number;
  total: number;
  span: [number, number];
}

/** Reports where a step stands: 0–100, a sentence for the user, and what the phase has measured. */
export type OnProgress = (percent: number, message: string, measure?: ProgressMeasure) => void;

/** The perspective views cut from each 360 frame for structure-from-motion. */
export interface ViewsOptions {
  /** Number of views around the horizon, evenly spaced in yaw starting at 0. */
  count: number;
  hFovDeg: number;
  width: number;
  height: number;
}

// Three views of 130° (the whole horizon, 10° of overlap between neighbours) instead of four of 120° at 480 × 320: a
// quarter fewer images for COLMAP to extract, match and place. With upright SIFT (reconstruct.ts), measured over three
// bench runs on the 50 s loop and the 36 s reversed walk: COLMAP 69–102 and 53–66 CPU-s instead of ≈ 138 and ≈ 88, at least 89 of 91 keyframes
// placed, placement with start and end 0.03–0.15 m as before (bench/RESULTS.md, 2026-11-28).
export const DEFAULT_VIEWS: ViewsOptions = { count: 3, hFovDeg: 130, width: 520, height: 320 };

export interface ProcessOptions {
  keyframes: KeyframeOptions;
  views: ViewsOptions;
  /** Width of the grey stream motion is measured on. */
  motionWidth: number;
  /** Widest the 360 room images are written (narrower videos keep their width). */
  roomWidth?: number;
  /** Full pictures of at most this many pixels are passed on for every decoded frame; larger ones for about ten a second. */
  fullFramesAllUpTo: number;
  /** Shortest walk accepted, seconds. */
  minDuration: number;
  /** Fewest keyframes a walk must give. */
  minKeyframes: number;
  /** Decode only the frames other frames are predicted from (about half the work when the video has B-frames). */
  skipNonReference: boolean;
  /**
   * A flat (not 360°) video: the horizontal field of view assumed for its camera (degrees; COLMAP refines the
   * focal length from it) and the width of the one view per keyframe given to COLMAP.
   */
  flat: { hFovDeg: number; viewWidth: number; stepDeg: number };
  signal?: AbortSignal;
}

export const DEFAULT_PROCESS_OPTIONS: ProcessOptions = {
  keyframes: DEFAULT_KEYFRAME_OPTIONS,
  views: DEFAULT_VIEWS,
  motionWidth: 256,
  minDuration: 1,
  minKeyframes: 4,
  skipNonReference: true,
  // A 4K panorama per room. A consumer camera's 5.7K (5760 × 2880) frames, every one of them passed on from the
  // decoder at full size while keyframes are chosen, cost more than decoding them: measured on a 10 s clip at
  // 60 Mbit/s with the machine otherwise idle, ffmpeg alone 11.2 s (7 s of it copying frames) against 7.7 s scaled to
  // 3840, and the worker's side 2.25× fewer pixels to copy, convert and compress per frame. The views COLMAP sees
  // (520 px over 130°) need no more than 1,440 px around.
  roomWidth: 3840,
  // 2880 × 1440: a 1920 or 2880 walk keeps every frame a possible keyframe; 3840 and above (from 4K and 5.7K
  // cameras) keep about ten a second.
  fullFramesAllUpTo: 2880 * 1440,
  // About what a phone's main camera films (26 mm equivalent, 16:9).
  flat: { hFovDeg: 68, viewWidth: 640, stepDeg: 10 },
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
  /** '360': views cut from equirectangular frames (known focal); 'flat': the frame itself is the one view (focal refined). */
  kind?: '360' | 'flat';
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
    const flat = !video.is360;
    if (video.duration < opts.minDuration) throw new VideoRejected(`This video lasts ${video.duration.toFixed(1)} s; a walk-through needs at least ${opts.minDuration} s.`);
    lap('probe');

    // A flat video: the decoded picture is the frame (even size); its one view is the frame scaled down, and its
    // room is the frame laid on the sphere where the camera looked.
    const frameWidth = video.width & ~1;
    const frameHeight = video.height & ~1;
    const flatViewWidth = Math.min(frameWidth, opts.flat.viewWidth) & ~1;
    const flatFocal = frameWidth / 2 / Math.tan((opts.flat.hFovDeg * Math.PI) / 360);
    const v: ViewsOptions = flat ? { count: 1, hFovDeg: opts.flat.hFovDeg, width: flatViewWidth, height: Math.round((flatViewWidth * frameHeight) / frameWidth) & ~1 } : opts.views;
    const vFovDeg = verticalFov(v);
    const focal = focalOf(v);
    const yawsDeg = Array.from({ length: v.count }, (_, k) => (k * 360) / v.count);
    const roomWidth = flat
      ? Math.min(4096, Math.max(1024, 4 * Math.round(((360 / opts.flat.hFovDeg) * frameWidth) / 8)))
      : Math.min(video.width, opts.roomWidth ?? Infinity) & ~1;
    const roomHeight = (roomWidth / 2) & ~1;
    const fullWidth = flat ? frameWidth : roomWidth;
    const fullHeight = flat ? frameHeight : roomHeight;
    const maps = flat ? [] : yawsDeg.map((yawDeg) => viewMap({ yawDeg, width: v.width, height: v.height, focal }, roomWidth, roomHeight));
    await fsp.mkdir(path.join(stage, 'rooms'));
    for (let k = 0; k < v.count; k++) await fsp.mkdir(path.join(stage, 'views', `v${k}`), { recursive: true });
    const pad = (i: number) => String(i).padStart(4, '0');
    // Each keyframe's views are cut at fixed directions of the world rather than of the camera (the heading measured
    // while decoding is added to their yaws): view k of one keyframe looks where view k of the next one looks, so
    // matching one view with one view suffices however the camera turned, a head turn costs nothing, and each
    // direction can be mapped on its own (reconstruct.ts).
    /** Writes keyframe number `n` from its full picture: the 360 room and its perspective views. */
    const writeKeyframe = async (n: number, yuv: Uint8Array, headingDeg: number) => {
      if (flat) {
        const rgb = yuv420ToRgb(yuv, frameWidth, frameHeight);
        const frameRaw = { raw: { width: frameWidth, height: frameHeight, channels: 3 as const } };
        const sphere = flatToEquirect({ data: rgb, width: frameWidth, height: frameHeight }, flatFocal, roomWidth);
        await Promise.all([
          sharp(sphere.data, { raw: { width: sphere.width, height: sphere.height, channels: 3 } }).jpeg({ quality: 88 }).toFile(path.join(stage, 'rooms', `${pad(n)}.jpg`)),
          sharp(rgb, frameRaw).resize(v.width, v.height, { fit: 'fill' }).jpeg({ quality: 92 }).toFile(path.join(stage, 'views', 'v0', `${pad(n)}.jpg`)),
        ]);
        return;
      }
      const rgb = yuv420ToRgb(yuv, roomWidth, roomHeight);
      const raw = { raw: { width: roomWidth, height: roomHeight, channels: 3 as const } };
      const room = sharp(rgb, raw).jpeg({ quality: 88 }).toFile(path.join(stage, 'rooms', `${pad(n)}.jpg`));
      const shift = (headingDeg / 360) * roomWidth;
      const views = maps.map((map, k) =>
        sharp(renderView({ data: rgb, width: roomWidth, height: roomHeight }, map, v.width, v.height, shift), { raw: { width: v.width, height: v.height, channels: 3 } })
          .jpeg({ quality: 92 })
          .toFile(path.join(stage, 'views', `v${k}`, `${pad(n)}.jpg`)),
      );
      await Promise.all([room, ...views]);
    };

    // Large frames (a 360 camera's 5.7K, scaled to the rooms' 3840) cost more to scale and pass on than to decode:
    // then only the frames about a tenth of a second apart can be keyframes (motion is still followed on every frame;
    // a keyframe due in between is kept at the next). Smaller frames all can.
    const decodedFps = opts.skipNonReference && video.bFrames ? video.fps / 2 : video.fps;
    const fullEvery = fullWidth * fullHeight > opts.fullFramesAllUpTo ? Math.max(1, Math.floor(decodedFps / 10)) : 1;
    onProgress(2, 'Finding where the camera moved');
    const chooser = flat ? new FlatKeyframeChooser(opts.keyframes, opts.flat.hFovDeg, opts.flat.stepDeg) : new KeyframeChooser(opts.keyframes);
    const times: number[] = [];
    const mw = opts.motionWidth;
    let last: { index: number; full: Uint8Array } | null = null;
    /** Seconds per decoded frame so far: the time of a frame whose timestamp line has not been read yet. */
    let known = { index: 0, time: 0 };
    const timeOf = (index: number) => times[index] ?? (known.index > 0 ? (index * known.time) / known.index : index / video.fps);
    const decoded = await decodeTwoStreams(
      input,
      { greyWidth: mw, fullWidth, fullHeight },
      ({ index, grey, full }) => {
        const time = timeOf(index);
        if (index % 15 === 0) onProgress(2 + 93 * Math.min(1, time / video.duration), `Finding where the camera moved (${Math.round(time)} s of ${Math.round(video.duration)} s, ${chooser.keyframes.length} keyframes)`, { phase: 'motion', unit: 'video_seconds', done: time, total: video.duration, span: [2, 95] });
        if (full) last = { index, full };
        if (!chooser.push(index, time, { data: grey, width: mw, height: mw / 2 }, full !== null) || !full) return;
        // Two keyframes are written while decoding goes on; a third waits for one of them (bounded memory).
        const write = writeKeyframe(chooser.keyframes.length - 1, full, chooser.keyframes[chooser.keyframes.length - 1].headingDeg).finally(() => writing.delete(write));
        // Awaited below; when decoding fails first (the video was deleted, the run cancelled) the
        // write is abandoned, and its failure must not surface as an unhandled rejection.
        write.catch(() => undefined);
        writing.add(write);
        if (writing.size >= 2) return Promise.race(writing);
      },
      {
        signal: opts.signal,
        skipNonReference: opts.skipNonReference,
        fullEvery,
        onTime: (i, t) => {
          times[i] = t;
          if (i > known.index) known = { index: i, time: t };
        },
      },
    );
    // Decoding and writing are timed apart: the remaining-time profile (core/src/video-eta-profile.ts) learns the
    // share of each from finished runs, and the writes left after the last frame are the step's 95–100 %.
    lap('decode');
    // How much of the video could be read: by the timestamps (frames may have been skipped on purpose).
    const readSeconds = Math.max(decoded.frames ? decoded.lastTime + 1 / video.fps : 0, opts.skipNonReference ? 0 : decoded.frames / video.fps);
    if (readSeconds < 0.9 * video.duration - 2 / video.fps) {
      throw new VideoRejected(`The video is cut off: only ${readSeconds.toFixed(1)} s of its ${video.duration.toFixed(1)} s can be read. Upload the whole file again.`);
    }
    if (chooser.contrast < opts.keyframes.minContrast) {
      throw new VideoRejected('The video shows almost nothing (a blank or dark picture); the walk cannot be placed.');
    }
    await Promise.all(writing);
    const before = chooser.keyframes.length;
    const kfs = chooser.finish();
    const lastFrame = last as { index: number; full: Uint8Array } | null;
    if (kfs.length > before && lastFrame) await writeKeyframe(kfs.length - 1, lastFrame.full, kfs[kfs.length - 1].headingDeg);
    if (kfs.length < opts.minKeyframes) {
      throw new VideoRejected(`The camera hardly moves in this video (${kfs.length} distinct positions); walk through the rooms while filming.`);
    }
    lap('write');

    const manifest: ProcessManifest = {
      version: 1,
      video,
      kind: flat ? 'flat' : '360',
      views: { ...v, vFovDeg, focal, yawsDeg },
      keyframes: kfs.map((k, i) => {
        // k.frame counts decoded frames; the video's own frame number comes from the frame's timestamp
        // (counted from the first frame's: some containers start later than 0).
        const time = Math.max(0, (times[k.frame] ?? k.time) - (times[0] ?? 0));
        return {
          index: i,
          frame: Math.min(video.frames - 1, Math.max(0, Math.round(time * video.fps))),
          time,
          headingDeg: k.headingDeg,
          reason: k.reason,
          room: `rooms/${pad(i)}.jpg`,
          views: yawsDeg.map((yawDeg, view) => ({ view, yawDeg: yawDeg + k.headingDeg, name: `v${view}/${pad(i)}.jpg` })),
        };
      }),
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
