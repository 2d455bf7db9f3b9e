/**
 * 360 photos → viewer tiles (a measurement, not a test): the time the
 * room.tiles worker takes to turn an 8192 × 4096 panorama into what the 360
 * viewer loads (check the photo, cut the tile pyramid, make the base image
 * and thumbnail, store them, mark the room ready), set side by side in the
 * same run with Debian's `vips dzsave` cutting a tile pyramid of the same
 * photo with the same tile size and JPEG quality. Prints the ratio and peak
 * memory, and appends a dated section with the machine to bench/RESULTS.md.
 *
 *   npx tsx bench/room-tiles-bench.ts      (or: bash bench/run.sh rooms)
 *
 * The photo is a real 360° photograph, ../shared/fixtures/panoramas/outdoor-rock-4096x2048.jpg
 * (the example panorama of the Pannellum project, examples/examplepano.jpg,
 * CC BY-SA 3.0 Unported), upscaled ×2 to 8192 × 4096; without it, a
 * generated gradient panorama of the same size. The worker runs in a child
 * process of its own, long-lived like a workers process (one fresh room per
 * round; the first round is its first job), so its peak memory (max RSS) is
 * its own; vips's peak is read by GNU time. Rounds alternate between the two so a busy moment of a
 * shared machine hits both alike. It uses its own database (default
 * sitewalk_rooms_bench, recreated), Redis prefix and data folder.
 * Knobs: ROOM_BENCH_ROUNDS (11), ROOM_BENCH_WIDTH (8192), ROOM_BENCH_PHOTO (the fixture),
 * ROOM_BENCH_VERBOSE=1 (print the worker's log lines, with its own cut and total times).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { benchEnv } from './bench-env.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.ROOM_BENCH_ROUNDS ?? 11);
const WIDTH = Number(process.env.ROOM_BENCH_WIDTH ?? 8192);
/** The shared fixtures sit beside the checkout (../shared), or beside the folder of worktrees (../../shared). */
const FIXTURE =
  process.env.ROOM_BENCH_PHOTO ??
  ['../shared', '../../shared'].map((d) => path.resolve(ROOT, d, 'fixtures/panoramas/outdoor-rock-4096x2048.jpg')).find((f) => fs.existsSync(f)) ??
  '';
const ATTRIBUTION = 'the example panorama of the Pannellum project (examples/examplepano.jpg, CC BY-SA 3.0 Unported)';

benchEnv({ database: 'sitewalk_rooms_bench', redisPrefix: 'sitewalk-rooms-bench', dataDir: '.data/rooms-bench' });
const env = process.env;

/**
 * Child process: a workers process serving the rooms queue, long-lived like the real one (its database
 * connections open and libvips started before a job comes, as workers/src/main.ts does); it takes the
 * room ids one per line on stdin and prints each job's time and the process's peak memory so far.
 */
async function runWorker() {
  // The whole job table, as the workers process loads it (every job's modules, the PDF one's too).
  const { handlers } = await import('../workers/src/jobs/index.js');
  const roomTiles = handlers['room.tiles'] as typeof import('../workers/src/jobs/room-tiles.js').roomTiles;
  const { warmImageLibrary } = await import('../workers/src/adapters/panorama-tiles.js');
  const { closeDb, db } = await import('@sitewalk/core/db');
  const { closeQueues } = await import('@sitewalk/core/queue');
  const { closeEmitter } = await import('@sitewalk/core/realtime/emitter.js');
  // What the process holds before the job: Node, tsx, sharp and the loaded modules.
  const loadedRssKb = Math.round(process.memoryUsage().rss / 1024);
  await db().raw('select 1');
  await warmImageLibrary();
  process.stdout.write('READY\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const roomId = Number(line);
    const job = { id: `room-tiles-${roomId}`, name: 'room.tiles', data: { id_room: roomId }, opts: { attempts: 1 }, attemptsMade: 0, updateProgress: async () => undefined };
    const start = performance.now();
    const result = await roomTiles({ id_room: roomId }, job as never);
    const ms = performance.now() - start;
    process.stdout.write(`RESULT ${JSON.stringify({ ms, tiles: result.tiles ?? 0, status: result.status, maxRssKb: process.resourceUsage().maxRSS, loadedRssKb })}\n`);
  }
  await Promise.allSettled([closeQueues(), closeEmitter()]);
  await closeDb();
}

interface Run {
  ms: number;
  maxRssKb: number;
}

function spawnCollect(cmd: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** `vips dzsave` alone: the same photo, the same tile size and JPEG quality, its default pyramid down to one pixel. */
async function plainDzsave(photo: string, tileSize: number, quality: number, outDir: string): Promise<Run & { tiles: number }> {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const start = performance.now();
  const r = await spawnCollect('/usr/bin/time', ['-f', 'MAXRSS %M', 'vips', 'dzsave', photo, path.join(outDir, 'pyramid'), '--tile-size', String(tileSize), '--overlap', '0', '--suffix', `.jpg[Q=${quality}]`]);
  const ms = performance.now() - start;
  if (r.code !== 0) throw new Error(`vips dzsave failed: ${r.err}`);
  const tiles = fs.readdirSync(path.join(outDir, 'pyramid_files'), { recursive: true }).filter((f) => String(f).endsWith('.jpg')).length;
  fs.rmSync(outDir, { recursive: true, force: true });
  return { ms, maxRssKb: Number(/MAXRSS (\d+)/.exec(r.err)?.[1] ?? 0), tiles };
}

/** The workers process (one for every round, started once), and a function handing it a room. */
function startWorker(): { ready: Promise<void>; run: (roomId: number) => Promise<Run & { tiles: number; loadedRssKb: number }>; stop: () => Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--worker'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const lines = createInterface({ input: child.stdout });
  const waiting: Array<{ resolve: (line: string) => void; reject: (err: Error) => void }> = [];
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  lines.on('line', (line) => {
    if (env.ROOM_BENCH_VERBOSE) process.stdout.write(`${line}\n`);
    if (line === 'READY') onReady();
    else if (line.startsWith('RESULT ')) waiting.shift()?.resolve(line.slice(7));
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  // A worker process that dies fails the round waiting for it, with what it said.
  void exited.then((code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`the worker process ended (${code}): ${err}`));
  });
  return {
    ready,
    run: (roomId) =>
      new Promise((resolve, reject) => {
        waiting.push({
          resolve: (line) => {
            const out = JSON.parse(line);
            if (out.status !== 'done') reject(new Error(`the worker did not tile the room: ${line}`));
            else resolve(out);
          },
          reject,
        });
        child.stdin.write(`${roomId}\n`);
      }),
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

async function main() {
  const loadBefore = loadAverage();
  const dataDir = path.resolve(ROOT, env.DATA_DIR!);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });

  const { ensureDatabase } = await import('../api/src/cli/ensure-database.js');
  await ensureDatabase(env.DATABASE_URL!, { recreate: true });
  const { db, closeDb, migrateLatest } = await import('@sitewalk/core/db');
  const { putFile } = await import('@sitewalk/core/storage');
  const { panoramaGrid, PANORAMA_JPEG } = await import('../workers/src/adapters/panorama-tiles.js');
  const sharp = (await import('sharp')).default;
  await migrateLatest();
  const [user] = await db()('users').insert({ username: 'bench', email: 'bench@example.test', password_hash: 'x' }).returning('id');
  const [project] = await db()('projects').insert({ id_owner: user.id, name: 'Bench tower', project_code: 'benchrooms00' }).returning('id');
  const [visit] = await db()('visits').insert({ id_project: project.id, id_user: user.id, name: 'Bench walk', date: '2026-11-26', code: 'benchvisit00' }).returning('id');

  // The photo: the fixture upscaled, as a high-quality camera JPEG.
  const photo = path.join(dataDir, `panorama-${WIDTH}.jpg`);
  const fromFixture = !!FIXTURE && fs.existsSync(FIXTURE);
  const source = fromFixture
    ? sharp(FIXTURE).resize(WIDTH, WIDTH / 2, { kernel: 'lanczos3' })
    : sharp({ create: { width: WIDTH, height: WIDTH / 2, channels: 3, background: { r: 120, g: 160, b: 200 } } });
  await source.jpeg({ quality: 92 }).toFile(photo);
  const bytes = fs.statSync(photo).size;
  const grid = panoramaGrid(WIDTH);
  console.log(`${WIDTH} × ${WIDTH / 2} panorama (${(bytes / 1024 / 1024).toFixed(1)} MiB JPEG${fromFixture ? ', the Pannellum example upscaled' : ', generated'}), ${grid.tileSize}-pixel tiles, ${ROUNDS} rounds...`);

  const plain: (Run & { tiles: number })[] = [];
  const work: (Run & { tiles: number; loadedRssKb: number })[] = [];
  const workerProcess = startWorker();
  await workerProcess.ready;
  for (let round = 1; round <= ROUNDS; round++) {
    plain.push(await plainDzsave(photo, grid.tileSize, PANORAMA_JPEG.quality, path.join(dataDir, 'dzsave-out')));
    console.log(`  round ${round}: vips dzsave ${(plain.at(-1)!.ms / 1000).toFixed(2)} s`);
    const key = `projects/${project.id}/visits/${visit.id}/originals/bench-${round}.jpg`;
    const copy = path.join(dataDir, `copy-${round}.jpg`);
    fs.copyFileSync(photo, copy);
    await putFile(key, copy);
    const [room] = await db()('rooms')
      .insert({ id_visit: visit.id, id_user: user.id, name: `Room ${round}`, status: 'queued', original_name: 'panorama.jpg', size_bytes: bytes, width: WIDTH, height: WIDTH / 2, file_key: key, position: round })
      .returning('id');
    work.push(await workerProcess.run(room.id));
    console.log(`  round ${round}: worker      ${(work.at(-1)!.ms / 1000).toFixed(2)} s`);
  }
  await workerProcess.stop();
  const ready = await db()('rooms').where({ id_visit: visit.id, status: 'ready' }).first('levels');
  await closeDb();

  const plainMs = median(plain.map((r) => r.ms));
  const workMs = median(work.map((r) => r.ms));
  const ratio = workMs / plainMs;
  const levels = (ready?.levels ?? []) as { width: number; cols: number; rows: number }[];
  const rows = [
    `| vips dzsave alone (${plain[0].tiles} tiles, every level down to 1 pixel) | ${(plainMs / 1000).toFixed(2)} s | ${mb(Math.max(...plain.map((r) => r.maxRssKb)))} (vips) |`,
    `| room.tiles worker (${work[0].tiles} tiles in ${levels.length} levels, base image, thumbnail, store, record) | ${(workMs / 1000).toFixed(2)} s (its first job after the process started: ${(work[0].ms / 1000).toFixed(2)} s) | ${mb(Math.max(...work.map((r) => r.maxRssKb)))} (worker process over all rounds, of which ${mb(Math.max(...work.map((r) => r.loadedRssKb)))} is Node, tsx, sharp and the loaded code before the job) |`,
  ];
  const table = ['| Run | Time (median) | Peak memory (max RSS) |', '| --- | ---: | --- |', ...rows].join('\n');
  const summary = `The worker takes ${ratio.toFixed(2)}× the time of \`vips dzsave\` alone on the same ${WIDTH} × ${WIDTH / 2} photo (target ≤ 1.0×), and its memory beyond the loaded code stays at ${mb(Math.max(...work.map((r) => r.maxRssKb - r.loadedRssKb)))} for a ${((WIDTH * WIDTH) / 2 / 1e6).toFixed(0)} MP photo (${(((WIDTH * WIDTH) / 2) * 3 / 1024 / 1024).toFixed(0)} MB decoded).`;
  console.log(`\n${table}\n\n${summary}`);

  const section = [
    `## 360 photos to viewer tiles, ${runDate()}`,
    '',
    `Machine: ${machine()}; libvips ${await vipsVersion()} (CLI), sharp ${sharp.versions.sharp} with libvips ${sharp.versions.vips}; load average before the run ${loadBefore} (1, 5, 15 min).`,
    `Input: ${fromFixture ? `${ATTRIBUTION}, upscaled from 4096 × 2048 to` : 'a generated panorama of'} ${WIDTH} × ${WIDTH / 2} pixels, JPEG quality 92 (${(bytes / 1024 / 1024).toFixed(1)} MiB). ` +
      `Both cut ${grid.tileSize}-pixel JPEG tiles at quality ${PANORAMA_JPEG.quality} without overlap; the worker keeps the levels the viewer reads (${levels.map((l) => `${l.width} px, ${l.cols} × ${l.rows}`).join('; ')}), ` +
      `adds a ${Math.min(2048, WIDTH)} × ${Math.min(1024, WIDTH / 2)} base image and a thumbnail, moves the files into local storage and updates PostgreSQL. ${ROUNDS} rounds, alternating; medians.`,
    '',
    table,
    '',
    summary,
    '',
  ].join('\n');
  appendResults(section);
  fs.rmSync(dataDir, { recursive: true, force: true });
  await cleanRedis();
}

async function vipsVersion(): Promise<string> {
  const r = await spawnCollect('vips', ['--version']);
  return /vips-(\S+)/.exec(r.out + r.err)?.[1] ?? 'unknown';
}

/** The progress events of the runs leave no keys behind. */
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
if (process.argv[2] === '--worker') await runWorker();
else await main();
