import { execFileSync } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { QueueEvents } from 'bullmq';
import { closeDb } from '@sitewalk/core/db';
import { bullPrefix, closeQueues, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis, createRedis } from '@sitewalk/core/redis.js';
import { config } from '@sitewalk/core/config.js';
import { readRun } from '@sitewalk/core/services/video-run.service.js';
import { acceptVideoUpload, startProcessing } from '@sitewalk/core/services/videos.service.js';
import { api, createUser } from '../../api/test/helpers.js';
import { newProject } from '../../api/test/project-helpers.js';
import { cachedWalk } from './walk-fixture.js';
import { handlers } from '../src/jobs/index.js';
import { startWorkers, type RunningWorkers } from '../src/runner.js';
import { runTs, type Child } from './child-process.js';
import { useOwnRedisPrefix, waitFor } from './helpers.js';

useOwnRedisPrefix('video-crash');

// Short locks so the dead worker's job is free again within a second or two.
const TIMINGS = { WORKER_LOCK_MS: '1000', WORKER_STALLED_MS: '300' };
const FIXTURE_DIR = path.join(config.dataDir, 'fixtures', 'video-jobs-walk');

let child: Child | null = null;
const running: RunningWorkers[] = [];
afterEach(async () => {
  if (child) killTree(child.proc.pid!);
  for (const w of running.splice(0)) await w.close();
});
afterAll(async () => {
  for (const q of ['video', 'reconstruction', 'rooms', 'notifications'] as const) await queue(q).obliterate({ force: true }).catch(() => undefined);
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

/** Kills a process and the programs it started (COLMAP), which would otherwise run on as orphans. */
function killTree(pid: number) {
  const kids = (() => {
    try {
      return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)]).toString().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  })();
  for (const k of kids) killTree(k);
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone already */
  }
}

it('a worker killed while COLMAP runs: another worker finishes generate-ply, once, and the run completes', async () => {
  await cachedWalk(FIXTURE_DIR, { kind: '360', seconds: 6, width: 640, height: 320, fps: 15, threads: 2 });
  const owner = await createUser();
  const p = await newProject(owner);
  const visit = (await api().post('/api/visits').set(owner.auth).send({ id_project: p.id, name: 'Walk', date: '2026-03-02' })).body.data;
  const copy = path.join(config.dataDir, 'tmp', `crash-${Date.now()}.mp4`);
  await fsp.mkdir(path.dirname(copy), { recursive: true });
  await fsp.copyFile(path.join(FIXTURE_DIR, 'walk.mp4'), copy);
  const v = await acceptVideoUpload(owner.user, visit.id, { filepath: copy, size: (await fsp.stat(copy)).size, originalFilename: 'walk.mp4', mimetype: 'video/mp4' });

  const completions: string[] = [];
  const events = new QueueEvents('reconstruction', { connection: createRedis({ maxRetriesPerRequest: null }), prefix: bullPrefix() });
  events.on('completed', ({ jobId }) => completions.push(jobId));
  await events.waitUntilReady();
  try {
    // This process processes; the child (a machine kept for COLMAP) reconstructs.
    running.push(startWorkers(handlers, { queues: ['video'] }));
    child = runTs('workers/test/fixtures/video-crash-worker.ts', TIMINGS);
    await child.line(/^READY$/m);
    await startProcessing(owner.user, v.id);

    // Killed once COLMAP is well under way.
    await waitFor(async () => {
      const r = await readRun(v.id);
      return r?.steps['generate-ply']?.status === 'active' && r.steps['generate-ply'].percent >= 5 ? r : null;
    }, 'generate-ply to be under way', 15 * 60_000);
    killTree(child.proc.pid!);
    expect((await child.exited).signal).toBe('SIGKILL');
    child = null;

    running.push(startWorkers(handlers, { queues: ['reconstruction'], lockMs: 30_000, stalledMs: 300 }));
    const run = await waitFor(async () => {
      const r = await readRun(v.id);
      return r && ['needs_projection', 'failed'].includes(r.status) ? r : null;
    }, 'the run to finish generate-ply', 30 * 60_000);
    expect(run.error).toBeNull();
    expect(run.status).toBe('needs_projection');
    // Taken twice (the killed attempt and the rescue), completed once.
    expect(run.steps['generate-ply']).toMatchObject({ status: 'done', attempts: 2 });
    expect(run.artifacts.clusters!.length).toBeGreaterThanOrEqual(1);
    await waitFor(() => completions.length >= 1, 'the completed event');
    expect(completions).toHaveLength(1);
    const jobs = (await queue('reconstruction').getJobs(['completed', 'failed', 'waiting', 'active', 'delayed'])).filter((j) => j && j.data.id_video === v.id);
    expect(jobs).toHaveLength(1);
    expect(await jobs[0].getState()).toBe('completed');
  } finally {
    await events.close();
  }
}, 45 * 60_000);
