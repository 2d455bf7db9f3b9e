import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from './support/free-port.js';

/**
 * make test, make start and make bench on a machine where nothing answers on
 * the PostgreSQL and Redis ports: each starts its own servers, and when a step
 * after that fails, the servers it started are stopped again — none is left
 * running. The real scripts run; only their first step after the servers
 * (type check, database setup, first bench) is replaced by one that notes the
 * servers' process ids and fails. Every port is a spare one, so the machine's
 * own 5432/6379 servers are never touched.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let work: string;
let fakeBin: string;
let ports: { systemPg: number; systemRedis: number; ownPg: number; ownRedis: number };

/** Whether a process is alive (a zombie waiting to be reaped has stopped: it holds no port, no files). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * The processes whose working directory lies in dir: every PostgreSQL process
 * moves into its data directory and Redis into its --dir, so these are the
 * servers a run started there (zombies, which hold nothing, have no cwd).
 * Asking whether their ports still answer would not do: a port let go may be
 * taken at once by a server of another test file running alongside.
 */
function processesIn(dir: string): number[] {
  const root = fs.realpathSync(dir);
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cwd: string;
    try {
      cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
    } catch {
      continue; // gone meanwhile, or a zombie
    }
    if (cwd === root || cwd.startsWith(`${root}/`)) found.push(Number(entry));
  }
  return found;
}

async function distinctFreePorts(n: number): Promise<number[]> {
  const out = new Set<number>();
  while (out.size < n) out.add(await freePort());
  return [...out];
}

/** The step that fails: notes the pids of the servers running now, then exits 1. */
const FAILING_STEP = `#!/usr/bin/env bash
pg="$(head -n1 "$SERVICES_DIR/postgres/postmaster.pid" 2>/dev/null || true)"
redis="$(cat "$SERVICES_DIR/redis/redis.pid" 2>/dev/null || true)"
[ -n "$pg" ] && kill -0 "$pg" 2>/dev/null && echo "postgres $pg" >>"$EVIDENCE"
[ -n "$redis" ] && kill -0 "$redis" 2>/dev/null && echo "redis $redis" >>"$EVIDENCE"
echo "failing step: $*" >&2
exit 1
`;

function writeExecutable(file: string, text: string) {
  fs.writeFileSync(file, text);
  fs.chmodSync(file, 0o755);
}

interface Run {
  code: number | null;
  output: string;
  pids: { postgres?: number; redis?: number };
}

async function runScript(script: string, name: string): Promise<Run> {
  const evidence = path.join(work, `${name}.evidence`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${fakeBin}:${process.env.PATH}`,
    // The run's data directory; make test moves DATA_DIR away from it after starting the servers.
    DATA_DIR: work,
    SERVICES_DIR: work,
    SYSTEM_PG_PORT: String(ports.systemPg),
    SYSTEM_REDIS_PORT: String(ports.systemRedis),
    OWN_PG_PORT: String(ports.ownPg),
    OWN_REDIS_PORT: String(ports.ownRedis),
    EVIDENCE: evidence,
  };
  // As on a machine with nothing configured: the scripts find (here: start) the servers themselves.
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX', 'DATABASE_SERVER_URL', 'REDIS_SERVER_URL']) delete env[k];
  const child = spawn('bash', [path.join(ROOT, script)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const pids: Run['pids'] = {};
  if (fs.existsSync(evidence)) {
    for (const line of fs.readFileSync(evidence, 'utf8').trim().split('\n')) {
      const [kind, pid] = line.split(' ');
      if (kind === 'postgres' || kind === 'redis') pids[kind] = Number(pid);
    }
  }
  return { code, output, pids };
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'sitewalk-services-'));
  fakeBin = path.join(work, 'bin');
  fs.mkdirSync(fakeBin);
  const [systemPg, systemRedis, ownPg, ownRedis] = await distinctFreePorts(4);
  ports = { systemPg, systemRedis, ownPg, ownRedis };
  writeExecutable(path.join(work, 'failing-step'), FAILING_STEP);
  // npm: installing is a no-op (node_modules is there); anything else (npm run typecheck) is the failing step.
  writeExecutable(path.join(fakeBin, 'npm'), `#!/usr/bin/env bash\ncase "$1" in ci|install) exit 0 ;; esac\nexec "${work}/failing-step" npm "$@"\n`);
  // npx: the bench steps (npx tsx bench/…).
  writeExecutable(path.join(fakeBin, 'npx'), `#!/usr/bin/env bash\nexec "${work}/failing-step" npx "$@"\n`);
  // node: the real one for the scripts' probes; the programs (node --import tsx …, the server build and the compiled server) fail.
  writeExecutable(
    path.join(fakeBin, 'node'),
    `#!/usr/bin/env bash\ncase "$1" in --import|scripts/build-server.mjs|dist/*) exec "${work}/failing-step" node "$@" ;; esac\nexec "${process.execPath}" "$@"\n`,
  );
});

const started: number[] = [];

afterAll(() => {
  // Only if a run left something behind (the test then failed): do not leave it to the machine.
  for (const pid of started) if (running(pid)) process.kill(pid, 'SIGTERM');
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe.sequential('a failing step stops the PostgreSQL and Redis the script started', () => {
  for (const [script, name] of [
    ['scripts/test.sh', 'make test'],
    ['scripts/start.sh', 'make start'],
    ['bench/run.sh', 'make bench'],
  ] as const) {
    test(name, { timeout: 120_000 }, async () => {
      const run = await runScript(script, name.replace(' ', '-'));
      const why = `output of ${script}:\n${run.output}`;
      // The servers were started by the script and ran while the failing step ran…
      expect(run.output, why).toContain(`Starting PostgreSQL on 127.0.0.1:${ports.ownPg}`);
      expect(run.output, why).toContain(`Starting Redis on 127.0.0.1:${ports.ownRedis}`);
      expect(run.output, why).toContain('failing step');
      expect(run.pids.postgres, why).toBeGreaterThan(0);
      expect(run.pids.redis, why).toBeGreaterThan(0);
      started.push(run.pids.postgres!, run.pids.redis!);
      // …the script failed with it…
      expect(run.code, why).not.toBe(0);
      // …and left neither behind: the servers gone, and no process of theirs either.
      expect(running(run.pids.postgres!), why).toBe(false);
      expect(running(run.pids.redis!), why).toBe(false);
      expect(processesIn(work), why).toEqual([]);
    });
  }
});
