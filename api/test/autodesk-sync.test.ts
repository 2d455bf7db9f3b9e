import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import type { AdskSyncRun, ClientToServerEvents, JobProgressEvent, ServerToClientEvents } from '@sitewalk/proto';
import { closeDb, db } from '@sitewalk/core/db';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis } from '@sitewalk/core/redis.js';
import { createApp } from '../src/app.js';
import { attachRealtime } from '../src/realtime/index.js';
import type { Job } from 'bullmq';
import type { JobOf } from '@sitewalk/proto';
import { handlers } from '../../workers/src/jobs/index.js';
import { adskSync } from '../../workers/src/jobs/adsk-sync.js';
import { startWorkers, type RunningWorkers } from '../../workers/src/runner.js';
import { useOwnRedisPrefix, waitFor } from '../../workers/test/helpers.js';
import type { AdskStandIn } from '../../test/support/adsk-stand-in.js';
import { api, createUser, type TestUser } from './helpers.js';
import { lockSettings, type SettingsLock } from './settings-lock.js';
import { connect, enableAdsk, pdf, startStandIn } from './autodesk-helpers.js';

useOwnRedisPrefix('adsk-sync');

let settings: SettingsLock;
let standIn: AdskStandIn;
let workers: RunningWorkers;

beforeAll(async () => {
  settings = await lockSettings();
  standIn = await startStandIn();
  await enableAdsk(settings);
  workers = startWorkers(handlers, { queues: ['design-cloud', 'sheets', 'notifications'] });
});
afterAll(async () => {
  await workers?.close();
  await settings?.release();
  await standIn?.close();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

const enc = encodeURIComponent;

async function acme(u: TestUser) {
  const hub = (await api().get('/api/autodesk/hubs').set(u.auth)).body.data.find((h: { name: string }) => h.name === 'Acme Construction');
  const projects = (await api().get(`/api/autodesk/hubs/${enc(hub.id)}/projects?exclude_existing=false`).set(u.auth)).body.data;
  return { hub, projects: Object.fromEntries(projects.map((p: { name: string; id: string }) => [p.name, p])) as Record<string, { id: string }> };
}

/** Waits for the run to end and returns it. */
async function finished(u: TestUser, runId: number, timeoutMs = 90_000): Promise<AdskSyncRun> {
  return waitFor(async () => {
    const r = (await api().get(`/api/autodesk/sync-runs/${runId}`).set(u.auth)).body.data as AdskSyncRun;
    return r.status === 'completed' || r.status === 'failed' ? r : null;
  }, `sync run ${runId}`, timeoutMs);
}

/** Waits until every PDF of the project is turned into sheets. */
async function sheetsSettled(projectId: number) {
  await waitFor(async () => {
    const open = await db()('pdf_uploads').where({ id_project: projectId }).whereIn('status', ['queued', 'processing']).count<{ count: string }[]>('* as count');
    return Number(open[0].count) === 0;
  }, 'the sheets', 120_000);
}

const counts = async (projectIds: number[]) => ({
  projects: projectIds.length,
  uploads: Number((await db()('pdf_uploads').whereIn('id_project', projectIds).count<{ c: string }[]>('* as c'))[0].c),
  sheets: Number((await db()('maps').whereIn('id_project', projectIds).count<{ c: string }[]>('* as c'))[0].c),
  imports: Number((await db()('adsk_imports').whereIn('id_project', projectIds).count<{ c: string }[]>('* as c'))[0].c),
});

describe('sync a project', () => {
  it('brings PDFs and 2D views in as sheets; a second sync adds nothing, a new version is brought alone', async () => {
    const u = await createUser();
    await connect(u);
    const { hub, projects } = await acme(u);
    const start = await api().post('/api/autodesk/sync-project').set(u.auth).send({ adsk_project_id: projects['Tower A'].id, hub_id: hub.id });
    expect(start.status).toBe(202);
    expect(start.body.data.status).toBe('queued');
    const run = await finished(u, start.body.data.id);
    expect(run.status, run.error ?? '').toBe('completed');
    expect(run.project_ids.length).toBe(1);
    expect(run.files_imported).toBe(3); // one PDF, two views of the model
    const projectId = run.project_ids[0];
    const project = await db()('projects').where({ id: projectId }).first();
    expect(project.name).toBe('Tower A');
    expect(project.id_owner).toBe(u.user.id);
    await sheetsSettled(projectId);
    // 2 pages of the PDF, 1 page per view.
    expect(await counts([projectId])).toEqual({ projects: 1, uploads: 3, sheets: 4, imports: 3 });
    const names = (await db()('maps').where({ id_project: projectId, status: 'ready' }).select('name')).length;
    expect(names).toBe(4);

    // The project is now hidden from "not yet brought in".
    const left = (await api().get(`/api/autodesk/hubs/${enc(hub.id)}/projects`).set(u.auth)).body.data.map((p: { name: string }) => p.name);
    expect(left).not.toContain('Tower A');

    const again = await api().post('/api/autodesk/sync-project').set(u.auth).send({ adsk_project_id: projects['Tower A'].id });
    const second = await finished(u, again.body.data.id);
    expect(second.status).toBe('completed');
    expect(second.project_ids).toEqual([projectId]);
    expect(second.files_imported).toBe(0);
    expect(second.files_skipped).toBe(3);
    await sheetsSettled(projectId);
    expect(await counts([projectId])).toEqual({ projects: 1, uploads: 3, sheets: 4, imports: 3 });

    standIn.addVersion('A-101 Plans.pdf', await pdf(1));
    const third = await finished(u, (await api().post('/api/autodesk/sync-project').set(u.auth).send({ adsk_project_id: projects['Tower A'].id })).body.data.id);
    expect(third.files_imported).toBe(1);
    await sheetsSettled(projectId);
    expect(await counts([projectId])).toEqual({ projects: 1, uploads: 4, sheets: 5, imports: 4 });
  });

  it('brings a project into a chosen SiteWalk project, and refuses one the user may not change', async () => {
    const u = await createUser();
    const other = await createUser();
    await connect(u);
    const { projects } = await acme(u);
    const mine = (await api().post('/api/projects').set(u.auth).send({ name: 'Existing site' })).body.data.id;
    const theirs = (await api().post('/api/projects').set(other.auth).send({ name: 'Not yours' })).body.data.id;
    const refused = await api().post('/api/autodesk/sync-project').set(u.auth).send({ project_id: theirs, adsk_project_id: projects['Tower C'].id });
    expect(refused.status).toBe(404);
    const res = await api().post('/api/autodesk/sync-project').set(u.auth).send({ project_id: mine, adsk_project_id: projects['Tower C'].id });
    expect(res.status).toBe(202);
    const run = await finished(u, res.body.data.id);
    expect(run.status).toBe('completed');
    expect(run.project_ids).toEqual([mine]);
    // Someone else cannot read the run.
    expect((await api().get(`/api/autodesk/sync-runs/${run.id}`).set(other.auth)).status).toBe(404);
  });

  it('checks its input and needs a link', async () => {
    const u = await createUser();
    expect((await api().post('/api/autodesk/sync-project').set(u.auth).send({})).status).toBe(400);
    expect((await api().post('/api/autodesk/sync-hub').set(u.auth).send({ hub_id: 'a/b' })).status).toBe(400);
    const res = await api().post('/api/autodesk/sync-hub').set(u.auth).send({ hub_id: 'b.hub' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Your account is not connected to Autodesk. Connect it from your profile first.');
  });
});

/** BullMQ's job as the handler sees it, for playing attempts one by one. */
const attempt = (runId: number, attemptsMade: number) =>
  ({ id: `adsk-sync-${runId}`, name: 'adsk.sync', data: { run_id: runId }, opts: { attempts: 5 }, attemptsMade, updateProgress: async () => undefined }) as unknown as Job<JobOf<'adsk.sync'>>;

describe('resuming', () => {
  it('an attempt cut off half-way is resumed by the retry: what was brought in is not brought again', async () => {
    const u = await createUser();
    await connect(u);
    const { hub, projects } = await acme(u);
    // The run as POST /autodesk/sync-project records it; its attempts are played here (the queue never sees it).
    const [run] = await db()('adsk_sync_runs')
      .insert({ id_user: u.user.id, kind: 'project', hub_id: hub.id, adsk_project_id: projects['Tower B'].id, status: 'queued' })
      .returning('*');
    standIn.failDownloads(1, 1); // the first PDF comes, the second download breaks
    await expect(adskSync({ run_id: run.id }, attempt(run.id, 0))).rejects.toThrow(/Autodesk answered with an error \(503\)/);
    const halfway = (await api().get(`/api/autodesk/sync-runs/${run.id}`).set(u.auth)).body.data as AdskSyncRun;
    expect(halfway.status).toBe('running');
    expect(halfway.files_imported).toBe(1);
    expect(halfway.message).toMatch(/Trying again shortly/);
    const projectId = halfway.project_ids[0];
    expect((await counts([projectId])).imports).toBe(1);

    const result = await adskSync({ run_id: run.id }, attempt(run.id, 1));
    expect(result).toMatchObject({ status: 'done', project_ids: [projectId], imported: 2, skipped: 1 });
    const done = (await api().get(`/api/autodesk/sync-runs/${run.id}`).set(u.auth)).body.data as AdskSyncRun;
    expect(done.status).toBe('completed');
    await sheetsSettled(projectId);
    expect(await counts([projectId])).toEqual({ projects: 1, uploads: 3, sheets: 3, imports: 3 });
    // A finished run handed again (a duplicate delivery) does nothing.
    expect((await adskSync({ run_id: run.id }, attempt(run.id, 2))).status).toBe('skipped');
  });
});

describe('a lost job', () => {
  it('a run whose job is gone is marked failed and does not stand in for the next sync', async () => {
    const u = await createUser();
    await connect(u);
    const { hub } = await acme(u);
    // A run left "running" by a job Redis no longer has (its worker died for good).
    const [lost] = await db()('adsk_sync_runs').insert({ id_user: u.user.id, kind: 'hub', hub_id: hub.id, status: 'running', percent: 40, updated_at: new Date(Date.now() - 5 * 60_000) }).returning('*');
    const list = (await api().get('/api/autodesk/sync-runs').set(u.auth)).body.data as AdskSyncRun[];
    expect(list.find((r) => r.id === lost.id)).toMatchObject({ status: 'failed', error: 'The sync stopped unexpectedly. Start it again: what was already brought in is kept.' });
    const res = await api().post('/api/autodesk/sync-hub').set(u.auth).send({ hub_id: hub.id });
    expect(res.status).toBe(202);
    expect(res.body.data.id).not.toBe(lost.id);
    expect((await finished(u, res.body.data.id, 120_000)).status).toBe('completed');
  });
});

describe('sync a hub', () => {
  it('survives a storm of 429s, reports progress live, and a rerun never duplicates projects or sheets', async () => {
    const u = await createUser();
    await connect(u);
    const { hub } = await acme(u);

    // Live progress over Socket.IO, as the browser gets it.
    const server = http.createServer(createApp({ serveClient: false }).callback());
    attachRealtime(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connectSocket(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {
      path: '/socket.io',
      auth: { token: u.token },
      transports: ['websocket'],
    });
    const events: JobProgressEvent[] = [];
    socket.on('job:progress', (e) => events.push(e));
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', () => resolve());
      socket.on('connect_error', reject);
    });

    try {
      const throttledBefore = standIn.events.filter((e) => e.status === 429).length;
      standIn.throttle(4, 1);
      const res = await api().post('/api/autodesk/sync-hub').set(u.auth).send({ hub_id: hub.id });
      expect(res.status).toBe(202);
      // Asking twice while it runs answers the same run.
      const twice = await api().post('/api/autodesk/sync-hub').set(u.auth).send({ hub_id: hub.id });
      expect(twice.body.data.id).toBe(res.body.data.id);
      const run = await finished(u, res.body.data.id, 120_000);
      expect(run.status, run.error ?? '').toBe('completed');
      expect(standIn.events.filter((e) => e.status === 429).length).toBe(throttledBefore + 4);
      expect(run.project_ids.length).toBe(3);
      expect(run.files_imported).toBe(3 + 3); // Tower A: a PDF and two views; Tower B: three PDFs (newest versions)
      for (const id of run.project_ids) await sheetsSettled(id);
      const first = await counts(run.project_ids);

      await waitFor(() => events.some((e) => e.subject.kind === 'adsk-sync' && e.subject.id === run.id && e.state === 'completed'), 'the completed event');
      const percents = events.filter((e) => e.subject.id === run.id && e.job === 'adsk.sync').map((e) => e.percent);
      expect(percents.length).toBeGreaterThan(3);
      expect(percents.at(-1)).toBe(100);

      const rerun = await finished(u, (await api().post('/api/autodesk/sync-hub').set(u.auth).send({ hub_id: hub.id })).body.data.id, 120_000);
      expect(rerun.status).toBe('completed');
      expect([...rerun.project_ids].sort()).toEqual([...run.project_ids].sort());
      expect(rerun.files_imported).toBe(0);
      for (const id of run.project_ids) await sheetsSettled(id);
      expect(await counts(rerun.project_ids)).toEqual(first);
      const owned = await db()('adsk_project_links').where({ id_user: u.user.id }).count<{ c: string }[]>('* as c');
      expect(Number(owned[0].c)).toBe(3);
    } finally {
      socket.close();
      await new Promise((r) => server.close(r));
    }
  });
});
