import fsp from 'node:fs/promises';
import path from 'node:path';
import { VideoRejected } from '../video/errors.js';
import { runTool } from '../video/run-tool.js';

/** A perspective (flat) view cut from each 360 frame with ffmpeg's v360 filter. */
export interface ViewSpec {
  /** Folder the view's images are written to (one image per keyframe, `%04d.jpg` from 0). */
  dir: string;
  yawDeg: number;
  hFovDeg: number;
  vFovDeg: number;
  width: number;
  height: number;
}

/**
 * Decodes the whole video into a small grey equirectangular stream
 * (`width` × `width/2`) through a pipe and hands each frame over in order,
 * with its presentation time when ffmpeg reports it. Resolves with the
 * number of frames decoded. A stream that stops with a decoding error after
 * some frames (a truncated upload) resolves too: the caller compares the
 * count with what the container announced.
 */
export async function decodeGrey(
  file: string,
  width: number,
  onFrame: (index: number, data: Uint8Array) => void,
  opts: { signal?: AbortSignal; onTime?: (index: number, seconds: number) => void } = {},
): Promise<{ frames: number; errors: string }> {
  const height = width / 2;
  const size = width * height;
  let buf: Buffer = Buffer.alloc(0);
  let index = 0;
  let shown = 0;
  const run = await runTool(
    'ffmpeg',
    ['-hide_banner', '-nostdin', '-v', 'error', '-i', file, '-an', '-sn', '-dn', '-map', '0:v:0',
      '-vf', `scale=${width}:${height}:flags=area,format=gray,showinfo`, '-fps_mode', 'passthrough',
      '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
    {
      signal: opts.signal,
      onStdout: (chunk) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        while (buf.length >= size) {
          onFrame(index++, new Uint8Array(buf.buffer, buf.byteOffset, size));
          buf = buf.subarray(size);
        }
        if (buf.length) buf = Buffer.from(buf); // do not pin the big chunk
      },
      onLine: (line) => {
        const m = /\] n:\s*(\d+) .*pts_time:\s*([-\d.e]+)/.exec(line);
        if (m) opts.onTime?.(Number(m[1]), Number(m[2]));
        else if (/showinfo/.test(line)) shown++;
      },
    },
  );
  const errors = run.stderr.split('\n').filter((l) => l && !/Parsed_showinfo/.test(l)).slice(-5).join('\n');
  if (run.code !== 0 && index === 0) throw new VideoRejected('The video cannot be decoded; the file is damaged or cut off.');
  void shown;
  return { frames: index, errors };
}

/**
 * One decoding pass that writes, for the chosen frames only, the full 360
 * frame as a JPEG (a room of the visit) into `fullDir` and every perspective
 * view into its folder, all numbered by keyframe order from 0. `onProgress`
 * gets the fraction of the video read (0–1).
 */
export async function writeKeyframeImages(
  file: string,
  frames: number[],
  fullDir: string,
  views: ViewSpec[],
  scriptDir: string,
  opts: { fullWidth?: number; onProgress?: (fraction: number) => void; duration?: number; signal?: AbortSignal } = {},
): Promise<void> {
  await fsp.mkdir(fullDir, { recursive: true });
  for (const v of views) await fsp.mkdir(v.dir, { recursive: true });
  const select = frames.map((n) => `eq(n\\,${n})`).join('+');
  const n = views.length + 1;
  const labels = Array.from({ length: n }, (_, i) => `[s${i}]`).join('');
  const parts = [`[0:v:0]select='${select}',split=${n}${labels}`];
  parts.push(`[s0]${opts.fullWidth ? `scale=${opts.fullWidth}:-2,` : ''}format=yuvj420p[full]`);
  views.forEach((v, i) => {
    parts.push(
      `[s${i + 1}]v360=input=e:output=flat:yaw=${v.yawDeg}:h_fov=${v.hFovDeg}:v_fov=${v.vFovDeg}:w=${v.width}:h=${v.height}:interp=linear,format=yuvj420p[v${i}]`,
    );
  });
  const script = path.join(scriptDir, 'keyframes.filter');
  await fsp.writeFile(script, parts.join(';\n'));
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-progress', 'pipe:1', '-i', file, '-filter_complex_script', script];
  args.push('-map', '[full]', '-fps_mode', 'passthrough', '-q:v', '2', '-start_number', '0', path.join(fullDir, '%04d.jpg'));
  views.forEach((v, i) => args.push('-map', `[v${i}]`, '-fps_mode', 'passthrough', '-q:v', '3', '-start_number', '0', path.join(v.dir, '%04d.jpg')));
  const run = await runTool('ffmpeg', args, {
    signal: opts.signal,
    onLine: (line) => {
      const m = /^out_time_us=(\d+)/.exec(line);
      if (m && opts.duration) opts.onProgress?.(Math.min(1, Number(m[1]) / 1e6 / opts.duration));
    },
  });
  const written = (await fsp.readdir(fullDir)).filter((f) => f.endsWith('.jpg')).length;
  if (run.code !== 0 || written !== frames.length) {
    throw new Error(`ffmpeg wrote ${written} of ${frames.length} keyframes (${run.signal ?? `code ${run.code}`}): ${run.stderr.trim().slice(-400)}`);
  }
}
