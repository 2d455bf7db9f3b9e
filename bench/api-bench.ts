/**
 * API throughput (a measurement, not a test): loads an authenticated API
 * endpoint, GET /api/notifications with a bearer token against the real
 * PostgreSQL and Redis, and the reference it is judged against: a
 * hand-written Koa handler on raw `pg` doing the same SQL work (token hash to
 * session and user in one statement, one page of 20 with both counts in
 * another, both prepared, a pool of the same size) and answering the same
 * JSON bytes.
 * For where the time goes it also loads a call of the API that needs no
 * database and a bare Koa handler answering the same bytes from memory.
 * All one after the other on this machine, with autocannon over loopback.
 * Prints requests/s, p50/p99 latency and the ratio API / hand-written (the
 * figure that counts: goal >= 0.8 with p99 < 50 ms at 100 connections), and
 * appends a dated section with the machine to bench/RESULTS.md.
 *
 *   npx tsx bench/api-bench.ts          (or: make bench, through bench/run.sh)
 *
 * Each server runs in its own process (autocannon takes CPU too). It uses
 * its own database (default sitewalk_api_bench, recreated), Redis prefix and
 * data folder, so it never touches a user's data.
 * The API process runs with the V8 flags `make start` gives it (scripts/node-flags.json), the others with V8's defaults.
 * Knobs: API_BENCH_SECONDS (10), API_BENCH_CONNECTIONS (100), API_BENCH_ROUNDS (2), API_BENCH_API_FLAGS (other V8 flags for the API), DB_POOL_MAX (the
 * API's default, 10; the hand-written reference uses the same), API_BENCH_CPU_PROF (a folder: the API
 * process writes a CPU profile there; `npx tsx bench/cpu-profile-top.ts <file>` sums it by function and package), API_BENCH_ALLOC_PROF (a file `x.heapprofile`: the API process
 * writes a sampling heap profile of every allocation of the notifications rounds there, the collected ones too — what each answer allocates — and the
 * reference writes its own to `x.reference.heapprofile`; the same tool sums them), API_BENCH_ALLOC_SURVIVORS=1 (that profile keeps only what outlived
 * a young-generation collection: what makes the scavenges long).
 * Both servers count their garbage collections' pauses during the notifications rounds, in the table.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nodeFlags from '../scripts/node-flags.json' with { type: 'json' };
import { benchEnv } from './bench-env.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.API_BENCH_CONNECTIONS ?? 100);
const POOL_MAX = Number(process.env.DB_POOL_MAX ?? 10);
const ROUNDS = Number(process.env.API_BENCH_ROUNDS ?? 2);
const WARMUP_SECONDS = 2;
const NOTIFICATIONS = 50;

benchEnv({ database: 'sitewalk_api_bench', redisPrefix: 'sitewalk-api-bench', dataDir: '.data/api-bench' });
const env = process.env;
env.PORT = '0';

const role = process.argv[2];
if (role === '--serve-api') await serveApi();
else if (role === '--serve-bare') await serveBare();
else if (role === '--serve-hand') await serveHandWritten();
else await main();

/** Child process: the real API server (Koa app, Socket.IO, database, Redis) on a free loopback port. */
async function serveApi() {
  const { startServer } = await import('../api/src/server.js');
  const running = await startServer(0);
  const stopProfile = await allocationProfile(env.API_BENCH_ALLOC_PROF);
  await gcPauses();
  process.stdout.write(`PORT ${running.port}\n`);
  process.on('SIGTERM', () => void stopProfile().then(() => running.close()).then(() => process.exit(0)));
}

/**
 * Samples every allocation of this process into `file` (the collected objects too: what each answer allocates), until
 * SIGUSR2 (main() sends it when the notifications rounds are over, before the middleware-only load) or the returned stop.
 */
async function allocationProfile(file: string | undefined): Promise<() => Promise<void>> {
  if (!file) return async () => undefined;
  const inspector = await import('node:inspector/promises');
  const session = new inspector.Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !env.API_BENCH_ALLOC_SURVIVORS } as never);
  let done: Promise<void> | null = null;
  const stop = () =>
    (done ??= (async () => {
      const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: unknown };
      fs.writeFileSync(file, JSON.stringify(profile));
    })());
  process.once('SIGUSR2', () => void stop());
  return stop;
}

/** A server's garbage collections during the notifications rounds, by kind: a pause stops every answer in flight. */
interface GcKind {
  count: number;
  totalMs: number;
  longestMs: number;
}
type GcPauses = Record<string, GcKind>;

/**
 * Counts this server's collections' pauses by kind (perf_hooks) and writes them to stdout as `GC {json}` on SIGUSR2, sent
 * when the notifications rounds are over: the scavenges' length (what outlives the young generation) makes the p99.
 */
async function gcPauses() {
  const { PerformanceObserver, constants } = await import('node:perf_hooks');
  const kinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  const seen: GcPauses = {};
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const k = (seen[kinds[((e as unknown as { detail: { kind: number } }).detail).kind] ?? 'other'] ??= { count: 0, totalMs: 0, longestMs: 0 });
      k.count++;
      k.totalMs += e.duration;
      k.longestMs = Math.max(k.longestMs, e.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  process.once('SIGUSR2', () => {
    observer.disconnect();
    process.stdout.write(`GC ${JSON.stringify(seen)}\n`);
  });
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

/**
 * Child process: the hand-written reference. What a careful person would write
 * for this one endpoint with Koa and `pg` alone, with the API's SQL: the
 * bearer token's SHA-256 picks the live session and its active user in one
 * prepared statement, then one prepared statement gives the page of 20 with
 * both counts. It answers the API's envelope byte for byte (main() checks), with no other
 * middleware (no security headers, request id, logging, CORS or limits).
 */
async function serveHandWritten() {
  const { default: Koa } = await import('koa');
  const pg = (await import('pg')).default;
  const crypto = await import('node:crypto');
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: POOL_MAX });
  await gcPauses();
  // Profiled beside the API when asked: the same sampling, so the two can be read side by side.
  const stopProfile = await allocationProfile(env.API_BENCH_ALLOC_PROF === undefined ? undefined : `${env.API_BENCH_ALLOC_PROF.replace(/\.heapprofile$/, '')}.reference.heapprofile`);
  const app = new Koa();
  app.use(async (ctx) => {
    const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
    const hash = m ? crypto.createHash('sha256').update(m[1]).digest('hex') : '';
    const auth = await pool.query({
      name: 'hand-session',
      text:
        'select s.id as session_id, s.user_id as session_user_id, s.token_hash, s.expires_at, s.remember, s.ip, s.user_agent, s.last_used_at, ' +
        's.created_at as session_created_at, u.* from sessions s join users u on u.id = s.user_id where s.token_hash = $1 and s.expires_at > $2 and u.active',
      values: [hash, new Date()],
    });
    const user = auth.rows[0];
    if (!user) {
      ctx.status = 401;
      ctx.body = { status: 'error', message: 'Please sign in to continue.', data: null };
      return;
    }
    const page = 1;
    const perPage = 20;
    // The page and both counts in one statement, as the API does.
    const { rows } = await pool.query({
      name: 'hand-page',
      text:
        'select c.total, c.unread, n.id, n.title, n.message, n.type, n.is_read, n.created_at, n.link, n.title_key, n.message_key, n.params ' +
        'from (select count(*)::int as total, (count(*) filter (where not is_read))::int as unread from notifications where user_id = $1) c ' +
        'left join lateral (select id, title, message, type, is_read, created_at, link, title_key, message_key, params from notifications where user_id = $1 ' +
        'order by created_at desc, id desc limit $2 offset $3) n on true order by n.created_at desc, n.id desc',
      values: [user.id, perPage, (page - 1) * perPage],
    });
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({
      status: 'success',
      message: 'OK',
      data: {
        items: rows.filter((n) => n.id !== null).map((n) => ({
          id: n.id,
          title: n.title,
          message: n.message,
          type: n.type,
          is_read: n.is_read,
          created_at: (n.created_at as Date).toISOString(),
          link: n.link,
        })),
        total: rows[0].total,
        page,
        per_page: perPage,
        unread: rows[0].unread,
      },
    });
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.stdout.write(`PORT ${(server.address() as AddressInfo).port}\n`);
  process.on('SIGTERM', () => void stopProfile().then(() => server.close(() => void pool.end().then(() => process.exit(0)))));
}

interface Child {
  proc: ChildProcess;
  port: number;
  /** What the child writes after SIGUSR2: its collections' pauses (servers that count them). */
  gc: Promise<GcPauses>;
}

function startChild(flag: string, stdin?: Buffer): Promise<Child> {
  // API_BENCH_CPU_PROF=<folder>: the API process writes a V8 CPU profile there when it stops (open it in Chrome DevTools or speedscope).
  const profile = flag === '--serve-api' && env.API_BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(ROOT, env.API_BENCH_CPU_PROF)] : [];
  // The API runs with the V8 flags make start gives it (scripts/node-flags.json; API_BENCH_API_FLAGS to try others): its young
  // generation's size decides how much of each answer's garbage outlives it, and with it the full collections that make the tail.
  const v8 = flag === '--serve-api' ? (env.API_BENCH_API_FLAGS?.split(' ').filter(Boolean) ?? nodeFlags.api) : [];
  const proc = spawn(process.execPath, [...profile, ...v8, '--import', 'tsx', fileURLToPath(import.meta.url), flag], {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  proc.stdin!.end(stdin ?? '');
  let out = '';
  let gcLine: (v: GcPauses) => void;
  const gc = new Promise<GcPauses>((r) => (gcLine = r));
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve({ proc, port: Number(m[1]), gc });
      const g = /^GC (.*)$/m.exec(out);
      if (g) gcLine(JSON.parse(g[1]) as GcPauses);
    });
    proc.on('exit', (code) => reject(new Error(`${flag} exited with ${code} before listening`)));
  });
}

async function stopChild(c: Child) {
  const exited = new Promise((r) => c.proc.once('exit', r));
  c.proc.kill('SIGTERM');
  await exited;
}

/** A server's pauses in words: scavenges (young generation) first, then the full collections. */
function gcText(g: GcPauses): string {
  const kinds = Object.entries(g).sort(([a], [b]) => (a === 'scavenge' ? -1 : b === 'scavenge' ? 1 : a.localeCompare(b)));
  if (!kinds.length) return 'none counted';
  return kinds.map(([k, v]) => `${v.count} ${k} (${v.totalMs.toFixed(0)} ms in all, ${(v.totalMs / v.count).toFixed(1)} ms each, longest ${v.longestMs.toFixed(1)} ms)`).join(', ');
}

/** Beside the reference, in one run: ≥ 0.85 of its requests/s, ≤ 1.15× its CPU per answer, p99 ≤ 1.2× its p99. */
function sameRunGoal(ratio: number, api: Measured, hand: Measured): string {
  const cpu = api.cpuPerRequest && hand.cpuPerRequest ? api.cpuPerRequest / hand.cpuPerRequest : null;
  const tail = api.p99 / hand.p99;
  const met = ratio >= 0.85 && cpu !== null && cpu <= 1.15 && tail <= 1.2;
  return `Beside the reference (≥ 0.85 of its requests/s, ≤ 1.15× its CPU per answer, p99 ≤ 1.2× its p99): ${met ? 'met' : 'not met'} (${ratio.toFixed(2)}, ${cpu === null ? 'n/a' : `${cpu.toFixed(2)}×`}, p99 ${tail.toFixed(2)}×).`;
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Each round's p99, where rounds were combined (the worst is `p99`): on a shared machine the tail moves from run to run. */
  p99s?: number[];
  requests: number;
  /** CPU time of the server process per answer (user + system), in ms; null where /proc is missing. */
  cpuPerRequest: number | null;
}

/** User + system CPU time of a process so far, in ms (Linux /proc; null elsewhere). */
function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100 on Linux)
  } catch {
    return null;
  }
}

async function load(name: string, url: string, headers: Record<string, string>, server: Child): Promise<Measured> {
  const { default: autocannon } = await import('autocannon');
  await autocannon({ url, headers, connections: CONNECTIONS, duration: WARMUP_SECONDS });
  const cpuBefore = cpuMs(server.proc.pid);
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS, title: name });
  const cpuAfter = cpuMs(server.proc.pid);
  if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx answers and ${r.errors} errors; the measurement is not valid.`);
  const cpuPerRequest = cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / r.requests.total : null;
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total, cpuPerRequest };
}

/** Rounds of the same server as one row: mean requests/s, median p50, the worst p99, CPU per answer over all. */
function combine(rounds: Measured[]): Measured {
  const sorted = rounds.map((m) => m.p50).sort((x, y) => x - y);
  const requests = rounds.reduce((n, m) => n + m.requests, 0);
  const cpu = rounds.every((m) => m.cpuPerRequest !== null) ? rounds.reduce((t, m) => t + m.cpuPerRequest! * m.requests, 0) / requests : null;
  return {
    name: rounds[0].name,
    rps: rounds.reduce((t, m) => t + m.rps, 0) / rounds.length,
    p50: sorted[Math.floor((sorted.length - 1) / 2)],
    p99: Math.max(...rounds.map((m) => m.p99)),
    p99s: rounds.map((m) => m.p99),
    requests,
    cpuPerRequest: cpu,
  };
}

/** A user with a session and some notifications, in a fresh bench database. */
async function seed(): Promise<{ token: string }> {
  const dbName = new URL(env.DATABASE_URL!).pathname.slice(1);
  if (!/_bench$/.test(dbName)) throw new Error(`Refusing to recreate ${dbName}: bench databases end in _bench.`);
  const { ensureDatabase } = await import('../api/src/cli/ensure-database.js');
  const { closeDb, db, migrateLatest, User } = await import('@sitewalk/core/db');
  const { issueSession } = await import('@sitewalk/core/services/session.service.js');
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
  // The machine may be shared: the load before and after the run says how quiet it was.
  const loadBefore = loadAverage();
  fs.rmSync(path.resolve(ROOT, env.DATA_DIR!), { recursive: true, force: true });
  const { token } = await seed();
  const auth = { authorization: `Bearer ${token}` };

  const api = await startChild('--serve-api');
  const hand = await startChild('--serve-hand');
  const apiRounds: Measured[] = [];
  const handRounds: Measured[] = [];
  let stackResult: Measured;
  let apiGc: GcPauses = {};
  let handGc: GcPauses = {};
  let body: Buffer;
  try {
    const apiUrl = `http://127.0.0.1:${api.port}/api/notifications`;
    const handUrl = `http://127.0.0.1:${hand.port}/api/notifications`;
    const res = await fetch(apiUrl, { headers: auth });
    body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`GET /api/notifications answered ${res.status}: ${body}`);
    const same = Buffer.from(await (await fetch(handUrl, { headers: auth })).arrayBuffer());
    if (!same.equals(body)) throw new Error(`The hand-written reference answers other bytes than the API:\n${same}\n${body}`);
    // Taken in turns, so a neighbour's load on a shared machine falls on both alike.
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`Round ${round}/${ROUNDS}: API GET /api/notifications (${body.length} bytes, page of 20 of ${NOTIFICATIONS}) for ${SECONDS} s with ${CONNECTIONS} connections...`);
      apiRounds.push(await load('API GET /api/notifications (bearer token, PostgreSQL)', apiUrl, auth, api));
      console.log(`Round ${round}/${ROUNDS}: hand-written Koa + pg, the same work and bytes...`);
      handRounds.push(await load('Hand-written Koa + raw pg (same queries, prepared, same JSON bytes)', handUrl, auth, hand));
    }
    // The collections' pauses and the allocation profile cover the notifications rounds only (the children write them on SIGUSR2).
    const gcs = [api, hand].map((c) => c.gc);
    for (const c of [api, hand]) c.proc.kill('SIGUSR2');
    [apiGc, handGc] = await Promise.all(gcs);
    // Where the time goes: the same server and middleware on a call that needs no database.
    console.log(`API without the database: GET /api/sanctum/csrf-cookie for ${SECONDS} s...`);
    stackResult = await load('API GET /api/sanctum/csrf-cookie (middleware only, no database)', `http://127.0.0.1:${api.port}/api/sanctum/csrf-cookie`, {}, api);
  } finally {
    await Promise.all([stopChild(api), stopChild(hand)]);
  }
  const apiResult = combine(apiRounds);
  const handResult = combine(handRounds);

  const bare = await startChild('--serve-bare', body);
  let bareResult: Measured;
  try {
    console.log(`Bare Koa: the same ${body.length} bytes for ${SECONDS} s with ${CONNECTIONS} connections...`);
    bareResult = await load('Bare Koa handler (same JSON bytes from memory, no database)', `http://127.0.0.1:${bare.port}/`, auth, bare);
  } finally {
    await stopChild(bare);
  }
  const loadAfter = loadAverage();

  const ratio = apiResult.rps / handResult.rps;
  const goal = ratio >= 0.8 && apiResult.p99 < 50;
  const cpu = (m: Measured) => (m.cpuPerRequest === null ? 'n/a' : `${m.cpuPerRequest.toFixed(3)} ms`);
  const rows = [apiResult, handResult, stackResult, bareResult].map(
    (m) => `| ${m.name} | ${m.rps.toFixed(0)} | ${m.p50} ms | ${m.p99} ms${m.p99s && m.p99s.length > 1 ? ` (rounds: ${m.p99s.join(', ')})` : ''} | ${cpu(m)} | ${m.requests} |`,
  );
  const table = ['| Server | Requests/s | p50 latency | p99 latency | Server CPU per answer | Requests |', '| --- | ---: | ---: | ---: | ---: | ---: |', ...rows].join('\n');
  const cpuRatio =
    apiResult.cpuPerRequest && handResult.cpuPerRequest ? ` The API process spends ${(apiResult.cpuPerRequest / handResult.cpuPerRequest).toFixed(2)}× the reference's CPU time per answer.` : '';
  const summary =
    `**The authenticated API call serves ${(ratio * 100).toFixed(1)} % of the hand-written reference's requests/s (ratio ${ratio.toFixed(3)}), p99 ${apiResult.p99} ms: ` +
    `goal (>= 0.8, p99 < 50 ms at 100 connections) ${goal ? 'met' : 'not met'}${CONNECTIONS === 100 ? '' : ` (this run used ${CONNECTIONS} connections)`}.**${cpuRatio} ` +
    `Without the database the API's middleware keeps ${((stackResult.rps / bareResult.rps) * 100).toFixed(1)} % of bare Koa's requests/s. ` +
    sameRunGoal(ratio, apiResult, handResult);
  const pauses = `Garbage collection during the notifications rounds (warm-ups included): the API ${gcText(apiGc)}; the reference ${gcText(handGc)}.`;
  console.log(`\n${table}\n\n${summary}\n\n${pauses}`);

  const section = [
    `## API throughput, ${runDate()}`,
    '',
    `Machine: ${machine()}; ${await serviceVersions()}; load average ${loadBefore} before the run and ${loadAfter} after it (1, 5, 15 min; the machine may be shared, the ratio is taken within one run).`,
    `Load: autocannon over loopback, ${CONNECTIONS} connections, ${SECONDS} s per server after a ${WARMUP_SECONDS} s warm-up, the API and the reference in turns for ${ROUNDS} rounds (mean requests/s, median p50, worst p99); each server in its own Node process, the API with the V8 flags make start gives it (${(env.API_BENCH_API_FLAGS ?? nodeFlags.api.join(' ')) || 'none'}; until 2026-11-30 V8's defaults); NODE_ENV=production, LOG_LEVEL=${env.LOG_LEVEL}; ${POOL_MAX} PostgreSQL connections for the API and the reference alike.`,
    `Both the API and the reference authenticate the bearer token (session and user) and read one page of 20 of ${NOTIFICATIONS} notifications with the total and unread counts, answering the same bytes.`,
    '',
    table,
    '',
    summary,
    '',
    pauses,
    '',
  ].join('\n');
  appendResults(section);
}
