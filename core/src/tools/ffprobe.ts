import fsp from 'node:fs/promises';
import { VideoRejected } from './errors.js';
import { runTool } from './run-tool.js';

/** What the pipeline needs to know about an uploaded video. */
export interface VideoProbe {
  hasVideo: true;
  codec: string;
  /** Seconds. */
  duration: number;
  /** Displayed size (rotation applied). */
  width: number;
  height: number;
  fps: number;
  /** Degrees the player turns the picture (display matrix), 0 for most 360 cameras. */
  rotation: number;
  /** Equirectangular 360: width is twice the height, within 1 %. */
  is360: boolean;
  /** Number of frames when the container says so (else estimated from duration × fps). */
  frames: number;
  /** The encoder predicts frames from later ones (B-frames): skipping the frames nothing is predicted from then halves decoding. */
  bFrames: boolean;
}

const rate = (s: string | undefined): number => {
  if (!s) return 0;
  const [a, b] = s.split('/').map(Number);
  return b ? a / b : a || 0;
};

/** Whether a picture of this size is an equirectangular 360 frame (2:1 within 1 %). */
export const isEquirect = (width: number, height: number): boolean => height > 0 && Math.abs(width / height - 2) <= 0.02;

/**
 * Reads a video file with ffprobe. Refuses, with `VideoRejected` and a reason
 * in words, a file that is not a video (a text file named .mp4), has no
 * picture, or is cut off (no duration or no decodable frame).
 */
export async function probeVideo(filePath: string): Promise<VideoProbe> {
  const stat = await fsp.stat(filePath).catch(() => null);
  if (!stat || !stat.isFile()) throw new VideoRejected('The video file is missing. Upload it again.');
  return probeVideoAt(filePath, stat.size);
}

/**
 * The same for a video that is not on this machine's disk: `input` is a URL
 * ffprobe reads over HTTP (a presigned GET of the bucket: it asks for the
 * ranges it needs, the headers and the index, never the whole file).
 */
export async function probeVideoAt(input: string, size: number): Promise<VideoProbe> {
  if (size < 1024) throw new VideoRejected('This file is too small to be a video.');
  const run = await runTool('ffprobe', [
    '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-show_entries', 'stream_side_data', input,
  ]);
  let info: { streams?: Record<string, any>[]; format?: Record<string, any> } = {};
  try {
    info = JSON.parse(run.stdout || '{}');
  } catch {
    info = {};
  }
  if (run.code !== 0 || !info.format) {
    throw new VideoRejected('This file is not a video that can be read (it may be another kind of file renamed, or damaged).');
  }
  const v = (info.streams ?? []).find((s) => s.codec_type === 'video' && !(s.disposition?.attached_pic));
  if (!v) throw new VideoRejected('This file has no video picture in it.');
  let rotation = 0;
  for (const sd of v.side_data_list ?? []) if (typeof sd.rotation === 'number') rotation = sd.rotation;
  if (v.tags?.rotate) rotation = -Number(v.tags.rotate) || 0;
  rotation = ((Math.round(rotation) % 360) + 360) % 360;
  const codedW = Number(v.width) || 0;
  const codedH = Number(v.height) || 0;
  const [width, height] = rotation === 90 || rotation === 270 ? [codedH, codedW] : [codedW, codedH];
  const fps = rate(v.avg_frame_rate) || rate(v.r_frame_rate);
  const duration = Number(v.duration) || Number(info.format.duration) || 0;
  if (!width || !height) throw new VideoRejected('The video picture has no size; the file is probably damaged.');
  if (!(duration > 0) || !(fps > 0)) throw new VideoRejected('The video has no length; the file is probably cut off or damaged.');
  const frames = Number(v.nb_frames) || Math.round(duration * fps);
  return { hasVideo: true, codec: String(v.codec_name ?? 'unknown'), duration, width, height, fps, rotation, is360: isEquirect(width, height), frames, bFrames: Number(v.has_b_frames) > 0 };
}
