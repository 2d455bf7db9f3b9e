import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * Programs a worker starts (COLMAP, ffmpeg, pdftoppm) must not outlive it: a
 * workers process killed with SIGKILL runs no handler, and its COLMAP would
 * keep two cores busy for an hour while another worker redoes the job. The
 * kernel can send a child a signal when its parent dies (prctl
 * PR_SET_PDEATHSIG); Node cannot ask for it, util-linux's `setpriv
 * --pdeathsig KILL` can, then execs the program in place (same pid, same
 * pipes). Where setpriv is missing (not Linux, a slim image) the program runs
 * as before.
 */

/** The path of an executable `bin` on PATH (or `bin` itself when it has a slash), or null. */
export function findExecutable(bin: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = bin.includes('/') ? [bin] : (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((d) => path.join(d, bin));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      // next
    }
  }
  return null;
}

let setpriv: string | null | undefined;

/** setpriv with a working --pdeathsig (util-linux 2.33+), checked once by running it. */
export function deathSignalWrapper(): string | null {
  if (setpriv !== undefined) return setpriv;
  setpriv = null;
  if (process.platform !== 'linux' || process.env.SITEWALK_CHILD_DEATHSIG === 'off') return setpriv;
  const bin = findExecutable('setpriv');
  if (bin && spawnSync(bin, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0) setpriv = bin;
  return setpriv;
}

/**
 * The command to spawn so that the program dies with this process. A program
 * that cannot be found is left as it is, so spawning it still fails with
 * ENOENT (the callers turn that into "install …").
 */
export function diesWithParent(bin: string, args: readonly string[]): { command: string; args: string[] } {
  const wrapper = deathSignalWrapper();
  const resolved = wrapper ? findExecutable(bin) : null;
  if (!wrapper || !resolved) return { command: bin, args: [...args] };
  return { command: wrapper, args: ['--pdeathsig', 'KILL', '--', resolved, ...args] };
}
