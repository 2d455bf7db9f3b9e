/**
 * Tier lookup and usage reports (a measurement, not a test): with 10,000
 * projects and 50 non-overlapping tiers in PostgreSQL, the API answers
 *   POST /api/project-tiers/find-tier          (a random size each time)
 *   GET  /api/project-tiers/usage/current      (every project, as a super admin sees them)
 *   GET  /api/project-tiers/usage/yearly
 * one request at a time over loopback, and the reference does the same SQL
 * (the statements the service runs, imported from it) through raw `pg` on a
 * pool of its own, in the same run. Prints and records p50/p99 of each and
 * the ratio API / raw SQL. Goal: p99 under 20 ms for each endpoint.
 *
 *   npx tsx bench/tiers-bench.ts          (or: bash bench/run.sh tiers)
 *
 * Uses its own database (default sitewalk_tiers_bench, recreated), Redis
 * prefix and data folder. Knobs: TIERS_BENCH_REQUESTS (400 per endpoint),
 * TIERS_BENCH_PROJECTS (10000), TIERS_BENCH_TIERS (50).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { benchEnv } from './bench-env.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

benchEnv({ database: 'sitewalk_tiers_bench', redisPrefix: 'sitewalk-tiers-bench', dataDir: '.data/tiers-bench' });
const REQUESTS = Number(process.env.TIERS_BENCH_REQUESTS ?? 400);
const PROJECTS = Number(process.env.TIERS_BENCH_PROJECTS ?? 10_000);
const TIERS = Number(process.env.TIERS_BENCH_TIERS ?? 50);
const WARMUP = 50;

const { ensureDatabase } = await import('../api/src/cli/ensure-database.js');
await ensureDatabase(process.env.DATABASE_URL!, { recreate: true });
const { db, closeDb, migrateLatest } = await import('@sitewalk/core/db');
await migrateLatest();
const { createApp } = await import('../api/src/app.js');
const { issueSession } = await import('@sitewalk/core/services/session.service.js');
const { FIND_SQL, USAGE_MONTH_SQL, USAGE_YEAR_SQL } = await import('@sitewalk/core/repositories/tiers.repository.js');
const { closeQueues } = await import('@sitewalk/core/queue');
const { closeRedis } = await import('@sitewalk/core/redis.js');
const pg = (await import('pg')).default;

// A fixed generator, so every run measures the same data.
let seed = 42;
const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const pick = (n: number) => Math.floor(rand() * n);

/**
 * 50 tiers: 10 area bands (0–250, 250–500, … doubling, the last open) × 5
 * floor bands (1–2, 3–5, 6–10, 11–20, 21+), buildings 0+; no two overlap.
 */
function tierRows() {
  const areaEdges = [0, 250, 500, 1000, 2000, 4000, 8000, 16_000, 32_000, 64_000];
  const floorBands: [number, number | null][] = [[0, 2], [3, 5], [6, 10], [11, 20], [21, null]];
  const rows = [];
  for (let a = 0; a < areaEdges.length; a++) {
    for (let f = 0; f < floorBands.length && rows.length < TIERS; f++) {
      rows.push({
        name: `Tier ${a + 1}.${f + 1}`,
        price: 10 * (a + 1) + 5 * f,
        min_area: areaEdges[a],
        max_area: a + 1 < areaEdges.length ? areaEdges[a + 1] : null,
        min_buildings: 0,
        max_buildings: null,
        min_floors: floorBands[f][0],
        max_floors: floorBands[f][1],
      });
    }
  }
  return rows;
}

async function seedData(): Promise<{ token: string }> {
  const k = db();
  const [admin] = await k('users').insert({ username: 'bench_admin', email: 'bench_admin@example.test', password_hash: 'x', active: true, super_admin: true }).returning('id');
  const owners = await k('users')
    .insert(Array.from({ length: 200 }, (_, i) => ({ username: `bench_owner_${i}`, email: `bench_owner_${i}@example.test`, password_hash: 'x', active: true })))
    .returning('id');
  await k('project_tiers').insert(tierRows());
  const now = Date.now();
  const projects = Array.from({ length: PROJECTS }, (_, i) => ({
    id_owner: owners[pick(owners.length)].id,
    name: `Project ${i}`,
    project_code: `bench${i.toString(36)}x${pick(1e9).toString(36)}`,
    // A few without a size, most between 50 m² and 100,000 m².
    area: i % 50 === 0 ? null : Math.round(50 * Math.exp(rand() * Math.log(2000))),
    num_buildings: 1 + pick(5),
    num_floors: 1 + pick(40),
    active: true,
    validated: true,
    created_at: new Date(now - pick(2 * 365) * 86_400_000),
  }));
  for (let i = 0; i < projects.length; i += 1000) await k('projects').insert(projects.slice(i, i + 1000));
  await k.raw('analyze');
  const session = await issueSession(admin.id, { remember: false });
  return { token: session.token };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

interface Figures {
  p50: number;
  p99: number;
  mean: number;
}

/** Runs `call` WARMUP times unmeasured, then REQUESTS times one after another; milliseconds. */
async function measure(call: (i: number) => Promise<void>): Promise<Figures> {
  for (let i = 0; i < WARMUP; i++) await call(i);
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await call(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), mean: times.reduce((a, b) => a + b, 0) / times.length };
}

/** Named knex bindings (:name) to positional pg ones, in order of first use. */
function positional(sql: string, values: Record<string, unknown>): { text: string; values: unknown[] } {
  const order: string[] = [];
  const text = sql.replace(/(?<!:):([a-z_]+)/g, (_, name: string) => {
    if (!order.includes(name)) order.push(name);
    return `$${order.indexOf(name) + 1}`;
  });
  return { text, values: order.map((n) => values[n]) };
}

const sizes = Array.from({ length: 1000 }, () => ({ area: Math.round(50 * Math.exp(rand() * Math.log(2000))), num_buildings: 1 + pick(5), num_floors: 1 + pick(40) }));

async function main() {
  console.log(`Seeding ${PROJECTS} projects and ${TIERS} tiers…`);
  const { token } = await seedData();
  const server = http.createServer(createApp({ serveClient: false }).callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const request = (method: string, path: string, body?: unknown) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(`${base}${path}`, { method, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${method} ${path}: ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body ? JSON.stringify(body) : undefined);
    });

  const now = new Date();
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const monthQuery = positional(USAGE_MONTH_SQL(false), { before: new Date(Date.UTC(year, month, 1)) });
  const yearQuery = positional(USAGE_YEAR_SQL(false), { before: new Date(Date.UTC(year + 1, 0, 1)), first: year * 12 });
  const findText = FIND_SQL.replace(/\?/g, (() => { let i = 0; return () => `$${++i}`; })());

  const rows: { name: string; api: Figures; raw: Figures }[] = [];
  const run = async (name: string, api: (i: number) => Promise<void>, raw: (i: number) => Promise<void>) => {
    // In turns, so a busy moment of the machine does not fall on one side only.
    const a1 = await measure(api);
    const r1 = await measure(raw);
    rows.push({ name, api: a1, raw: r1 });
    console.log(`${name}: API p50 ${a1.p50.toFixed(2)} ms p99 ${a1.p99.toFixed(2)} ms | raw SQL p50 ${r1.p50.toFixed(2)} ms p99 ${r1.p99.toFixed(2)} ms`);
  };
  await run(
    'POST /project-tiers/find-tier',
    (i) => request('POST', '/project-tiers/find-tier', sizes[i % sizes.length]),
    async (i) => {
      const s = sizes[i % sizes.length];
      await pool.query({ name: 'bench-find', text: findText, values: [s.area, s.num_buildings, s.num_floors] });
    },
  );
  await run(
    'GET /project-tiers/usage/current',
    () => request('GET', `/project-tiers/usage/current?year=${year}&month=${month}`),
    async () => void (await pool.query(monthQuery.text, monthQuery.values)),
  );
  await run(
    'GET /project-tiers/usage/yearly',
    () => request('GET', `/project-tiers/usage/yearly?year=${year}`),
    async () => void (await pool.query(yearQuery.text, yearQuery.values)),
  );

  agent.destroy();
  await new Promise<void>((r) => server.close(() => r()));
  await pool.end();

  const ms = (v: number) => v.toFixed(2);
  const table = [
    '| call | API p50 | API p99 | raw SQL p50 | raw SQL p99 | ratio p50 (API / SQL) | p99 < 20 ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map((r) => `| \`${r.name}\` | ${ms(r.api.p50)} ms | ${ms(r.api.p99)} ms | ${ms(r.raw.p50)} ms | ${ms(r.raw.p99)} ms | ${(r.api.p50 / r.raw.p50).toFixed(2)} | ${r.api.p99 < 20 ? 'yes' : 'no'} |`),
  ].join('\n');
  console.log(`\n${table}`);
  appendResults(
    [
      `## Tier lookup and usage reports — ${runDate()}`,
      '',
      `${machine()}; load average ${loadAverage()}.`,
      '',
      `${PROJECTS.toLocaleString('en')} projects (2% without a size) of 200 owners over two years, ${TIERS} non-overlapping tiers; ${REQUESTS} requests per call one at a time over loopback after ${WARMUP} unmeasured, as a super admin (usage over every project, the largest answer). Reference: the same SQL statements the service runs, through raw \`pg\` (pool of 10) in the same process, measured right after.`,
      '',
      table,
    ].join('\n'),
  );
}

try {
  await main();
} finally {
  await Promise.allSettled([closeQueues(), closeRedis()]);
  await closeDb();
}
