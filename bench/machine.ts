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
