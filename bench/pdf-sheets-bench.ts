/**
 * PDF plans → sheets (a measurement, not a test): the time the sheet.from-pdf
 * worker takes to turn an A1 plan set into sheets (check the PDF, draw every
 * page with pdftoppm, cut the tile pyramid and thumbnail, store them, record
 * the sheets), set side by side in the same run with Debian's pdftoppm alone
 * drawing the same pages at the same resolution. Two ratios: the whole job,
 * and the time until the first sheet can be opened (its row 'ready' and in
 * the upload's sheet_ids, as the progress event says), both against
 * pdftoppm's whole run. Peak memory is given for the worker process and for
 * it with the pdftoppm it starts, for 10 and for 20 pages, so a growth with
 * the page count would show. Appends a dated section with the machine to
 * bench/RESULTS.md.
 *
 *   npx tsx bench/pdf-sheets-bench.ts      (or: make bench, through bench/run.sh)
 *
 * The worker runs in a child process of its own so its peak memory (max RSS)
 * is its own; the bench also samples the RSS of that process and its
 * children together every 50 ms (pdftoppm's own peak is read by GNU time).
 * Rounds alternate between the two so a busy moment of a shared machine hits
 * both alike. It uses its own database (default sitewalk_pdf_bench,
 * recreated), Redis prefix and data folder. Knobs: PDF_BENCH_PAGES (10,20),
 * PDF_BENCH_ROUNDS (3).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv } from './bench-env.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PAGE_COUNTS = (process.env.PDF_BENCH_PAGES ?? '10,20').split(',').map(Number);
const ROUNDS = Number(process.env.PDF_BENCH_ROUNDS ?? 3);
const A1: [number, number] = [2383.94, 1683.78]; // landscape, in points

benchEnv({ database: 'sitewalk_pdf_bench', redisPrefix: 'sitewalk-pdf-bench', dataDir: '.data/pdf-bench' });
const env = process.env;

/** Child process: the worker's code path on one upload; prints its time and peak memory. */
async function runWorker(uploadId: number) {
  const { sheetFromPdf } = await import('../workers/src/jobs/sheet-from-pdf.js');
  const { closeDb } = await import('@sitewalk/core/db');
  const { closeQueues } = await import('@sitewalk/core/queue');
  const { closeEmitter } = await import('@sitewalk/core/realtime/emitter.js');
  // pdf.js (its API and its parser, 2 MB of JavaScript, about a second of CPU here) is imported at
  // the first document, once per process: a workers process serving the sheets queue loads it when it
  // starts (workers/src/main.ts), so the run measures the job in such a worker and loads it first, the
  // same way (the core's loader, which also puts back the built-ins pdf.js's polyfills replace).
  const { loadPdfJs } = await import('@sitewalk/core/pdfjs.js');
  await loadPdfJs();
  // What the process holds before the job: Node, tsx and the loaded modules.
  const loadedRssKb = Math.round(process.memoryUsage().rss / 1024);
  let firstMs: number | null = null;
  // The job reports progress right after a sheet is recorded ready and listed in the upload's sheet_ids.
  const updateProgress = async () => {
    firstMs ??= performance.now() - start;
  };
  const job = { id: `pdf-upload-${uploadId}`, name: 'sheet.from-pdf', data: { upload_id: uploadId }, opts: { attempts: 1 }, attemptsMade: 0, updateProgress };
  const start = performance.now();
  const cpuBefore = process.cpuUsage();
  const childrenBefore = childrenCpuMs();
  const result = await sheetFromPdf({ upload_id: uploadId }, job as never);
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const pdftoppmCpuMs = childrenCpuMs() - childrenBefore;
  await Promise.allSettled([closeQueues(), closeEmitter()]);
  await closeDb();
  process.stdout.write(`RESULT ${JSON.stringify({ ms, firstMs, cpuMs, pdftoppmCpuMs, sheets: result.sheet_ids.length, maxRssKb: process.resourceUsage().maxRSS, loadedRssKb })}\n`);
}

/** CPU time (user + system) of the children this process has waited for, from /proc (clock ticks of 10 ms). */
function childrenCpuMs(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3, cutime and cstime are fields 16 and 17.
  return (Number(f[13]) + Number(f[14])) * 10;
}

/** A plan as architects export them: walls, doors, hatching, grid lines, dimensions and room names. */
async function planSet(pages: number): Promise<Buffer> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage(A1);
    const [w, h] = A1;
    const m = 60;
    // Structural grid with labels.
    for (let x = m; x <= w - m; x += 120) {
      page.drawLine({ start: { x, y: m }, end: { x, y: h - m }, thickness: 0.3, color: rgb(0.5, 0.5, 0.5), dashArray: [8, 4] });
      page.drawText(String.fromCharCode(65 + (((x - m) / 120) % 26)), { x: x - 3, y: h - m + 8, size: 10, font });
    }
    for (let y = m; y <= h - m; y += 120) page.drawLine({ start: { x: m, y }, end: { x: w - m, y }, thickness: 0.3, color: rgb(0.5, 0.5, 0.5), dashArray: [8, 4] });
    // Rooms: walls, a door swing, hatching, name and area.
    for (let x = m + 20; x < w - m - 200; x += 180) {
      for (let y = m + 20; y < h - m - 160; y += 150) {
        const rw = 150 + rand() * 20;
        const rh = 120 + rand() * 20;
        page.drawRectangle({ x, y, width: rw, height: rh, borderColor: rgb(0, 0, 0), borderWidth: 2.5 });
        page.drawSvgPath(`M 0 0 A 30 30 0 0 1 30 -30`, { x: x + 10, y: y + rh, borderColor: rgb(0, 0, 0), borderWidth: 0.5 });
        if (rand() < 0.3) for (let k = 0; k < rw; k += 8) page.drawLine({ start: { x: x + k, y }, end: { x: x + Math.min(rw, k + 20), y: y + 20 }, thickness: 0.2 });
        page.drawText(`Room ${p + 1}.${Math.round(x)}-${Math.round(y)}`, { x: x + 15, y: y + rh / 2, size: 7, font });
        page.drawText(`${(rw * rh * 0.0001).toFixed(1)} m²`.replace('²', '2'), { x: x + 15, y: y + rh / 2 - 10, size: 6, font, color: rgb(0.3, 0.3, 0.3) });
      }
    }
    page.drawRectangle({ x: w - 460, y: m, width: 400, height: 120, borderColor: rgb(0, 0, 0), borderWidth: 1.5 });
    page.drawText(`SITEWALK BENCH — LEVEL ${p + 1}`, { x: w - 440, y: m + 80, size: 18, font });
  }
  return Buffer.from(await doc.save());
}

interface Run {
  ms: number;
  maxRssKb: number;
}
interface PlainRun extends Run {
  /** CPU time (user + system) of pdftoppm. */
  cpuMs: number;
}
interface WorkerRun extends Run {
  firstMs: number | null;
  /** CPU time of the worker process itself (pdftoppm not included). */
  cpuMs: number;
  /** CPU time of the pdftoppm processes the job ran (both its small colour checks and its drawings). */
  pdftoppmCpuMs: number;
  sheets: number;
  loadedRssKb: number;
  /** Largest sum of the RSS of the worker process and its children (pdftoppm), sampled. */
  treeRssKb: number;
}

function spawnCollect(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; onSpawn?: (pid: number) => void } = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: opts.env ?? env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid) opts.onSpawn?.(child.pid);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/**
 * Samples every 50 ms the resident memory of a process and all its descendants
 * together (from /proc), and keeps the largest sum. Parents are read once per process.
 */
function treeMemory(rootPid: number) {
  const parentOf = new Map<number, number>();
  const stat = (pid: number) => {
    try {
      const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      return { ppid: Number(f[1]), rssKb: (Number(f[21]) * 4096) / 1024 };
    } catch {
      return null;
    }
  };
  let peakKb = 0;
  const sample = () => {
    const pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
    for (const pid of pids) if (!parentOf.has(pid)) parentOf.set(pid, stat(pid)?.ppid ?? -1);
    const inTree = (pid: number): boolean => {
      for (let p = pid, hops = 0; p > 1 && hops < 8; p = parentOf.get(p) ?? -1, hops++) if (p === rootPid) return true;
      return false;
    };
    let sum = 0;
    for (const pid of pids) if (inTree(pid)) sum += stat(pid)?.rssKb ?? 0;
    peakKb = Math.max(peakKb, sum);
  };
  const timer = setInterval(sample, 50);
  return { stop: () => (clearInterval(timer), peakKb) };
}

/** pdftoppm alone: the same pages, the same resolution, the same crop box, PPM files as it writes by default. */
async function plainPdftoppm(pdf: string, dpi: number, outDir: string): Promise<PlainRun> {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const start = performance.now();
  const r = await spawnCollect('/usr/bin/time', ['-f', 'MAXRSS %M CPU %U %S', 'pdftoppm', '-r', String(dpi), '-cropbox', pdf, path.join(outDir, 'page')]);
  const ms = performance.now() - start;
  if (r.code !== 0) throw new Error(`pdftoppm failed: ${r.err}`);
  const rss = Number(/MAXRSS (\d+)/.exec(r.err)?.[1] ?? 0);
  fs.rmSync(outDir, { recursive: true, force: true });
  const [, user, system] = /CPU ([\d.]+) ([\d.]+)/.exec(r.err) ?? [];
  return { ms, maxRssKb: rss, cpuMs: (Number(user) + Number(system)) * 1000 };
}

/** The worker in its own process on a fresh upload of the same PDF. */
async function worker(uploadId: number): Promise<WorkerRun> {
  let sampler: ReturnType<typeof treeMemory> | null = null;
  const r = await spawnCollect(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--worker', String(uploadId)], {
    onSpawn: (pid) => (sampler = treeMemory(pid)),
  });
  const treeRssKb = (sampler as ReturnType<typeof treeMemory> | null)?.stop() ?? 0;
  const line = /RESULT (\{.*\})/.exec(r.out)?.[1];
  if (r.code !== 0 || !line) throw new Error(`the worker run failed (${r.code}): ${r.err || r.out}`);
  return { ...JSON.parse(line), treeRssKb };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface Measured {
  pages: number;
  pdfKb: number;
  plain: PlainRun[];
  work: WorkerRun[];
}

async function main() {
  const loadBefore = loadAverage();
  const dataDir = path.resolve(ROOT, env.DATA_DIR!);
  fs.rmSync(dataDir, { recursive: true, force: true });

  // A database of its own at the latest schema, one user and one project.
  const { ensureDatabase } = await import('../api/src/cli/ensure-database.js');
  await ensureDatabase(env.DATABASE_URL!, { recreate: true });
  const { db, closeDb, migrateLatest } = await import('@sitewalk/core/db');
  const { putBuffer } = await import('@sitewalk/core/storage');
  const { dpiFor } = await import('../workers/src/adapters/pdf-render.js');
  const { SHEET_RENDERING } = await import('@sitewalk/proto');
  await migrateLatest();
  const [user] = await db()('users').insert({ username: 'bench', email: 'bench@example.test', password_hash: 'x' }).returning('id');
  const [project] = await db()('projects').insert({ id_owner: user.id, name: 'Bench tower', project_code: 'benchtower00' }).returning('id');
  fs.mkdirSync(dataDir, { recursive: true });
  const dpi = dpiFor(A1[0], A1[1]);
  const pixels = Math.round((A1[0] / 72) * dpi) * Math.round((A1[1] / 72) * dpi);

  const measured: Measured[] = [];
  for (const pages of PAGE_COUNTS) {
    const pdf = await planSet(pages);
    const pdfPath = path.join(dataDir, `plan-set-${pages}.pdf`);
    fs.writeFileSync(pdfPath, pdf);
    console.log(`${pages}-page A1 plan set (${(pdf.length / 1024).toFixed(0)} KiB), drawn at ${dpi} dpi (${(pixels / 1e6).toFixed(1)} megapixels a page), ${ROUNDS} rounds...`);
    const m: Measured = { pages, pdfKb: pdf.length / 1024, plain: [], work: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      m.plain.push(await plainPdftoppm(pdfPath, dpi, path.join(dataDir, 'pdftoppm-out')));
      const key = `projects/${project.id}/pdf/bench-${pages}-${round}.pdf`;
      await putBuffer(key, pdf);
      const [upload] = await db()('pdf_uploads').insert({ id_project: project.id, id_user: user.id, file_key: key, original_name: 'plan-set.pdf', size_bytes: pdf.length }).returning('id');
      const w = await worker(upload.id);
      if (w.sheets !== pages) throw new Error(`the worker made ${w.sheets} sheets instead of ${pages}`);
      m.work.push(w);
      console.log(`  round ${round}: pdftoppm ${sec(m.plain.at(-1)!.ms)}, worker ${sec(w.ms)} (first sheet at ${sec(w.firstMs ?? NaN)}; CPU: pdftoppm alone ${sec(m.plain.at(-1)!.cpuMs)}, worker process ${sec(w.cpuMs)} + its pdftoppm ${sec(w.pdftoppmCpuMs)}), worker ${mb(w.maxRssKb)}, with pdftoppm ${mb(w.treeRssKb)}`);
    }
    measured.push(m);
  }
  const tiles = (await db()('maps').where({ id_project: project.id }).max('max_zoom as z').first())?.z;
  await closeDb();

  const rows = measured.flatMap((m) => {
    const plainMs = median(m.plain.map((r) => r.ms));
    const workMs = median(m.work.map((r) => r.ms));
    const firstMs = median(m.work.map((r) => r.firstMs ?? Infinity));
    // Ratios per round (each worker run against the pdftoppm run just before it), then their median.
    const ratio = median(m.work.map((w, i) => w.ms / m.plain[i].ms));
    const firstRatio = median(m.work.map((w, i) => (w.firstMs ?? Infinity) / m.plain[i].ms));
    // CPU time is what a shared machine's load disturbs least: the job's (worker process and its pdftoppm)
    // against pdftoppm's alone; half of that ratio is the whole-job ratio two idle cores could reach at best.
    const plainCpu = median(m.plain.map((r) => r.cpuMs));
    const workCpu = median(m.work.map((w) => w.cpuMs + w.pdftoppmCpuMs));
    const cpuRatio = median(m.work.map((w, i) => (w.cpuMs + w.pdftoppmCpuMs) / m.plain[i].cpuMs));
    return [
      `| ${m.pages} | pdftoppm alone (PPM files) | ${sec(plainMs)} | ${((m.pages * 1000) / plainMs).toFixed(2)} | | | ${sec(plainCpu)} | ${mb(Math.max(...m.plain.map((r) => r.maxRssKb)))} (pdftoppm) |`,
      `| ${m.pages} | sheet.from-pdf worker | ${sec(workMs)} | ${((m.pages * 1000) / workMs).toFixed(2)} | **${ratio.toFixed(2)}×** | ${sec(firstMs)}, **${firstRatio.toFixed(2)}×** | ` +
        `${sec(workCpu)} (worker process ${sec(median(m.work.map((w) => w.cpuMs)))}, its pdftoppm ${sec(median(m.work.map((w) => w.pdftoppmCpuMs)))}): ${cpuRatio.toFixed(2)}× pdftoppm's, ${(cpuRatio / 2).toFixed(2)}× on two cores at best | ` +
        `${mb(Math.max(...m.work.map((r) => r.maxRssKb)))} worker process (${mb(Math.max(...m.work.map((r) => r.loadedRssKb)))} of it Node, tsx and the code before the job); ` +
        `${mb(Math.max(...m.work.map((r) => r.treeRssKb)))} with its pdftoppm |`,
    ];
  });
  const table = [
    '| Pages | Run | Time (median) | Pages/s | Whole job vs pdftoppm | First sheet ready (vs pdftoppm whole run) | CPU time (median) | Peak memory (max RSS) |',
    '| ---: | --- | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows,
  ].join('\n');
  console.log(`\n${table}`);

  const section = [
    `## PDF plans to sheets, ${runDate()}`,
    '',
    `Machine: ${machine()}; poppler ${await popplerVersion()}; load average before the run ${loadBefore} (1, 5, 15 min).`,
    `Input: A1 landscape plan sets of ${PAGE_COUNTS.join(' and ')} pages made with pdf-lib (walls, doors, hatching, dashed grid, text; ${measured.map((m) => `${m.pdfKb.toFixed(0)} KiB`).join(', ')}). ` +
      `Both draw every page at ${dpi} dpi (the worker's choice for A1 under its ${SHEET_RENDERING.pixelBudget / 1e6} MP budget: ${(pixels / 1e6).toFixed(1)} MP a page) from the crop box. ` +
      `The worker makes ${SHEET_RENDERING.tileSize}-pixel JPEG tiles down to zoom ${tiles} and a thumbnail per page, into local storage, with PostgreSQL rows and progress events. ` +
      `${ROUNDS} rounds per size, alternating; medians (ratios: the median of each worker run against the pdftoppm run just before it). ` +
      `"First sheet ready" is when the first sheet is recorded ready and listed in the upload, which is when its progress event goes out. ` +
      `CPU time is user + system: pdftoppm's from GNU time; the worker's is its process during the job plus the pdftoppm processes it ran (the small colour-check drawings and the pages), from /proc; ` +
      `half of the CPU ratio is what the whole-job ratio could be at best with two idle cores, the number a loaded, shared machine disturbs least. ` +
      `Peak memory of the worker process is its max RSS; "with its pdftoppm" sums the worker and the pdftoppm processes it runs, sampled every 50 ms.`,
    '',
    table,
    '',
  ].join('\n');
  appendResults(section);
  fs.rmSync(dataDir, { recursive: true, force: true });
  await cleanRedis();
}

async function popplerVersion(): Promise<string> {
  const r = await spawnCollect('pdftoppm', ['-v']);
  return /version (\S+)/.exec(r.err + r.out)?.[1] ?? 'unknown';
}

/** The progress events and notification jobs of the runs leave no keys behind. */
async function cleanRedis() {
  const { Redis } = await import('ioredis');
  const r = new Redis(env.REDIS_URL!);
  let cursor = '0';
  do {
    const [next, keys] = await r.scan(cursor, 'MATCH', `*${env.REDIS_PREFIX}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await r.del(...keys);
  } while (cursor !== '0');
  await r.quit();
}

// Last, so every constant above is initialised before it runs.
if (process.argv[2] === '--worker') await runWorker(Number(process.argv[3]));
else await main();
