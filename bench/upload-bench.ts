/**
 * Resumable video uploads: how fast the API writes a large file it receives
 * with the tus protocol (POST, then PATCH pieces of 64 MiB as the browser
 * sends them, over loopback), against a plain sequential write of the same
 * size on the same disk in the same run (`dd bs=1M` and Node's fs stream).
 * A bare Node HTTP server piping the same pieces into a file is measured
 * too: the cost of tus and Koa beyond HTTP itself.
 * Both sides end with the data on disk (fdatasync), so the page cache does
 * not flatter either. Peak RSS is read at each size: it must not grow with
 * the file.
 *
 *   npx tsx bench/upload-bench.ts [--sizes 256,1024,8192]   (MiB; default 256,1024)
 *
 * The last byte is never sent: the upload stays "uploading" and is then
 * cancelled, so the bench times the writing, not the content check (which
 * only reads headers).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchEnv } from './bench-env.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

benchEnv({ database: 'sitewalk_upload_bench', redisPrefix: 'sitewalk-upload-bench', dataDir: '.data/upload-bench' });
const env = process.env;
const { values: flags } = parseArgs({ options: { sizes: { type: 'string' } } });
const SIZES_MIB = (flags.sizes ?? '256,1024').split(',').map(Number).filter((n) => n > 0);
const MiB = 1024 * 1024;
const PIECE = 64 * MiB;
env.VIDEO_MAX_BYTES = String(Math.max(...SIZES_MIB) * MiB + MiB);

const { ensureDatabase } = await import('../api/src/cli/ensure-database.js');
const { closeDb, migrateLatest, User, Project, Visit } = await import('@sitewalk/core/db');
const { issueSession } = await import('@sitewalk/core/services/session.service.js');
const { videoUploadDir } = await import('@sitewalk/core/services/video-uploads.service.js');
const { createApp } = await import('../api/src/app.js');

/** Peak RSS of this process (the server runs here; the sending side holds one 1 MiB block). */
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);

async function seed(): Promise<{ token: string; visitId: number }> {
  const dbName = new URL(env.DATABASE_URL!).pathname.slice(1);
  if (!/_bench$/.test(dbName)) throw new Error(`Refusing to recreate ${dbName}: bench databases end in _bench.`);
  await ensureDatabase(env.DATABASE_URL!, { recreate: true });
  await migrateLatest();
  const user = await User.query().insertAndFetch({ username: 'bench', email: 'bench@example.test', password_hash: 'not-a-password-hash', first_name: 'Bench', super_admin: true });
  const project = await Project.query().insertAndFetch({ name: 'Upload bench', id_owner: user.id, project_code: crypto.randomUUID() } as never);
  const visit = await Visit.query().insertAndFetch({ id_project: project.id, name: 'Walk', date: '2026-11-28', id_user: user.id, code: crypto.randomUUID() } as never);
  const { token } = await issueSession(user.id, { remember: true });
  return { token, visitId: visit.id };
}

const block = crypto.randomBytes(MiB);

function request(port: number, method: string, p: string, headers: Record<string, string>, bytes = 0): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, method, headers: { ...headers, 'Content-Length': String(bytes) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    let left = bytes;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, MiB);
        left -= n;
        if (!req.write(n === MiB ? block : block.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

async function fdatasync(file: string): Promise<void> {
  const h = await fsp.open(file, 'r+');
  await h.datasync();
  await h.close();
}

/** A write's speed and the CPU this process (server and sender) spent on it, per GiB. */
interface Written {
  mbps: number;
  cpuPerGiB: number;
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** MB/s of the server writing `mib` MiB through tus, data on disk. */
async function serverWrite(port: number, token: string, visitId: number, mib: number): Promise<Written> {
  const size = mib * MiB;
  const cpu0 = cpuNow();
  const auth = { Authorization: `Bearer ${token}`, 'Tus-Resumable': '1.0.0' };
  const t0 = performance.now();
  const created = await request(port, 'POST', '/api/uploads/videos', { ...auth, 'Upload-Length': String(size + 1), 'Upload-Metadata': `visit_id ${Buffer.from(String(visitId)).toString('base64')}` });
  if (created.status !== 201) throw new Error(`create answered ${created.status}`);
  const location = String(created.headers.location);
  for (let offset = 0; offset < size; offset += PIECE) {
    const n = Math.min(PIECE, size - offset);
    const r = await request(port, 'PATCH', location, { ...auth, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, n);
    if (r.status !== 204) throw new Error(`PATCH answered ${r.status}`);
  }
  await fdatasync(path.join(videoUploadDir(), location.split('/').pop()!));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuNow() - cpu0;
  await request(port, 'DELETE', location, auth);
  return { mbps: size / MiB / seconds, cpuPerGiB: (cpu * 1024) / mib };
}

/** MB/s of dd writing the same amount on the same disk (conv=fdatasync). */
function ddWrite(dir: string, mib: number): number {
  const file = path.join(dir, 'dd.bin');
  const t0 = performance.now();
  execFileSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=1M', `count=${mib}`, 'conv=fdatasync'], { stdio: 'ignore' });
  const s = (performance.now() - t0) / 1000;
  fs.rmSync(file, { force: true });
  return mib / s;
}

/** MB/s of Node writing the same random block sequentially through a stream (as the file store does), then fdatasync. */
async function fsWrite(dir: string, mib: number): Promise<number> {
  const file = path.join(dir, 'fs.bin');
  const t0 = performance.now();
  const ws = fs.createWriteStream(file);
  for (let i = 0; i < mib; i++) if (!ws.write(block)) await new Promise<void>((r) => ws.once('drain', () => r()));
  await new Promise<void>((r, j) => ws.end((err?: Error | null) => (err ? j(err) : r())));
  await fdatasync(file);
  const s = (performance.now() - t0) / 1000;
  fs.rmSync(file, { force: true });
  return mib / s;
}

/**
 * MB/s of a bare Node HTTP server receiving the same pieces over loopback and piping each into the file at its
 * offset (no tus, no Koa), then fdatasync: what the tus path costs beyond HTTP and the disk themselves.
 */
async function plainHttpWrite(dir: string, mib: number): Promise<Written> {
  const file = path.join(dir, 'http.bin');
  await fsp.writeFile(file, '');
  const raw = http.createServer((req, res) => {
    const start = Number(req.headers['x-offset'] ?? 0);
    req.pipe(fs.createWriteStream(file, { flags: 'r+', start })).on('finish', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
  const rawPort = (raw.address() as AddressInfo).port;
  const size = mib * MiB;
  const cpu0 = cpuNow();
  const t0 = performance.now();
  for (let offset = 0; offset < size; offset += PIECE) await request(rawPort, 'PATCH', '/', { 'X-Offset': String(offset) }, Math.min(PIECE, size - offset));
  await fdatasync(file);
  const s = (performance.now() - t0) / 1000;
  const cpu = cpuNow() - cpu0;
  raw.close();
  fs.rmSync(file, { force: true });
  return { mbps: mib / s, cpuPerGiB: (cpu * 1024) / mib };
}

const { token, visitId } = await seed();
const server = http.createServer(createApp({ serveClient: false }).callback());
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const port = (server.address() as AddressInfo).port;
const dir = videoUploadDir();
await fsp.mkdir(dir, { recursive: true });

console.log(`Upload bench: sizes ${SIZES_MIB.join(', ')} MiB, pieces of ${PIECE / MiB} MiB, disk of ${dir}`);
const rows: string[] = [];
const baseRss = process.memoryUsage().rss;
for (const mib of SIZES_MIB) {
  // Alternating, so a busy moment of the machine falls on both sides.
  const dd = ddWrite(dir, mib);
  const nodeFs = await fsWrite(dir, mib);
  peak = process.memoryUsage().rss;
  const tus = await serverWrite(port, token, visitId, mib);
  const rss = peak;
  const plain = await plainHttpWrite(dir, mib);
  const ref = Math.max(dd, nodeFs);
  const line = `| ${mib} MiB | ${tus.mbps.toFixed(0)} MB/s | ${dd.toFixed(0)} MB/s | ${nodeFs.toFixed(0)} MB/s | ${plain.mbps.toFixed(0)} MB/s | ${((tus.mbps / ref) * 100).toFixed(0)} % | ${((tus.mbps / plain.mbps) * 100).toFixed(0)} % | ${tus.cpuPerGiB.toFixed(2)} s | ${plain.cpuPerGiB.toFixed(2)} s | ${(rss / MiB).toFixed(0)} MB |`;
  console.log(line);
  rows.push(line);
}
clearInterval(sampler);
server.close();
await closeDb();
const { closeQueues } = await import('@sitewalk/core/queue');
await closeQueues().catch(() => undefined);

appendResults(
  [
    `## Resumable upload write speed (bench/upload-bench.ts) — ${runDate()}`,
    '',
    `${machine()}; load average at the end ${loadAverage()}. The API's tus endpoint (POST, PATCH pieces of ${PIECE / MiB} MiB over loopback, the file store on the data disk) against \`dd bs=1M conv=fdatasync\` , a Node fs stream + fdatasync and a bare Node HTTP server piping the same pieces into a file, of the same size on the same disk, in the same run; all end with the data on disk. Ratio: tus over the faster reference. CPU per GiB: this process (server and sender) while it wrote — what a busy machine disturbs least. Peak RSS: the whole bench process (server and sender), ${(baseRss / MiB).toFixed(0)} MB before the first upload.`,
    '',
    '| File | tus upload | dd | fs stream | plain HTTP to file | ratio (faster of dd and fs) | ratio to plain HTTP | CPU per GiB, tus | CPU per GiB, plain HTTP | peak RSS |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n'),
);
process.exit(0);
