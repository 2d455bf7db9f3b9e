/**
 * 360 viewer speed (a measurement, not a test): how soon the public viewer
 * shows an 8192 × 4096 panorama in Debian's headless Chromium on localhost,
 * from the start of the navigation to /viewer/{code} (cold cache, a new
 * browser context per load):
 *
 *   - low-resolution sphere: Photo Sphere Viewer has the whole panorama at
 *     ≤ 2048 × 1024 (base_url) on screen (the viewer's 'panorama-loaded',
 *     marked `sw-pano-base`); target ≤ 0.5 s;
 *   - first sharp view: the last tile of the first view has arrived (the
 *     tiles adapter draws it on the next frame); target ≤ 1.5 s.
 *
 * The reference, loaded in turns with the app in the same run: Photo Sphere
 * Viewer alone on a blank page (bench/viewer-reference/, built here with
 * vite) showing the same room with the same adapter. The ratio of the two
 * says what the app adds to PSV itself, and holds on a busy machine too.
 *
 * The photo is ../shared/fixtures/panoramas/outdoor-rock-4096x2048.jpg (the
 * example panorama of the Pannellum project, examples/examplepano.jpg, CC
 * BY-SA 3.0 Unported) upscaled ×2, or a generated panorama without it; the
 * real room.tiles worker prepares it. Appends a dated section with the
 * machine to bench/RESULTS.md.
 *
 *   npx tsx bench/viewer-perf.ts      (or: bash bench/run.sh viewer)
 *
 * Knobs: VIEWER_BENCH_RUNS (7), VIEWER_BENCH_WIDTH (8192). It uses its own
 * database (default sitewalk_viewer_bench, recreated), Redis prefix and data folder.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { freePort } from '../test/support/free-port.js';
import { benchEnv } from './bench-env.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.VIEWER_BENCH_RUNS ?? 7);
const WIDTH = Number(process.env.VIEWER_BENCH_WIDTH ?? 8192);
const TARGET_BASE_MS = 500;
const TARGET_SHARP_MS = 1500;
const FIXTURE = ['../shared', '../../shared'].map((d) => path.resolve(ROOT, d, 'fixtures/panoramas/outdoor-rock-4096x2048.jpg')).find((f) => fs.existsSync(f)) ?? '';
const ATTRIBUTION = 'the example panorama of the Pannellum project (examples/examplepano.jpg, CC BY-SA 3.0 Unported)';

benchEnv({ database: 'sitewalk_viewer_bench', redisPrefix: 'sitewalk-viewer-bench', dataDir: '.data/viewer-bench' });
const env = process.env;
const DATA_DIR = path.resolve(ROOT, env.DATA_DIR!);
const DIST = path.join(DATA_DIR, 'client-dist');
env.CLIENT_DIST = DIST;

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ms` : 'n/a');
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

async function panoramaPhoto(): Promise<{ buffer: Buffer; source: string }> {
  const sharp = (await import('sharp')).default;
  if (FIXTURE) {
    const buffer = await sharp(FIXTURE).resize(WIDTH, WIDTH / 2, { kernel: 'lanczos3' }).jpeg({ quality: 90 }).toBuffer();
    return { buffer, source: `${ATTRIBUTION}, upscaled to ${WIDTH} × ${WIDTH / 2}` };
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${WIDTH / 2}"><defs><linearGradient id="g"><stop offset="0" stop-color="#1e3c72"/><stop offset="1" stop-color="#f39c12"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  return { buffer: await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer(), source: `a generated gradient, ${WIDTH} × ${WIDTH / 2}` };
}

interface Sample {
  /** The visit's answer (GET /api/viewer-visit) in. */
  api: number;
  /** JavaScript the page fetched, compressed bytes. */
  jsBytes: number;
  base: number;
  sharp: number;
  tiles: number;
  tileBytes: number;
  baseBytes: number;
  /** Where the time went: when each step ended (ms from the navigation start). */
  steps: Record<string, number>;
}

/** The steps of one load, in the order they are printed. */
const STEPS = ['html in', 'preload script ran', 'visit asked', 'visit in', 'low-res image asked', 'low-res image in', 'app JavaScript in', 'viewer JavaScript in', 'app started', 'visit on the screen', 'viewer created', 'sphere on screen'] as const;

/** One cold load of the viewer; times are from the navigation start. */
async function measure(page: Page, url: string): Promise<Sample> {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => performance.getEntriesByName('sw-pano-base').length > 0, null, { timeout: 60_000, polling: 20 });
  // The first view's tiles: wait until none has been asked for, or is still on its way, for a while.
  await page.waitForFunction(
    () => {
      const tiles = performance.getEntriesByType('resource').filter((e) => e.name.includes('/tiles/')) as PerformanceResourceTiming[];
      if (!tiles.length) return false;
      const last = Math.max(...tiles.map((t) => t.responseEnd));
      return performance.now() - last > 700;
    },
    null,
    { timeout: 60_000, polling: 50 },
  );
  return page.evaluate(() => {
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const tiles = resources.filter((e) => e.name.includes('/tiles/'));
    const base = resources.find((e) => e.name.includes('/base.'));
    const visit = resources.find((e) => e.name.includes('/api/viewer-visit'));
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    // No named helpers in here: the bench's TypeScript runner would wrap them in a function the page lacks.
    const [appJs, viewerJs] = [/\/assets\/index-[^/]*\.js$/, /\/assets\/(panorama-viewer|three)[^/]*\.js$/].map((re) =>
      Math.max(...resources.filter((e) => re.test(e.name)).map((e) => e.responseEnd)),
    );
    const [preload, app, visitShown, created, shown] = ['sw-preload', 'sw-app-start', 'sw-visit', 'sw-pano-create', 'sw-pano-base'].map(
      (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN,
    );
    const steps: Record<string, number> = {
      'html in': nav?.responseEnd ?? NaN,
      'preload script ran': preload!,
      'visit asked': visit?.requestStart ?? NaN,
      'visit in': visit?.responseEnd ?? NaN,
      'low-res image asked': base?.requestStart ?? NaN,
      'low-res image in': base?.responseEnd ?? NaN,
      'app JavaScript in': appJs!,
      'viewer JavaScript in': viewerJs!,
      'app started': app!,
      'visit on the screen': visitShown!,
      'viewer created': created!,
      'sphere on screen': shown!,
    };
    return {
      steps,
      api: visit?.responseEnd ?? NaN,
      jsBytes: resources.filter((e) => /\.js(\?|$)/.test(e.name)).reduce((s, e) => s + (e.encodedBodySize || 0), 0),
      base: performance.getEntriesByName('sw-pano-base')[0]!.startTime,
      sharp: Math.max(...tiles.map((t) => t.responseEnd)),
      tiles: tiles.length,
      tileBytes: tiles.reduce((s, t) => s + (t.encodedBodySize || 0), 0),
      baseBytes: base?.encodedBodySize ?? 0,
    };
  });
}

/**
 * The database starts again from room 1: the queue must forget the previous run's
 * jobs, or a job of the same key (room.tiles of room 1) counts as done already.
 */
async function clearRedisPrefix(): Promise<void> {
  const { Redis } = await import('ioredis');
  const prefix = env.REDIS_PREFIX!;
  const r = new Redis(env.REDIS_URL!);
  for (const pattern of [`${prefix}:*`, `{${prefix}}:*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  }
  await r.quit();
}

async function main() {
  const loadAtStart = loadAverage();
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  console.log('Building the client (production)…');
  execFileSync('npm', ['run', 'build', '-w', 'client', '--', '--outDir', DIST, '--emptyOutDir', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit', env: { ...env, NODE_ENV: 'production' } });
  // The early viewer's JavaScript (its chunk, Photo Sphere Viewer, three.js): what index.html's sw-viewer-boot lists.
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const bootJs = (/<meta name="sw-viewer-boot" content="([^"]*)"/.exec(html)?.[1] ?? '').split(' ').filter((f) => f.endsWith('.js'));
  if (!bootJs.length) throw new Error('index.html lists no early viewer chunks (sw-viewer-boot)');
  const viewerChunkGzip = bootJs.reduce((sum, f) => sum + zlib.gzipSync(fs.readFileSync(path.join(DIST, f)), { level: 9 }).length, 0);

  // The reference page, served by the same server under /reference/.
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: path.join(ROOT, 'bench/viewer-reference'),
    base: '/reference/',
    logLevel: 'warn',
    build: { outDir: path.join(DIST, 'reference'), emptyOutDir: true, target: 'es2022' },
  });

  const port = await freePort();
  env.PORT = String(port);
  env.APP_URL = `http://127.0.0.1:${port}`;
  const { ensureDatabase } = await import('../api/src/cli/ensure-database.js');
  await ensureDatabase(env.DATABASE_URL!, { recreate: true });
  const { db, migrateLatest, closeDb } = await import('@sitewalk/core/db');
  await migrateLatest(db());
  await clearRedisPrefix();
  const { createUser, api } = await import('../api/test/helpers.js');
  const { startServer } = await import('../api/src/server.js');
  const { handlers } = await import('../workers/src/jobs/index.js');
  const { startWorkers } = await import('../workers/src/runner.js');
  const server = await startServer(port);
  const workers = startWorkers(handlers);

  // A project, a visit and one 8K room, prepared by the real worker.
  const owner = await createUser({ username: 'viewer_bench' });
  const project = (await api().post('/api/projects').set(owner.auth).send({ name: 'Viewer bench' })).body.data as { id: number };
  const visit = (await api().post('/api/visits').set(owner.auth).send({ id_project: project.id, name: 'Bench walk' })).body.data as { id: number; code: string };
  const photo = await panoramaPhoto();
  const upload = await api().post('/api/rooms').set(owner.auth).field('id_visit', String(visit.id)).attach('file', photo.buffer, 'pano.jpg');
  if (upload.status !== 202) throw new Error(`room not accepted: ${upload.status} ${JSON.stringify(upload.body)}`);
  console.log('Tiling the panorama with the room.tiles worker…');
  let levels = '';
  for (const until = Date.now() + 240_000; ; await sleep(500)) {
    const v = (await api().get(`/api/visits/${visit.id}`).set(owner.auth)).body.data as { rooms: { status: string; error: string | null; panorama: { levels: { width: number; cols: number; rows: number }[]; tile_size: number } | null }[] };
    const room = v.rooms[0]!;
    if (room.status === 'failed') throw new Error(`tiling failed: ${room.error}`);
    if (room.status === 'ready' && room.panorama) {
      levels = room.panorama.levels.map((l) => `${l.width} px (${l.cols} × ${l.rows})`).join(', ') + `, tiles of ${room.panorama.tile_size} px`;
      break;
    }
    if (Date.now() > until) throw new Error('the room was not ready within 4 minutes');
  }

  const { launchBrowser } = await import('../e2e/support/chromium.js');
  const browser = await launchBrowser();
  const url = `http://127.0.0.1:${port}/viewer/${visit.code}`;
  const referenceUrl = `http://127.0.0.1:${port}/reference/index.html?code=${visit.code}`;
  const load = async (at: string) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    const s = await measure(page, at);
    await context.close();
    return s;
  };
  // One warm-up load of each (the server's first answers compile and open files), not counted; then in turns.
  for (let i = 0; i <= RUNS; i++) {
    const s = await load(url);
    const r = await load(referenceUrl);
    if (i > 0) {
      samples.push(s);
      references.push(r);
    }
    console.log(`${i === 0 ? 'warm-up' : `run ${i}`}: sphere ${ms(s.base)}, sharp ${ms(s.sharp)} (${s.tiles} tiles), PSV alone ${ms(r.base)} and ${ms(r.sharp)}; ${STEPS.map((k) => `${k} ${ms(s.steps[k]!)}`).join(', ')}`);
  }
  await browser.close();
  await workers.close();
  await server.close();
  await closeDb();

  const base = median(samples.map((s) => s.base));
  const sharpMs = median(samples.map((s) => s.sharp));
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  const chromium = (() => {
    try {
      return execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return 'Chromium';
    }
  })();
  const lines: string[] = [];
  lines.push(`## 360 viewer — ${runDate()}`, '');
  lines.push(`Machine: ${machine()}, ${chromium} (headless, SwiftShader WebGL). Load average when the measurement started: ${loadAtStart}.`, '');
  lines.push(`Command: \`npx tsx bench/viewer-perf.ts\` (production build, ${RUNS} cold-cache loads of /viewer/{code} at 1280 × 800 after one warm-up, medians; times from the start of the navigation).`, '');
  lines.push(`Panorama: ${photo.source}; levels ${levels}. The early viewer's JavaScript (Photo Sphere Viewer, three.js, ${bootJs.length} files): ${kb(viewerChunkGzip)} gzip, loaded only by the 360 screens.`, '');
  lines.push('| moment | median | min | max | target |', '| --- | --- | --- | --- | --- |');
  const row = (name: string, xs: number[], target: number) => {
    const m = median(xs);
    lines.push(`| ${name} | ${ms(m)} | ${ms(Math.min(...xs))} | ${ms(Math.max(...xs))} | ≤ ${ms(target)}: **${m <= target ? 'PASS' : 'MISS'}** |`);
  };
  lines.push(`| the visit's answer in (JavaScript loaded, ${kb(median(samples.map((s) => s.jsBytes)))} compressed) | ${ms(median(samples.map((s) => s.api)))} | ${ms(Math.min(...samples.map((s) => s.api)))} | ${ms(Math.max(...samples.map((s) => s.api)))} | — |`);
  row('low-resolution sphere on screen', samples.map((s) => s.base), TARGET_BASE_MS);
  row('first sharp view (last tile of the first view in)', samples.map((s) => s.sharp), TARGET_SHARP_MS);
  const refBase = median(references.map((r) => r.base));
  const refSharp = median(references.map((r) => r.sharp));
  lines.push(
    `| reference: Photo Sphere Viewer alone on a blank page, same room (sphere / sharp) | ${ms(refBase)} / ${ms(refSharp)} | ${ms(Math.min(...references.map((r) => r.base)))} / ${ms(Math.min(...references.map((r) => r.sharp)))} | ${ms(Math.max(...references.map((r) => r.base)))} / ${ms(Math.max(...references.map((r) => r.sharp)))} | — |`,
  );
  lines.push('', `**Against PSV alone in the same run: the sphere in ${(base / refBase).toFixed(2)}× its time, the sharp view in ${(sharpMs / refSharp).toFixed(2)}× its time** (1.00× would be no cost of the app at all).`);
  lines.push('', `Where the time goes (medians of each step's end, ms from the navigation start): ${STEPS.map((k) => `${k} ${ms(median(samples.map((x) => x.steps[k]!)))}`).join(' → ')}.`);
  lines.push('', `The first view fetched ${median(samples.map((s) => s.tiles))} tiles (${kb(median(samples.map((s) => s.tileBytes)))}) after a ${kb(median(samples.map((s) => s.baseBytes)))} low-resolution sphere, out of a ${kb(photo.buffer.length)} photo.`, '');
  console.log(lines.join('\n'));
  appendResults(lines.join('\n'));
  console.log(`\nsphere ${ms(base)}, sharp ${ms(sharpMs)}`);
}

const samples: Sample[] = [];
const references: Sample[] = [];
main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
