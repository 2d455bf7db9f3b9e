import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { ToolMissing, VideoRejected } from '@sitewalk/core/tools/errors.js';
import { diesWithParent } from '@sitewalk/core/tools/dies-with-parent.js';
import { toolPath } from '@sitewalk/core/tools/run-tool.js';

/**
 * One decoded frame: the small grey picture for motion and the full picture (YUV 4:2:0 planar, owned by the
 * receiver) — null on the frames between those passed on in full (`fullEvery`).
 */
export interface DecodedFrame {
  index: number;
  grey: Uint8Array;
  full: Uint8Array | null;
}

/**
 * Decodes the video once into two streams read in step: a small grey
 * equirectangular picture (`greyWidth` × `greyWidth/2`, for the motion
 * measure) on stdout and the full picture (YUV 4:2:0 at `fullWidth` ×
 * `fullHeight`) on a second pipe, so the frames worth keeping can be written
 * while the video is still being read, without decoding it a second time.
 * `onFrame` may return a promise: reading pauses while it is pending (and
 * ffmpeg waits), which bounds memory. Resolves with the number of frames
 * read; a file that stops decoding part-way resolves too (the caller
 * compares the count with what the container announced).
 */
export async function decodeTwoStreams(
  file: string,
  sizes: { greyWidth: number; fullWidth: number; fullHeight: number },
  onFrame: (frame: DecodedFrame) => void | Promise<void>,
  opts: {
    signal?: AbortSignal;
    onTime?: (index: number, seconds: number) => void;
    /**
     * Skip the frames no other frame is predicted from (most B-frames): about half the decoding work on
     * cameras that encode with B-frames, and nothing lost for choosing keyframes at 10–15 frames a second.
     * `index` then counts decoded frames only; `onTime` gives each one's time.
     */
    skipNonReference?: boolean;
    /**
     * Pass on the full picture of every n-th decoded frame only (index 0, n, 2n, …; default every frame): large
     * frames cost more to scale and pass on than to decode.
     */
    fullEvery?: number;
  } = {},
): Promise<{ frames: number; errors: string; lastTime: number }> {
  const gw = sizes.greyWidth;
  const gSize = gw * (gw / 2);
  const fw = sizes.fullWidth;
  const fh = sizes.fullHeight;
  const fSize = fw * fh + 2 * ((fw >> 1) * (fh >> 1));
  const every = Math.max(1, Math.round(opts.fullEvery ?? 1));
  // `n` of select counts the frames split hands on: the grey stream's index.
  const graph =
    `[0:v:0]split=2[a][b];[a]scale=${gw}:${gw / 2}:flags=area,format=gray,showinfo[g];` +
    `[b]${every > 1 ? `select='not(mod(n\\,${every}))',` : ''}scale=${fw}:${fh}:flags=bicubic,format=yuv420p[f]`;
  // Info level for showinfo's timestamp lines; every line carries its level, so only real errors are kept.
  const args = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'level+info', ...(opts.skipNonReference ? ['-skip_frame', 'noref'] : []), '-i', file, '-an', '-sn', '-dn', '-filter_complex', graph,
    '-map', '[g]', '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1',
    '-map', '[f]', '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:3'];
  const bin = toolPath('ffmpeg');
  const cmd = diesWithParent(bin, args);
  const child = spawn(cmd.command, cmd.args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], signal: opts.signal });
  const fullPipe = child.stdio[3] as Readable;
  const greys: Uint8Array[] = [];
  const fulls: Uint8Array[] = [];
  let gBuf: Buffer = Buffer.alloc(0);
  // The full pictures passed on (11 MB each at 3840 × 1920): not zero-filled first, each is written over.
  const frame = () => new Uint8Array(Buffer.allocUnsafeSlow(fSize).buffer, 0, fSize);
  let fCur = frame();
  let fFill = 0;
  let index = 0;
  let stderr = '';
  let partial = '';
  let pending: Promise<void> | null = null;
  let lastTime = 0;
  let failure: unknown = null;
  const drain = () => {
    while (!pending && greys.length) {
      const full = index % every === 0 ? fulls.shift() : null;
      if (full === undefined) break; // its full picture is still on its way
      const r = onFrame({ index: index++, grey: greys.shift()!, full });
      if (r && typeof (r as Promise<void>).then === 'function') {
        child.stdout!.pause();
        fullPipe.pause();
        pending = (r as Promise<void>).then(
          () => {
            pending = null;
            child.stdout!.resume();
            fullPipe.resume();
            drain();
          },
          (err) => {
            failure = err;
            child.kill('SIGKILL');
          },
        );
      }
    }
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    gBuf = gBuf.length ? Buffer.concat([gBuf, chunk]) : chunk;
    while (gBuf.length >= gSize) {
      greys.push(Uint8Array.from(gBuf.subarray(0, gSize)));
      gBuf = gBuf.subarray(gSize);
    }
    if (gBuf.length) gBuf = Buffer.from(gBuf);
    drain();
  });
  fullPipe.on('data', (chunk: Buffer) => {
    let off = 0;
    while (off < chunk.length) {
      const n = Math.min(chunk.length - off, fSize - fFill);
      fCur.set(chunk.subarray(off, off + n), fFill);
      fFill += n;
      off += n;
      if (fFill === fSize) {
        fulls.push(fCur);
        fCur = frame();
        fFill = 0;
      }
    }
    drain();
  });
  const onLine = (line: string) => {
    const m = /\] (?:\[info\] )?n:\s*(\d+) .*pts_time:\s*([-\d.e]+)/.exec(line);
    if (m) {
      lastTime = Math.max(lastTime, Number(m[2]));
      opts.onTime?.(Number(m[1]), Number(m[2]));
    } else if (/\[(error|fatal|panic)\]/.test(line) && stderr.length < 4000) stderr += line.replace(/\[(error|fatal|panic)\] ?/, '') + '\n';
  };
  child.stderr!.on('data', (c: Buffer) => {
    const lines = (partial + c.toString()).split(/\r\n|\r|\n/);
    partial = lines.pop() ?? '';
    lines.forEach(onLine);
  });
  const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.on('error', (error) => resolve({ code: null, error }));
    child.on('close', (code) => resolve({ code }));
  });
  if (exit.error) {
    if ((exit.error as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolMissing('ffmpeg', `${bin}: install the Debian package ffmpeg or set FFMPEG_PATH`);
    throw exit.error;
  }
  if (partial) onLine(partial);
  while (pending) await pending;
  drain();
  while (pending) await pending;
  if (failure) throw failure;
  if (exit.code !== 0 && index === 0) throw new VideoRejected('The video cannot be decoded; the file is damaged or cut off.');
  return { frames: index, errors: stderr.trim().split('\n').slice(-5).join('\n'), lastTime };
}
