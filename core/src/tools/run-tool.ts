import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { diesWithParent } from './dies-with-parent.js';
import { ToolMissing } from './errors.js';

/** Where each external program is looked for: its variable, else PATH. ffprobe sits next to an ffmpeg given by FFMPEG_PATH. */
export function toolPath(tool: 'ffmpeg' | 'ffprobe' | 'colmap', env: NodeJS.ProcessEnv = process.env): string {
  if (tool === 'colmap') return env.COLMAP_PATH || 'colmap';
  if (tool === 'ffmpeg') return env.FFMPEG_PATH || 'ffmpeg';
  if (env.FFPROBE_PATH) return env.FFPROBE_PATH;
  if (env.FFMPEG_PATH && /ffmpeg(\.exe)?$/.test(env.FFMPEG_PATH)) return env.FFMPEG_PATH.replace(/ffmpeg(\.exe)?$/, 'ffprobe$1');
  return 'ffprobe';
}

const HINT: Record<string, string> = {
  ffmpeg: 'install the Debian package ffmpeg or set FFMPEG_PATH',
  ffprobe: 'install the Debian package ffmpeg or set FFPROBE_PATH / FFMPEG_PATH',
  colmap: 'install the Debian package colmap or set COLMAP_PATH',
};

export interface ToolRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The last 20 kB of stderr. */
  stderr: string;
}

export interface RunOptions {
  /** Each complete line the program prints (stdout and stderr), e.g. to parse progress. */
  onLine?: (line: string) => void;
  /** Raw stdout chunks; stdout is then not kept as text. */
  onStdout?: (chunk: Buffer) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  cwd?: string;
}

/**
 * Runs one external program to its end. A missing program is a `ToolMissing`
 * error, never a crash; a non-zero exit resolves (the caller decides what it
 * means, from the code and the output).
 */
export function runTool(tool: 'ffmpeg' | 'ffprobe' | 'colmap', args: string[], opts: RunOptions = {}): Promise<ToolRun> {
  const bin = toolPath(tool);
  return new Promise((resolve, reject) => {
    // The program dies with this process (a SIGKILLed worker leaves no COLMAP running).
    const cmd = diesWithParent(bin, args);
    const child = spawn(cmd.command, cmd.args, { stdio: ['ignore', 'pipe', 'pipe'], signal: opts.signal, cwd: opts.cwd });
    let stdout = '';
    let stderr = '';
    const partial = { out: '', err: '' };
    const feed = (key: 'out' | 'err', text: string) => {
      if (!opts.onLine) return;
      const lines = (partial[key] + text).split(/\r\n|\r|\n/);
      partial[key] = lines.pop() ?? '';
      for (const l of lines) if (l) opts.onLine(l);
    };
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : null;
    child.stdout.on('data', (c: Buffer) => {
      if (opts.onStdout) return opts.onStdout(c);
      if (stdout.length < 5_000_000) stdout += c.toString();
      feed('out', c.toString());
    });
    child.stderr.on('data', (c: Buffer) => {
      const s = c.toString();
      stderr = (stderr + s).slice(-20_000);
      feed('err', s);
    });
    child.on('error', (err) => {
      if (timer) clearTimeout(timer);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') reject(new ToolMissing(tool, `${bin}: ${HINT[tool]}`));
      else reject(err);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (partial.out) opts.onLine?.(partial.out);
      if (partial.err) opts.onLine?.(partial.err);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * CPU seconds used so far by this process's finished child processes
 * (Linux /proc; NaN elsewhere). Stage timings report it next to wall time:
 * on a shared machine wall time says little about the work a stage costs.
 */
export function childCpuSeconds(): number {
  try {
    // Fields after the command name: state is field 3; cutime and cstime are fields 16 and 17.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[13]) + Number(rest[14])) / 100;
  } catch {
    return NaN;
  }
}

/** Wall and CPU (own + children) seconds per named stage. */
export class StageClock {
  readonly wall: Record<string, number> = {};
  readonly cpu: Record<string, number> = {};
  private t = Date.now();
  private c = StageClock.cpuNow();

  private static cpuNow(): number {
    const own = process.cpuUsage();
    return (own.user + own.system) / 1e6 + childCpuSeconds();
  }

  /**
   * Ends stage `name` now, its last `tailSeconds` of wall time counted as
   * stage `tailName` (a part of a stage only known once it is over: the
   * mapping's final adjustment after its last report). CPU divides in the
   * same proportion.
   */
  lapWithTail(name: string, tailName: string, tailSeconds: number): void {
    this.lap(name);
    const wall = this.wall[name];
    const tail = Math.min(wall, Math.max(0, tailSeconds));
    const cpuTail = wall > 0 ? (this.cpu[name] * tail) / wall : 0;
    this.wall[name] = Math.round((wall - tail) * 1000) / 1000;
    this.wall[tailName] = Math.round(tail * 1000) / 1000;
    this.cpu[name] = Math.round((this.cpu[name] - cpuTail) * 100) / 100;
    this.cpu[tailName] = Math.round(cpuTail * 100) / 100;
  }

  lap(name: string): void {
    const t = Date.now();
    const c = StageClock.cpuNow();
    this.wall[name] = Math.round(t - this.t) / 1000;
    this.cpu[name] = Math.round((c - this.c) * 100) / 100;
    this.t = t;
    this.c = c;
  }
}
