/**
 * Several workers processes on the same cores (issue 23; a measurement, not a
 * test): four walk videos queued at once, processed (keyframes, then the
 * reconstruction) by one workers process, and the same four by two workers
 * processes, in the same run. Each walk is uploaded through the API (in this
 * process) and started by the API call the stepper makes; the workers are the
 * compiled program of `make start` (dist/server/workers.js, plain node),
 * serving the video and reconstruction queues. Timed from the four start
 * calls to the fourth walk waiting for its control points. Checks that every
 * walk was done exactly once: each of its steps ran one attempt, and its
 * keyframes and clusters were recorded once.
 * Target: two processes take ≤ 1.05× the time of one (no cost for being
 * several on the same cores).
 *
 *   npx tsx bench/several-workers-bench.ts [--seconds 12] [--rounds 1]   (or: bash bench/run.sh workers)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import nodeFlags from '../scripts/node-flags.json' with { type: 'json' };
import { benchEnv } from './bench-env.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags } = parseArgs({ options: { seconds: { type: 'string' }, rounds: { type: 'string' } } });
const SECONDS = Number(flags.seconds ?? 12);
const ROUNDS = Number(flags.rounds ?? 1);
const WALKS = 4;

benchEnv({ database: 'sitewalk_workers_bench', redisPrefix: 'sitewalk-workers-bench', dataDir: '.data/workers-bench' });
const env = process.env;
env.DATA_DIR = path.resolve(ROOT, env.DATA_DIR!);

const { ensureDatabase } = await import('../api/src/cli/ensure-database.js');
const { closeDb, migrateLatest, User, Project, Visit } = await import('@sitewalk/core/db');
const { closeQueues } = await import('@sitewalk/core/queue');
const { closeRedis } = await import('@sitewalk/core/redis.js');
const { issueSession } = await import('@sitewalk/core/services/session.service.js');
const { createApp } = await import('../api/src/app.js');
const { cachedWalk } = await import('../workers/test/walk-fixture.js');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function seed(): Promise<{ token: string; projectId: number; userId: number }> {
  const dbName = new URL(env.DATABASE_URL!).pathname.slice(1);
  if (!/_bench$/.test(dbName)) throw new Error(`Refusing to recreate ${dbName}: bench databases end in _bench.`);
  await ensureDatabase(env.DATABASE_URL!, { recreate: true });
  await migrateLatest();
  const user = await User.query().insertAndFetch({ username: 'bench', email: 'bench@example.test', password_hash: 'not-a-password-hash', first_name: 'Bench', super_admin: true });
  const project = await Project.query().insertAndFetch({ name: 'Workers bench', id_owner: user.id, project_code: crypto.randomUUID() } as never);
  const { token } = await issueSession(user.id, { remember: true });
  return { token, projectId: project.id, userId: user.id };
}

/** One API call of the stepper, with the bench user's bearer token. */
async function call(base: string, token: string, method: string, p: string, body?: unknown): Promise<{ status: number; data: any }> {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body instanceof FormData || body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as { data?: unknown; message?: string };
  if (res.status >= 300) throw new Error(`${method} ${p} answered ${res.status}: ${json.message ?? ''}`);
  return { status: res.status, data: json.data };
}

interface Proc {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<unknown>;
}
function startWorkers(i: number): Proc {
  const proc = spawn(process.execPath, [...nodeFlags.workers, 'dist/server/workers.js'], {
    cwd: ROOT,
    env: { ...env, WORKER_QUEUES: 'video,reconstruction', LOG_LEVEL: 'info', SITEWALK_SERVICE: `workers-${i}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-1_000_000)));
  proc.stderr!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-1_000_000)));
  return { proc, output: () => out, exited: new Promise((r) => proc.once('exit', r)) };
}
async function stopWorkers(ps: Proc[]) {
  for (const p of ps) p.proc.kill('SIGTERM');
  await Promise.race([Promise.all(ps.map((p) => p.exited)), sleep(40_000)]);
  for (const p of ps) if (p.proc.exitCode === null) p.proc.kill('SIGKILL');
}

interface Outcome {
  seconds: number;
  onceEach: boolean;
  detail: string;
}

/** Four walks uploaded, then started at once, on `processes` workers processes; seconds until all four wait for control points. */
async function round(base: string, token: string, projectId: number, walkFile: string, processes: number, label: string): Promise<Outcome> {
  const visits: number[] = [];
  for (let i = 0; i < WALKS; i++) {
    const visit = await call(base, token, 'POST', '/api/visits', { id_project: projectId, name: `${label} walk ${i + 1}` });
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(walkFile)], { type: 'video/mp4' }), 'walk.mp4');
    await call(base, token, 'POST', `/api/visits/${visit.data.id}/video`, form);
    visits.push(visit.data.id as number);
  }
  const videoIds: number[] = [];
  for (const v of visits) videoIds.push((await call(base, token, 'GET', `/api/visits/${v}/video`)).data.id as number);
  const workers = Array.from({ length: processes }, (_, i) => startWorkers(i + 1));
  try {
    for (const w of workers) {
      for (const end = Date.now() + 120_000; !w.output().includes('"workers started"'); await sleep(100)) {
        if (w.proc.exitCode !== null || Date.now() > end) throw new Error(`workers process did not start:\n${w.output().slice(-3000)}`);
      }
    }
    const t0 = performance.now();
    await Promise.all(videoIds.map((id) => call(base, token, 'POST', '/api/python/videos/process', { video_id: id })));
    let runs: any[] = [];
    for (;;) {
      runs = await Promise.all(visits.map(async (v) => (await call(base, token, 'GET', `/api/visits/${v}/video`)).data.run));
      const failed = runs.find((r) => r?.status === 'failed' || r?.error);
      if (failed) throw new Error(`a walk failed: ${JSON.stringify(failed.error)}`);
      if (runs.every((r) => r?.status === 'needs_projection')) break;
      if (workers.some((w) => w.proc.exitCode !== null)) throw new Error('a workers process exited');
      await sleep(250);
    }
    const seconds = (performance.now() - t0) / 1000;
    const attempts = runs.flatMap((r) => (r.steps as Array<{ step: string; attempts: number }>).filter((s) => s.attempts > 0).map((s) => s.attempts));
    const onceEach = attempts.every((a) => a === 1) && runs.every((r) => r.artifacts.keyframes.length > 0 && r.artifacts.clusters.length > 0);
    const byProcess = workers.map((w) => (w.output().match(/"job":"video\.generate-ply"[^\n]*job completed/g) ?? []).length);
    return {
      seconds,
      onceEach,
      detail: `attempts per step ${[...new Set(attempts)].join('/')}, keyframes ${runs.map((r) => r.artifacts.keyframes.length).join('/')}, reconstructions by process ${byProcess.join('/')}`,
    };
  } finally {
    await stopWorkers(workers);
  }
}

if (!fs.existsSync(path.join(ROOT, 'dist/server/workers.js'))) execFileSync('node', ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
const walkDir = await cachedWalk(path.join(env.DATA_DIR!, `walk-${SECONDS}s`), { kind: '360', seconds: SECONDS, width: 960, height: 480, fps: 15, threads: 2 });
const walkFile = path.join(walkDir, 'walk.mp4');
const { token, projectId } = await seed();
const server = http.createServer(createApp({ serveClient: false }).callback());
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const loadBefore = loadAverage();

const results: Record<number, Outcome[]> = { 1: [], 2: [] };
for (let r = 0; r < ROUNDS; r++) {
  // Alternating which goes first, so a busy moment of the machine falls on both.
  for (const n of r % 2 ? [2, 1] : [1, 2]) {
    const o = await round(base, token, projectId, walkFile, n, `round ${r + 1}, ${n} process${n > 1 ? 'es' : ''}`);
    console.log(`round ${r + 1}: ${n} workers process(es): ${o.seconds.toFixed(1)} s; done once each: ${o.onceEach} (${o.detail})`);
    results[n].push(o);
  }
}
const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const one = median(results[1].map((o) => o.seconds));
const two = median(results[2].map((o) => o.seconds));
const ratio = two / one;
const allOnce = [...results[1], ...results[2]].every((o) => o.onceEach);
const section = [
  `## Four walks on one and on two workers processes (bench/several-workers-bench.ts), ${runDate()}`,
  '',
  `Machine: ${machine()}; load average ${loadBefore} before the run and ${loadAverage()} after it (1, 5, 15 min).`,
  `Method: four generated 360 walks of ${SECONDS} s (960 × 480, 15 fps) uploaded through the API and started at once by the stepper's call; the compiled workers program (dist/server/workers.js, NODE_ENV=production) serving the video and reconstruction queues, one process or two; timed from the start calls until all four wait for their control points; ${ROUNDS} round(s), the order alternating, medians.`,
  '',
  '| Workers processes | Four walks done | Done once each | Detail |',
  '| --- | ---: | --- | --- |',
  ...[1, 2].map((n) => `| ${n} | ${median(results[n].map((o) => o.seconds)).toFixed(1)} s | ${results[n].every((o) => o.onceEach) ? 'yes' : 'NO'} | ${results[n].map((o) => o.detail).join('; ')} |`),
  '',
  `**Two processes take ${ratio.toFixed(2)}× the time of one (target ≤ 1.05×: ${ratio <= 1.05 ? 'met' : 'not met'}); every walk done exactly once: ${allOnce ? 'yes' : 'no'}.**`,
  '',
].join('\n');
console.log(`\n${section}`);
appendResults(section);
server.close();
await Promise.allSettled([closeQueues(), closeRedis(), closeDb()]);
process.exit(0);
