import { execFileSync } from 'node:child_process';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { LIVE_WAIT_MS, connected } from '../../test/support/socket-connected.js';
import type { ClientToServerEvents, JobProgressEvent, ServerToClientEvents, VideoDetail, VideoProgressDetail } from '@sitewalk/proto';
import { createApp } from '../src/app.js';
import { closeDb } from '@sitewalk/core/db';
import { closeQueues } from '@sitewalk/core/queue';
import { attachRealtime } from '../src/realtime/gateway.js';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { closeRedis } from '@sitewalk/core/redis.js';
import { canAccessProject } from '@sitewalk/core/services/access.service.js';
import { moveRun } from '@sitewalk/core/services/video-run.service.js';
import { useOwnRedisPrefix, waitFor } from '../../workers/test/helpers.js';
import { api, createUser } from './helpers.js';
import { addMember, newProject } from './project-helpers.js';

useOwnRedisPrefix('video-events');

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
let url: string;
let closeRealtime: () => Promise<void>;
let dir: string;
const clients: Client[] = [];

beforeAll(async () => {
  const server = http.createServer(createApp({ serveClient: false }).callback());
  const realtime = attachRealtime(server, { canJoinProject: canAccessProject });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeRealtime = realtime.close;
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sitewalk-video-events-'));
});

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await closeRealtime?.();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
  await fsp.rm(dir, { recursive: true, force: true });
});

async function socketOf(token: string): Promise<{ c: Client; got: JobProgressEvent[] }> {
  const c: Client = connect(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  clients.push(c);
  const got: JobProgressEvent[] = [];
  c.on('job:progress', (e) => got.push(e));
  await connected(c);
  return { c, got };
}

it('every move of a run reaches the owner and the project room as job:progress, with the run state in detail', async () => {
  const owner = await createUser();
  const member = await createUser();
  const project = await newProject(owner);
  await addMember(project.id, member, 'viewer');
  const visit = (await api().post('/api/visits').set(owner.auth).send({ id_project: project.id, name: 'Walk', date: '2026-03-02' })).body.data;
  const file = path.join(dir, 'walk.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=256x128:rate=10', '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', file]);
  const v = (await api().post(`/api/visits/${visit.id}/video`).set(owner.auth).attach('file', file)).body.data as VideoDetail;

  const mine = await socketOf(owner.token);
  const watcher = await socketOf(member.token);
  expect(await watcher.c.timeout(LIVE_WAIT_MS).emitWithAck('project:join', project.id)).toBe(true);

  await api().post('/api/python/videos/process').set(owner.auth).send({ video_id: v.id });
  await moveRun(v.id, 1, { type: 'active', step: 'process' });
  await moveRun(v.id, 1, { type: 'progress', step: 'process', percent: 40, message: 'Finding where the camera moved' });
  await moveRun(v.id, 1, { type: 'failed', step: 'process', reason: 'The camera hardly moves in this video.' });

  for (const { got } of [mine, watcher]) {
    await waitFor(() => got.some((e) => e.state === 'failed'), 'the failed event');
    const ours = got.filter((e) => e.subject.kind === 'video' && e.subject.id === v.id);
    expect(ours.map((e) => [e.job, e.state, e.percent])).toEqual([
      ['video.process', 'queued', 0],
      ['video.process', 'active', 0],
      ['video.process', 'active', 40],
      ['video.process', 'failed', 40],
    ]);
    expect(ours[3]).toMatchObject({ project_id: project.id, message: 'The camera hardly moves in this video.' });
    expect(ours[3].detail as unknown as VideoProgressDetail).toMatchObject({ id_visit: visit.id, id_video: v.id, step: 'process', generation: 1, status: 'failed' });
  }
});
