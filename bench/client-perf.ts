/**
 * Client performance budget (a measurement, not a test): builds the client,
 * weighs the JavaScript /login needs before it can show anything against the
 * 200 KB gzip budget of issue 3, lists the biggest chunks, and measures /login
 * and /dashboard in Debian's Chromium through the DevTools protocol
 * (navigation timing, First and Largest Contentful Paint, blocking time,
 * bytes transferred, JS heap), without and with a Lighthouse-like mobile
 * throttling. Appends a dated section with the machine to bench/RESULTS.md.
 *
 *   npx tsx bench/client-perf.ts            (or: make bench, through bench/run.sh)
 *
 * It uses its own database (default sitewalk_bench, recreated), Redis prefix
 * and data folder, so it never touches a user's data.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { freePort } from '../test/support/free-port.js';
import { benchEnv } from './bench-env.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUDGET_BYTES = 200 * 1000; // 200 KB of gzip-compressed JavaScript
const RUNS = Number(process.env.CLIENT_PERF_RUNS ?? 5);

benchEnv({ database: 'sitewalk_bench', redisPrefix: 'sitewalk-bench', dataDir: '.data/bench' });
const env = process.env;
const DATA_DIR = path.resolve(ROOT, env.DATA_DIR!);
const DIST = path.join(DATA_DIR, 'client-dist');
env.CLIENT_DIST = DIST;

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
const gzipSize = (buf: Buffer) => zlib.gzipSync(buf, { level: 9 }).length;
const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

// ---------------------------------------------------------------- bundle

interface Asset {
  file: string;
  raw: number;
  gzip: number;
}

function weigh(file: string): Asset {
  const buf = fs.readFileSync(path.join(DIST, file));
  return { file, raw: buf.length, gzip: gzipSize(buf) };
}

function buildClient(): void {
  console.log('Building the client (production)…');
  execFileSync('npm', ['run', 'build', '-w', 'client', '--', '--outDir', DIST, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/** What index.html makes the browser fetch before any code runs: entry scripts, modulepreloads, stylesheets. */
function initialAssets(): { scripts: Asset[]; styles: Asset[] } {
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
  const local = (u: string | undefined) => (u && u.startsWith('/') && !u.startsWith('//') ? u.slice(1) : null);
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    const src = local(attr(tag, 'src'));
    if (src) scripts.add(src);
  }
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    const rel = attr(tag, 'rel');
    const href = local(attr(tag, 'href'));
    if (!href) continue;
    if (rel === 'modulepreload') scripts.add(href);
    if (rel === 'stylesheet') styles.add(href);
  }
  return { scripts: [...scripts].map(weigh), styles: [...styles].map(weigh) };
}

function allChunks(): Asset[] {
  const dir = path.join(DIST, 'assets');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => weigh(`assets/${f}`))
    .sort((a, b) => b.gzip - a.gzip);
}

// ---------------------------------------------------------------- browser

interface Profile {
  name: string;
  cpuSlowdown: number;
  network: { latency: number; downloadThroughput: number; uploadThroughput: number } | null;
}

const PROFILES: Profile[] = [
  { name: 'desktop, no throttling', cpuSlowdown: 1, network: null },
  // Lighthouse's default mobile emulation: 4× slower CPU, 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up.
  {
    name: 'mobile-like (4× CPU, 150 ms RTT, 1.6 Mbit/s)',
    cpuSlowdown: 4,
    network: { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
  },
];

interface Sample {
  ttfb: number;
  fcp: number;
  lcp: number;
  dcl: number;
  load: number;
  tbt: number;
  transferred: number;
  jsTransferred: number;
  requests: number;
  heapUsed: number;
  jsFiles: string[];
}

/** Before any page script: collects long tasks and LCP candidates the way Lighthouse reads them. */
const OBSERVERS = `
  window.__perf = { longTasks: [], lcp: 0 };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__perf.longTasks.push({ start: e.startTime, duration: e.duration }); })
    .observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__perf.lcp = Math.max(window.__perf.lcp, e.startTime); })
    .observe({ type: 'largest-contentful-paint', buffered: true });
`;

async function measure(context: BrowserContext, url: string, ready: (page: Page) => Promise<unknown>, profile: Profile): Promise<Sample> {
  const page = await context.newPage();
  await page.addInitScript(OBSERVERS);
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Performance.enable');
  if (profile.network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
  if (profile.cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });

  const types = new Map<string, { type: string; url: string }>();
  let transferred = 0;
  let jsTransferred = 0;
  let requests = 0;
  const jsFiles: string[] = [];
  cdp.on('Network.responseReceived', (e) => types.set(e.requestId, { type: e.type, url: e.response.url }));
  cdp.on('Network.loadingFinished', (e) => {
    requests++;
    transferred += e.encodedDataLength;
    const t = types.get(e.requestId);
    if (t?.type === 'Script') {
      jsTransferred += e.encodedDataLength;
      jsFiles.push(new URL(t.url).pathname.replace(/^\//, ''));
    }
  });

  await page.goto(url, { waitUntil: 'load' });
  await ready(page);
  // LCP candidates and late chunks settle once the network is quiet.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(500);

  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
    const perf = (window as unknown as { __perf: { longTasks: { start: number; duration: number }[]; lcp: number } }).__perf;
    // Total Blocking Time as Lighthouse defines it: the part of each long task over 50 ms, after FCP.
    const tbt = perf.longTasks.filter((t) => t.start + t.duration > fcp).reduce((s, t) => s + Math.max(0, t.duration - 50), 0);
    return { ttfb: nav.responseStart, dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, fcp, lcp: perf.lcp || NaN, tbt };
  });
  const { metrics } = await cdp.send('Performance.getMetrics');
  const heapUsed = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
  await page.close();
  return { ...timing, transferred, jsTransferred, requests, heapUsed, jsFiles };
}

// ---------------------------------------------------------------- run

function chromiumVersion(): string {
  try {
    // Debian's wrapper script prints shell noise on stderr; only the version line matters.
    return execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

async function main() {
  const loadAtStart = loadAverage();
  const dbName = new URL(env.DATABASE_URL!).pathname.slice(1);
  if (!/_(bench|test)(_[a-z0-9]+)?$/.test(dbName)) throw new Error(`Refusing to recreate ${dbName}: bench databases end in _bench.`);

  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  buildClient();

  // 1. Bundle: initial JavaScript of /login as index.html declares it, and every chunk.
  const initial = initialAssets();
  const initialJsGzip = initial.scripts.reduce((s, a) => s + a.gzip, 0);
  const chunks = allChunks();
  const byFile = new Map(chunks.map((c) => [c.file, c]));

  // 2. A server on the bench database, with a user to see /dashboard.
  const port = await freePort();
  env.PORT = String(port);
  env.APP_URL = `http://127.0.0.1:${port}`;
  const { ensureDatabase } = await import('../api/src/cli/ensure-database.js');
  await ensureDatabase(env.DATABASE_URL!, { recreate: true });
  const { db, migrateLatest, User } = await import('@sitewalk/core/db');
  await migrateLatest(db());
  const argon2 = (await import('argon2')).default;
  const password = 'bench password';
  await User.query().insert({
    username: 'bench',
    email: 'bench@example.test',
    password_hash: await argon2.hash(password),
    first_name: 'Bench',
    last_name: 'User',
    active: true,
    email_verified_at: new Date(),
  });
  const { startServer } = await import('../api/src/server.js');
  const server = await startServer(port);
  const baseUrl = `http://127.0.0.1:${port}`;

  const { launchBrowser } = await import('../e2e/support/chromium.js');
  const { signIn, expectSignedInLayout, loginForm } = await import('../e2e/support/ui.js');
  const browser = await launchBrowser();
  const contextOptions = { baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-US' };
  // A remembered sign-in lives in localStorage, which a new context can start with.
  const setup = await browser.newContext(contextOptions);
  // A returning user: the onboarding tour is behind them (it would load its own code on the dashboard).
  await setup.addInitScript(() => {
    try {
      localStorage.setItem('onboardingCompleted', 'true');
    } catch {
      /* about:blank has no storage */
    }
  });
  await signIn(await setup.newPage(), { username: 'bench', password }, { remember: true });
  const signedIn = await setup.storageState();
  await setup.close();

  const pages = [
    { route: '/login', state: undefined, ready: (p: Page) => loginForm(p).password.waitFor() },
    { route: '/dashboard', state: signedIn, ready: (p: Page) => expectSignedInLayout(p) },
  ];
  const rows: { profile: string; route: string; s: Record<keyof Omit<Sample, 'jsFiles'>, number> }[] = [];
  let loginJs: string[] = [];
  for (const profile of PROFILES) {
    for (const pg of pages) {
      const samples: Sample[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ ...contextOptions, storageState: pg.state });
        samples.push(await measure(context, pg.route, pg.ready, profile));
        await context.close();
      }
      if (pg.route === '/login' && !loginJs.length) loginJs = samples[0]!.jsFiles;
      const keys = ['ttfb', 'fcp', 'lcp', 'dcl', 'load', 'tbt', 'transferred', 'jsTransferred', 'requests', 'heapUsed'] as const;
      rows.push({ profile: profile.name, route: pg.route, s: Object.fromEntries(keys.map((k) => [k, median(samples.map((x) => x[k]))])) as Record<(typeof keys)[number], number> });
      console.log(`measured ${pg.route} (${profile.name})`);
    }
  }
  await browser.close();
  await server.close();

  // What /login really fetched: index.html's scripts plus any route chunk loaded before the form showed.
  const loginLoaded = [...new Set(loginJs)].map((f) => byFile.get(f) ?? weigh(f));
  const loginLoadedGzip = loginLoaded.reduce((s, a) => s + a.gzip, 0);
  const pass = initialJsGzip <= BUDGET_BYTES && loginLoadedGzip <= BUDGET_BYTES;

  // 3. Report.
  const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ms` : 'n/a');
  const lines: string[] = [];
  lines.push(`## Client performance — ${runDate()}`, '');
  lines.push(`Machine: ${machine()}, ${chromiumVersion()}. Load average when the measurement started: ${loadAtStart} (other work on the machine slows the throttled rows most).`, '');
  lines.push(`Command: \`npx tsx bench/client-perf.ts\` (production build, ${RUNS} cold-cache loads per row, medians; gzip level 9).`, '');
  lines.push(`### Initial JavaScript of /login — budget ${kb(BUDGET_BYTES)} gzip: **${pass ? 'PASS' : 'FAIL'}**`, '');
  lines.push('| what | files | raw | gzip |', '| --- | --- | --- | --- |');
  const sum = (as: Asset[], k: 'raw' | 'gzip') => as.reduce((s, a) => s + a[k], 0);
  lines.push(`| scripts and modulepreloads in index.html | ${initial.scripts.length} | ${kb(sum(initial.scripts, 'raw'))} | ${kb(initialJsGzip)} |`);
  lines.push(`| JavaScript the browser fetched for /login | ${loginLoaded.length} | ${kb(sum(loginLoaded, 'raw'))} | ${kb(loginLoadedGzip)} |`);
  lines.push(`| stylesheets in index.html (not JavaScript) | ${initial.styles.length} | ${kb(sum(initial.styles, 'raw'))} | ${kb(sum(initial.styles, 'gzip'))} |`, '');
  lines.push(`Fetched for /login: ${loginLoaded.map((a) => `\`${a.file}\` (${kb(a.gzip)})`).join(', ') || 'none'}.`, '');
  lines.push(`### Biggest chunks (${chunks.length} JavaScript chunks, ${kb(sum(chunks, 'gzip'))} gzip in all)`, '');
  lines.push('| chunk | raw | gzip | loaded by /login |', '| --- | --- | --- | --- |');
  const loginSet = new Set(loginLoaded.map((a) => a.file));
  for (const c of chunks.slice(0, 10)) lines.push(`| \`${c.file}\` | ${kb(c.raw)} | ${kb(c.gzip)} | ${loginSet.has(c.file) ? 'yes' : 'no'} |`);
  lines.push('', '### Page loads in Chromium (DevTools protocol, cold cache)', '');
  lines.push('| profile | page | TTFB | FCP | LCP | DOMContentLoaded | load | TBT | requests | transferred | of it JS | JS heap used |');
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    lines.push(`| ${r.profile} | ${r.route} | ${ms(r.s.ttfb)} | ${ms(r.s.fcp)} | ${ms(r.s.lcp)} | ${ms(r.s.dcl)} | ${ms(r.s.load)} | ${ms(r.s.tbt)} | ${r.s.requests} | ${kb(r.s.transferred)} | ${kb(r.s.jsTransferred)} | ${(r.s.heapUsed / 1e6).toFixed(1)} MB |`);
  }
  lines.push('', 'TTFB, DOMContentLoaded and load come from Navigation Timing; FCP from the paint timeline; LCP is the last largest-contentful-paint candidate once the network is idle; TBT sums the part over 50 ms of each long task after FCP; transferred is what went over the wire (the server sends assets as they are on disk), JS heap from Performance.getMetrics after load. /dashboard is loaded with a remembered sign-in in localStorage.', '');

  const section = lines.join('\n');
  console.log('\n' + section);
  appendResults(section);
  // A measurement: the verdict is printed and recorded, the run itself succeeds.
  console.log(`Initial JavaScript of /login: ${kb(Math.max(initialJsGzip, loginLoadedGzip))} gzip, budget ${kb(BUDGET_BYTES)}: ${pass ? 'PASS' : 'FAIL'}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
