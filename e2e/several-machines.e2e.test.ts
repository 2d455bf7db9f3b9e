import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { PDFDocument } from 'pdf-lib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { SheetRoom, ProjectDetail, VideoDetail } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { newProject } from '../api/test/project-helpers.js';
import { freePort } from '../test/support/free-port.js';
import type { PathJson } from '../test/fixtures/walk-video/generate.js';
import { worldToPlan, type PlanJson } from '../test/fixtures/walk-video/plan.js';
import { cachedWalk } from '../workers/test/walk-fixture.js';
import { test } from './browser.js';
import { createUser, uniqueName, type TestUser } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, signIn } from './support/ui.js';

/**
 * SiteWalk on several machines, played by processes of this one: two API
 * processes and two workers processes, each in its own process group, sharing
 * one database, one Redis and one storage folder (STORAGE_DIR; a bucket when
 * S3 is on). Their Redis prefix is their own, so the test run's in-process
 * workers take none of their jobs.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** COLMAP on a loaded two-core machine, done twice (the killed attempt and the rescue). */
const PIPELINE = { timeout: 600_000, interval: 500 } as const;
const SLOW = { timeout: 120_000, interval: 250 } as const;
// A sub-prefix the run's global setup clears: job ids restart with the recreated database, and a
// finished job kept under an old run's id would make BullMQ ignore the new job of the same id.
const PREFIX = `${process.env.REDIS_PREFIX}.machines`;
const DATA_DIR = path.resolve(ROOT, process.env.DATA_DIR!);
// The shortest walk the video tests use, rendered once per data folder and shared with them.
const WALK_DIR = path.join(DATA_DIR, 'fixtures', 'video-jobs-walk');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  name: string;
  proc: ChildProcess;
  output: () => string;
  exited: Promise<NodeJS.Signals | number | null>;
}

/** One server process of the cluster, in its own process group (a machine of its own, as far as signals go). */
function startProcess(name: string, entry: string, env: Record<string, string>): Proc {
  const proc = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, REDIS_PREFIX: PREFIX, STORAGE_DIR: path.join(DATA_DIR, 'storage'), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-2_000_000)));
  proc.stderr!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-2_000_000)));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => proc.on('exit', (code, signal) => resolve(signal ?? code)));
  return { name, proc, output: () => out, exited };
}

/** Stops a process group whatever it still runs. */
function killGroup(p: Proc) {
  try {
    process.kill(-p.proc.pid!, 'SIGKILL');
  } catch {
    /* gone already */
  }
}

const childPids = (pid: number): number[] => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)]).toString().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
const commandOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};
/** Alive and not a zombie left for a reaper. */
const running = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
};

let apis: { one: string; two: string };
let procs: Proc[] = [];
let workers: Proc[] = [];
let walkPlan: PlanJson;
let walkPath: PathJson;

beforeAll(async () => {
  await cachedWalk(WALK_DIR, { kind: '360', seconds: 6, width: 640, height: 320, fps: 15, threads: 2 });
  walkPlan = JSON.parse(fs.readFileSync(path.join(WALK_DIR, 'walk.plan.json'), 'utf8')) as PlanJson;
  walkPath = JSON.parse(fs.readFileSync(path.join(WALK_DIR, 'walk.path.json'), 'utf8')) as PathJson;
  const clientDist = process.env.E2E_CLIENT_DIST ? path.resolve(ROOT, process.env.E2E_CLIENT_DIST) : path.join(DATA_DIR, 'client-dist');
  const [p1, p2] = [await freePort(), await freePort()];
  apis = { one: `http://127.0.0.1:${p1}`, two: `http://127.0.0.1:${p2}` };
  const apiEnv = (port: number) => ({ PORT: String(port), APP_URL: `http://127.0.0.1:${port}`, CLIENT_DIST: clientDist, SITEWALK_SERVICE: 'api' });
  workers = [1, 2].map((i) => startProcess(`workers ${i}`, 'workers/src/main.ts', { SITEWALK_SERVICE: 'workers' }));
  procs = [startProcess('api 1', 'api/src/server.ts', apiEnv(p1)), startProcess('api 2', 'api/src/server.ts', apiEnv(p2)), ...workers];
  for (const url of [apis.one, apis.two]) await until(async () => (await fetch(`${url}/api/health`).catch(() => null))?.status === 200, `${url} to answer its health check`);
  for (const w of workers) await until(async () => w.output().includes('"workers started"'), `${w.name} to listen`);
}, 600_000);

/** Waits for a condition of the processes (expect.poll is for tests, not hooks). */
async function until(ok: () => Promise<boolean>, what: string, timeoutMs = 180_000) {
  for (const end = Date.now() + timeoutMs; !(await ok()); await sleep(250)) {
    const dead = procs.find((p) => p.proc.exitCode !== null);
    if (dead) throw new Error(`${dead.name} exited while waiting for ${what}:\n${dead.output().slice(-4000)}`);
    if (Date.now() > end) throw new Error(`Gave up waiting for ${what}.`);
  }
}

afterAll(async () => {
  if (process.env.MACHINES_DEBUG) for (const p of procs) console.log(`---- ${p.name}\n${p.output().slice(-6000)}`);
  for (const p of procs) {
    try {
      process.kill(-p.proc.pid!, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  await Promise.race([Promise.all(procs.map((p) => p.exited)), sleep(15_000)]);
  procs.forEach(killGroup);
});

/** The walk's plan as a one-page PDF, one point per plan pixel. */
async function planPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const png = await pdf.embedPng(fs.readFileSync(path.join(WALK_DIR, 'walk.plan.png')));
  pdf.addPage([png.width, png.height]).drawImage(png, { x: 0, y: 0, width: png.width, height: png.height });
  return Buffer.from(await pdf.save());
}

const videoOf = async (owner: TestUser, visitId: number) => (await request(apis.one).get(`/api/visits/${visitId}/video`).set(owner.auth)).body.data as VideoDetail;
const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

describe('SiteWalk on several machines', () => {
  test(
    'work uploaded through one API machine is done by the workers machines and followed live through the other; a workers machine killed mid-walk is replaced within seconds, COLMAP and all, and the walk becomes rooms once',
    async ({ page }) => {
      const owner = await createUser();
      const project = await newProject(owner, { name: uniqueName('Two machines') });

      // The supervisor's browser is connected to API 2 only.
      await page.goto(`${apis.two}/login`);
      await signIn(page, { username: owner.user.username, password: owner.password });
      await expectSignedInLayout(page);
      await page.goto(`${apis.two}/project/${project.id}`);
      await expect.poll(() => page.getByTestId('sheets-empty').isVisible(), EVENTUALLY).toBe(true);

      // A PDF plan uploaded through API 1: the sheet and its notification appear on API 2's page without a reload.
      const pdf = await request(apis.one).post(`/api/projects/${project.id}/pdf-sheet`).set(owner.auth).attach('file', await planPdf(), 'plan.pdf');
      expect(pdf.status).toBe(202);
      await expect.poll(() => page.getByTestId('sheet-card').count(), SLOW).toBe(1);
      // The bell counts it live, once (the count is the server's; the list it fetched at sign-in may have crossed the event).
      await expect.poll(() => bell(page).locator('.badge').textContent().catch(() => null), SLOW).toMatch(/^1\b/);
      const held = (await db()('notifications').where({ user_id: owner.user.id }).select('kind')) as { kind: string }[];
      expect(held.map((n) => n.kind)).toEqual(['sheets_ready']);
      const sheet = ((await request(apis.one).get(`/api/projects/${project.id}`).set(owner.auth)).body.data as ProjectDetail).maps[0];
      expect(sheet.status).toBe('ready');

      // A walk uploaded and started through API 1, watched on API 2.
      const visit = (await request(apis.one).post('/api/visits').set(owner.auth).send({ id_project: project.id, name: uniqueName('Walk'), id_map: sheet.id })).body.data as { id: number };
      await page.goto(`${apis.two}/visitvideo/${visit.id}`);
      const stepper = page.getByTestId('video-stepper');
      const uploaded = await request(apis.one).post(`/api/visits/${visit.id}/video`).set(owner.auth).attach('file', path.join(WALK_DIR, 'walk.mp4'));
      expect(uploaded.status).toBe(201);
      const video = uploaded.body.data as VideoDetail;
      expect((await request(apis.one).post('/api/python/videos/process').set(owner.auth).send({ video_id: video.id })).status).toBe(202);
      await expect.poll(() => page.locator('[data-step="process"]').getAttribute('data-state'), SLOW).toMatch(/^(active|done)$/);

      // The workers process whose COLMAP runs the reconstruction is killed outright (no handler runs).
      const colmapOf = (w: Proc) => childPids(w.proc.pid!).filter((pid) => /colmap/.test(commandOf(pid)));
      let victim: Proc | undefined;
      let colmap: number[] = [];
      await expect
        .poll(
          () => {
            victim = workers.find((w) => colmapOf(w).length > 0);
            colmap = victim ? colmapOf(victim) : [];
            return colmap.length;
          },
          PIPELINE,
        )
        .toBeGreaterThan(0);
      const survivor = workers.find((w) => w !== victim)!;
      const killedAt = Date.now();
      process.kill(victim!.proc.pid!, 'SIGKILL');
      expect(await victim!.exited).toBe('SIGKILL');
      // Its COLMAP dies with it (setpriv --pdeathsig), not left running for an hour on the dead machine's cores.
      await expect.poll(() => colmap.filter(running), EVENTUALLY).toEqual([]);

      // The other workers process takes the walk over and finishes it; API 2's page follows.
      await expect.poll(() => survivor.output().includes('"job":"video.generate-ply"'), { timeout: 60_000, interval: 250 }).toBe(true);
      // For the reader of the log (not asserted: a loaded machine's timing is not the code's): how long the walk waited.
      console.log(`[several machines] the killed worker's reconstruction was taken over after ${((Date.now() - killedAt) / 1000).toFixed(1)} s`);
      await expect.poll(() => stepper.getAttribute('data-status'), PIPELINE).toBe('needs_projection');
      let run = (await videoOf(owner, visit.id)).run;
      expect(run.error).toBeNull();
      // Taken twice: the killed attempt and the rescue.
      expect(run.steps.find((s) => s.step === 'generate-ply')).toMatchObject({ status: 'done', attempts: 2 });

      // Laid on the sheet by its true start and end, confirmed: one room per keyframe of the walk, none twice.
      const cluster = run.artifacts.clusters[0];
      const at = (kf: number) => {
        const time = run.artifacts.keyframes.find((k) => k.index === kf)!.time;
        const f = walkPath.frames[Math.min(walkPath.frames.length - 1, Math.round(time * walkPath.fps))];
        const [x, y] = worldToPlan(walkPlan, f.x, f.y);
        const k = sheet.width! / walkPlan.imageWidth;
        return { keyframe: kf, x: x * k, y: y * k };
      };
      const lay = { id_map: sheet.id, id_visit: visit.id, osfmCluster: cluster.osfm_cluster, imageWidth: sheet.width, imageHeight: sheet.height };
      const ends = [at(cluster.keyframes[0]), at(cluster.keyframes[cluster.keyframes.length - 1])];
      expect((await request(apis.one).post('/api/python/videos/project-points').set(owner.auth).send({ ...lay, control_points: ends })).status).toBe(202);
      await expect.poll(() => stepper.getAttribute('data-status'), PIPELINE).toBe('needs_confirmation');
      expect((await request(apis.one).post('/api/python/videos/confirm-projection').set(owner.auth).send({ id_map: sheet.id, id_visit: visit.id, osfmCluster: cluster.osfm_cluster })).status).toBe(202);
      await expect.poll(async () => (await videoOf(owner, visit.id)).run.status, PIPELINE).toBe('completed');
      run = (await videoOf(owner, visit.id)).run;
      const rooms = (await request(apis.two).get(`/api/maps/${sheet.id}/rooms`).set(owner.auth)).body.data as SheetRoom[];
      expect(rooms.filter((r) => r.id_visit === visit.id)).toHaveLength(cluster.keyframes.length);
      const keyframes = (await db()('rooms').where({ id_visit: visit.id }).select('video_keyframe')).map((r: { video_keyframe: number }) => r.video_keyframe);
      expect([...keyframes].sort((a, b) => a - b)).toEqual([...cluster.keyframes].sort((a, b) => a - b));
    },
    1_500_000,
  );
});
