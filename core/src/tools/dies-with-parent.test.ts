import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deathSignalWrapper, diesWithParent, findExecutable } from './dies-with-parent.js';

/** Alive and not a zombie waiting for a reaper (a container's PID 1 may not reap). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** A parent process (plain node) that starts `command`, prints the child's pid and waits for ever. */
function parentOf(command: { command: string; args: string[] }): Promise<{ parent: ReturnType<typeof spawn>; childPid: number }> {
  const script = `const c = require('node:child_process').spawn(process.argv[1], JSON.parse(process.argv[2]), { stdio: 'ignore' });
c.on('spawn', () => console.log(c.pid)); setInterval(() => {}, 1000);`;
  const parent = spawn(process.execPath, ['-e', script, command.command, JSON.stringify(command.args)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    parent.stdout!.once('data', (d: Buffer) => resolve({ parent, childPid: Number(String(d).trim()) }));
    parent.once('error', reject);
  });
}

describe('programs started by a worker die with it', () => {
  it('finds programs on PATH and leaves unknown ones to fail as before', () => {
    expect(findExecutable('sh')).toMatch(/\/sh$/);
    expect(findExecutable('no-such-program-sitewalk')).toBeNull();
    expect(diesWithParent('no-such-program-sitewalk', ['x'])).toEqual({ command: 'no-such-program-sitewalk', args: ['x'] });
  });

  it.runIf(process.platform === 'linux')('a program outlives nothing: SIGKILL of its parent kills it too', async () => {
    expect(deathSignalWrapper(), 'setpriv (util-linux) is installed on the machines SiteWalk supports').not.toBeNull();
    const { parent, childPid } = await parentOf(diesWithParent('sleep', ['300']));
    try {
      expect(running(childPid)).toBe(true);
      parent.kill('SIGKILL');
      await expect.poll(() => running(childPid), { timeout: 10_000, interval: 50 }).toBe(false);
    } finally {
      if (running(childPid)) process.kill(childPid, 'SIGKILL');
    }
  });
});
