import fs from 'node:fs';
import os from 'node:os';

/** The machine a measurement ran on, for the line under each results heading: CPU, cores, memory, distribution, Node. */
export function machine(): string {
  const cpus = os.cpus();
  let distro = os.type();
  try {
    distro = /PRETTY_NAME="([^"]+)"/.exec(fs.readFileSync('/etc/os-release', 'utf8'))?.[1] ?? distro;
  } catch {
    /* keep os.type() */
  }
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${distro}, Node ${process.version}`;
}

/** The 1, 5 and 15 minute load averages: how busy a shared machine was around a run. */
export const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(', ');

/** CPU seconds of this process and of the children it waited for (the tools). */
export function cpuSeconds(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    children = (Number(f[16 - 3]) + Number(f[17 - 3])) / 100; // cutime + cstime, clock ticks of 100 Hz
  } catch {
    /* not Linux: own time only */
  }
  return (own.user + own.system) / 1e6 + children;
}
