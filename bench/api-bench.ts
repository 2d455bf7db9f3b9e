/**
 * API throughput (a measurement, not a test): loads an authenticated API
 * endpoint, GET /api/notifications with a bearer token against the real
 * PostgreSQL and Redis, and a bare Koa handler answering the same JSON bytes,
 * one after the other on this machine, with autocannon over loopback. Also
 * loads a call of the same API that needs no database, to show where the
 * time goes. Prints requests/s, p50/p99 latency and the ratio (how much of a
 * bare server's throughput the full stack keeps), and appends a dated
 * section with the machine to bench/RESULTS.md.
 *
 *   npx tsx bench/api-bench.ts          (or: make bench, through bench/run.sh)
 *
 * Each server runs in its own process (autocannon takes CPU too). It uses
 * its own database (default sitewalk_api_bench, recreated), Redis prefix and
 * data folder, so it never touches a user's data.
 * Knobs: API_BENCH_SECONDS (10), API_BENCH_CONNECTIONS (10).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv } from './bench-env.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.API_BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = 2;
const NOTIFICATIONS = 50;

benchEnv({ database: 'sitewalk_api_bench', redisPrefix: 'sitewalk-api-bench', dataDir: '.data/api-bench' });
const env = process.env;
env.PORT = '0';

const role = process.argv[2];
if (role === '--serve-api') await serveApi();
else if (role === '--serve-bare') await serveBare();
else await main();

/** Child process: the real API server (Koa app, Socket.IO, database, Redis) on a free loopback port. */
async function serveApi() {
  const { startServer } = await import('../api/src/server.js');
  const running = await startServer(0);
  process.stdout.write(`PORT ${running.port}\n`);
  process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
}

/** Child process: Koa with one handler answering the body it is given, no middleware. */
async function serveBare() {
  const { default: Koa } = await import('koa');
  const body = fs.readFileSync(0);
  const app = new Koa();
  app.use((ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.stdout.write(`PORT ${(server.address() as AddressInfo).port}\n`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

interface Child {
  proc: ChildProcess;
  port: number;
}

function startChild(flag: string, stdin?: Buffer): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), flag], {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  proc.stdin!.end(stdin ?? '');
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve({ proc, port: Number(m[1]) });
    });
    proc.on('exit', (code) => reject(new Error(`${flag} exited with ${code} before listening`)));
  });
}

async function stopChild(c: Child) {
  const exited = new Promise((r) => c.proc.once('exit', r));
  c.proc.kill('SIGTERM');
  await exited;
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

async function load(name: string, url: string, headers: Record<string, string>): Promise<Measured> {
  const { default: autocannon } = await import('autocannon');
  await autocannon({ url, headers, connections: CONNECTIONS, duration: WARMUP_SECONDS });
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS, title: name });
  if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx answers and ${r.errors} errors; the measurement is not valid.`);
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total };
}

/** A user with a session and some notifications, in a fresh bench database. */
async function seed(): Promise<{ token: string }> {
  const dbName = new URL(env.DATABASE_URL!).pathname.slice(1);
  if (!/_bench$/.test(dbName)) throw new Error(`Refusing to recreate ${dbName}: bench databases end in _bench.`);
  const { ensureDatabase } = await import('../api/src/cli/ensure-database.js');
  const { closeDb, db, migrateLatest, User } = await import('../api/src/core/db/index.js');
  const { issueSession } = await import('../api/src/core/services/session.service.js');
  await ensureDatabase(env.DATABASE_URL!, { recreate: true });
  await migrateLatest();
  const user = await User.query().insertAndFetch({
    username: 'bench',
    email: 'bench@example.test',
    // Never used to sign in: the bench holds a session token.
    password_hash: 'not-a-password-hash',
    first_name: 'Bench',
  });
  await db()('notifications').insert(
    Array.from({ length: NOTIFICATIONS }, (_, i) => ({
      user_id: user.id,
      kind: 'account',
      title: `Notification ${i + 1}`,
      message: 'Sheets are ready: 3 sheets were made from plan.pdf.',
      type: 'info',
      link: `/project/${i + 1}`,
      is_read: i % 3 === 0,
    })),
  );
  const { token } = await issueSession(user.id, { remember: true });
  await closeDb();
  return { token };
}

async function serviceVersions(): Promise<string> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  const pgVersion = (await client.query('show server_version')).rows[0].server_version as string;
  await client.end();
  const { Redis } = await import('ioredis');
  const redis = new Redis(env.REDIS_URL!);
  const info = await redis.info('server');
  await redis.quit();
  return `PostgreSQL ${pgVersion}, Redis ${/redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown'}`;
}

async function main() {
  // The machine may be shared: the load before the run says how quiet it was.
  const loadBefore = loadAverage();
  fs.rmSync(path.resolve(ROOT, env.DATA_DIR!), { recursive: true, force: true });
  const { token } = await seed();
  const auth = { authorization: `Bearer ${token}` };

  const api = await startChild('--serve-api');
  let apiResult: Measured;
  let stackResult: Measured;
  let body: Buffer;
  try {
    const url = `http://127.0.0.1:${api.port}/api/notifications`;
    const res = await fetch(url, { headers: auth });
    body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`GET /api/notifications answered ${res.status}: ${body}`);
    console.log(`API: GET /api/notifications (${body.length} bytes, page of 20 of ${NOTIFICATIONS}) for ${SECONDS} s with ${CONNECTIONS} connections...`);
    apiResult = await load('API GET /api/notifications (bearer token, PostgreSQL)', url, auth);
    // Where the time goes: the same server and middleware on a call that needs no database.
    console.log(`API without the database: GET /api/sanctum/csrf-cookie for ${SECONDS} s...`);
    stackResult = await load('API GET /api/sanctum/csrf-cookie (middleware only, no database)', `http://127.0.0.1:${api.port}/api/sanctum/csrf-cookie`, {});
  } finally {
    await stopChild(api);
  }

  const bare = await startChild('--serve-bare', body);
  let bareResult: Measured;
  try {
    console.log(`Bare Koa: the same ${body.length} bytes for ${SECONDS} s with ${CONNECTIONS} connections...`);
    bareResult = await load('Bare Koa handler (same JSON bytes)', `http://127.0.0.1:${bare.port}/`, auth);
  } finally {
    await stopChild(bare);
  }

  const ratio = apiResult.rps / bareResult.rps;
  const rows = [apiResult, stackResult, bareResult].map((m) => `| ${m.name} | ${m.rps.toFixed(0)} | ${m.p50} ms | ${m.p99} ms | ${m.requests} |`);
  const table = ['| Server | Requests/s | p50 latency | p99 latency | Requests |', '| --- | ---: | ---: | ---: | ---: |', ...rows].join('\n');
  const summary =
    `The authenticated API call serves ${(ratio * 100).toFixed(1)} % of the bare handler's requests/s (ratio ${ratio.toFixed(3)}; bare is ${(1 / ratio).toFixed(1)}× faster). ` +
    `The middleware alone keeps ${((stackResult.rps / bareResult.rps) * 100).toFixed(1)} %, so the database round trips (session, user, page, counts) take most of the difference.`;
  console.log(`\n${table}\n\n${summary}`);

  const section = [
    `## API throughput, ${runDate()}`,
    '',
    `Machine: ${machine()}; ${await serviceVersions()}; load average before the run ${loadBefore} (1, 5, 15 min).`,
    `Load: autocannon over loopback, ${CONNECTIONS} connections, ${SECONDS} s per server after a ${WARMUP_SECONDS} s warm-up; each server in its own Node process; NODE_ENV=production, LOG_LEVEL=${env.LOG_LEVEL}.`,
    `The API call authenticates the bearer token (session and user lookups) and reads one page of 20 of ${NOTIFICATIONS} notifications with the total and unread counts.`,
    '',
    table,
    '',
    summary,
    '',
  ].join('\n');
  appendResults(section);
}
