/**
 * Start and idle memory of the production server (a measurement, not a
 * test): the compiled API and workers of `make start` (dist/server, plain
 * `node`, NODE_ENV=production) against the same programs run from their
 * TypeScript sources through tsx (how `make start` ran them before), in turns
 * in the same run. For each: cold start, from spawning the API process to its
 * first `GET /api/health` 200 (database and Redis answering); the API's
 * resident memory (RSS) once it answered and sat idle, 10 s and 60 s after
 * (V8 gives back the young generation that the start grew — the API's may
 * grow to 16 MB a half under load — once it has been idle for half a minute
 * or so, so the settled figure is the one a server between requests holds);
 * the workers' RSS once they listen on every queue, put their schedules in
 * place and sat idle.
 * Targets: idle workers ≤ 150 MB, idle API ≤ 120 MB, cold start ≤ 3 s on 2 cores.
 *
 *   npx tsx bench/startup-bench.ts     (or: bash bench/run.sh startup)
 *
 * Knobs: STARTUP_BENCH_ROUNDS (3), STARTUP_BENCH_IDLE_S (10), STARTUP_BENCH_SETTLE_S (60, the API only).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/support/free-port.js';
import nodeFlags from '../scripts/node-flags.json' with { type: 'json' };
import { benchEnv } from './bench-env.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.STARTUP_BENCH_ROUNDS ?? 3);
const IDLE_MS = Number(process.env.STARTUP_BENCH_IDLE_S ?? 10) * 1000;
const SETTLE_MS = Math.max(IDLE_MS, Number(process.env.STARTUP_BENCH_SETTLE_S ?? 60) * 1000);
const TARGETS = { workersMb: 150, apiMb: 120, startMs: 3000 };

benchEnv({ database: 'sitewalk_startup_bench', redisPrefix: 'sitewalk-startup-bench', dataDir: '.data/startup-bench' });
// The workers say when they listen and when their schedules are in place at info level.
process.env.LOG_LEVEL = 'info';

interface Variant {
  name: string;
  api: string[];
  workers: string[];
}
const VARIANTS: Variant[] = [
  // With the V8 flags `make start` gives them (scripts/node-flags.json).
  { name: 'compiled (dist/server, node), as make start runs it', api: [...nodeFlags.api, 'dist/server/server.js'], workers: [...nodeFlags.workers, 'dist/server/workers.js'] },
  { name: 'compiled, V8 defaults', api: ['dist/server/server.js'], workers: ['dist/server/workers.js'] },
  { name: 'sources through tsx (before)', api: ['--import', 'tsx', 'api/src/server.ts'], workers: ['--import', 'tsx', 'workers/src/main.ts'] },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};
const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function run(args: string[], env: Record<string, string>): { proc: ChildProcess; output: () => string } {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  return { proc, output: () => out };
}

async function stop(proc: ChildProcess) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await Promise.race([exited, sleep(35_000)]);
  if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
}

async function measureApi(v: Variant): Promise<{ startMs: number; rss: number; settledRss: number }> {
  const port = await freePort();
  const started = performance.now();
  const p = run(v.api, { PORT: String(port), SITEWALK_SERVICE: 'api' });
  try {
    for (;;) {
      if (p.proc.exitCode !== null) throw new Error(`${v.name} API exited:\n${p.output()}`);
      const res = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
      if (res?.status === 200) break;
      await sleep(20);
    }
    const startMs = performance.now() - started;
    await sleep(IDLE_MS);
    const rss = rssMb(p.proc.pid!);
    await sleep(SETTLE_MS - IDLE_MS);
    return { startMs, rss, settledRss: rssMb(p.proc.pid!) };
  } finally {
    await stop(p.proc);
  }
}

async function measureWorkers(v: Variant): Promise<{ readyMs: number; rss: number }> {
  const started = performance.now();
  const p = run(v.workers, { SITEWALK_SERVICE: 'workers' });
  try {
    while (!p.output().includes('"schedules in place"')) {
      if (p.proc.exitCode !== null) throw new Error(`${v.name} workers exited:\n${p.output()}`);
      await sleep(20);
    }
    const readyMs = performance.now() - started;
    await sleep(IDLE_MS);
    return { readyMs, rss: rssMb(p.proc.pid!) };
  } finally {
    await stop(p.proc);
  }
}

function setup() {
  const build = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the server build failed');
  const dbName = new URL(process.env.DATABASE_URL!).pathname.slice(1);
  if (!/_bench$/.test(dbName)) throw new Error(`Refusing to use ${dbName}: bench databases end in _bench.`);
  // The database, its migrations and a first administrator, as `make start` does before the servers.
  const prepared = spawnSync(process.execPath, ['dist/server/setup.js'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, LOG_LEVEL: 'warn' } });
  if (prepared.status !== 0) throw new Error('dist/server/setup.js failed');
}

async function main() {
  const loadBefore = loadAverage();
  setup();
  const rows = new Map<string, { start: number[]; apiRss: number[]; apiSettled: number[]; ready: number[]; workersRss: number[] }>();
  for (const v of VARIANTS) rows.set(v.name, { start: [], apiRss: [], apiSettled: [], ready: [], workersRss: [] });
  // In turns, so a neighbour's load on a shared machine falls on both alike.
  for (let round = 1; round <= ROUNDS; round++) {
    for (const v of VARIANTS) {
      const r = rows.get(v.name)!;
      const api = await measureApi(v);
      const workers = await measureWorkers(v);
      r.start.push(api.startMs);
      r.apiRss.push(api.rss);
      r.apiSettled.push(api.settledRss);
      r.ready.push(workers.readyMs);
      r.workersRss.push(workers.rss);
      console.log(`round ${round}/${ROUNDS} ${v.name}: API healthy after ${api.startMs.toFixed(0)} ms, idle ${api.rss.toFixed(0)} MB, ${api.settledRss.toFixed(0)} MB settled; workers ready after ${workers.readyMs.toFixed(0)} ms, idle ${workers.rss.toFixed(0)} MB`);
    }
  }
  const loadAfter = loadAverage();
  const compiled = rows.get(VARIANTS[0].name)!;
  const tsx = rows.get(VARIANTS[VARIANTS.length - 1].name)!;
  const m = (a: number[]) => median(a);
  const table = [
    `| Run | Cold start to GET /api/health 200 | Idle API RSS after ${IDLE_MS / 1000} s | Idle API RSS after ${SETTLE_MS / 1000} s | Workers ready (schedules in place) | Idle workers RSS |`,
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...VARIANTS.map((v) => {
      const r = rows.get(v.name)!;
      return `| ${v.name} | ${(m(r.start) / 1000).toFixed(2)} s | ${m(r.apiRss).toFixed(0)} MB | ${m(r.apiSettled).toFixed(0)} MB | ${(m(r.ready) / 1000).toFixed(2)} s | ${m(r.workersRss).toFixed(0)} MB |`;
    }),
  ].join('\n');
  const met = (ok: boolean) => (ok ? 'met' : 'not met');
  const summary =
    `**Compiled: cold start ${(m(compiled.start) / 1000).toFixed(2)} s (target ≤ 3 s ${met(m(compiled.start) <= TARGETS.startMs)}; ${(m(compiled.start) / m(tsx.start)).toFixed(2)}× tsx's), ` +
    `idle API ${m(compiled.apiSettled).toFixed(0)} MB after ${SETTLE_MS / 1000} s (≤ ${TARGETS.apiMb} MB ${met(m(compiled.apiSettled) <= TARGETS.apiMb)}; ${(m(compiled.apiSettled) / m(tsx.apiSettled)).toFixed(2)}× tsx's; ${m(compiled.apiRss).toFixed(0)} MB after ${IDLE_MS / 1000} s), ` +
    `idle workers ${m(compiled.workersRss).toFixed(0)} MB (≤ ${TARGETS.workersMb} MB ${met(m(compiled.workersRss) <= TARGETS.workersMb)}; ${(m(compiled.workersRss) / m(tsx.workersRss)).toFixed(2)}× tsx's).**`;
  console.log(`\n${table}\n\n${summary}`);
  appendResults(
    [
      `## Start and idle memory of the server, ${runDate()}`,
      '',
      `Machine: ${machine()}; load average ${loadBefore} before the run and ${loadAfter} after it (1, 5, 15 min).`,
      `Method: \`npx tsx bench/startup-bench.ts\`; ${ROUNDS} rounds, the compiled build and the tsx run in turns, medians; NODE_ENV=production; the database migrated beforehand; RSS read from /proc after ${IDLE_MS / 1000} s idle (the API after its first health answer, and again after ${SETTLE_MS / 1000} s: V8 shrinks a young generation the start grew once the process has been idle a while; until 2026-11-30 the API was measured after 10 s only, with a young generation of at most 2 MB a half; the workers once their schedules are in place and the warm-ups they start have run).`,
      '',
      table,
      '',
      summary,
      '',
    ].join('\n'),
  );
}

await main();
