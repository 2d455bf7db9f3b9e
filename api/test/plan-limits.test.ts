import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_BYTES_PER_MB, PLAN_LIMIT_STATUS, type PlanInfo, type VisitDetail } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { localPath } from '@sitewalk/core/storage';
import { projectFolder } from '@sitewalk/core/services/sheets.service.js';
import { planPdf, PAPER } from '../../workers/test/pdf-fixtures.js';
import { api, createUser, uniqueName, type TestUser } from './helpers.js';
import { addMember, newProject } from './project-helpers.js';

/*
 * Plan limits through the API: each limit allows up to it and refuses past
 * it with 403 and a readable reason, leaves no file behind when it refuses,
 * and counts only the plan's own people.
 */

let dir: string;
let video40: string;
let video15: string;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sitewalk-plan-limits-'));
  video40 = path.join(dir, 'walk40.mp4');
  video15 = path.join(dir, 'walk15.mp4');
  const make = (seconds: number, out: string) =>
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=128x64:rate=2', '-t', String(seconds), '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', out]);
  make(40, video40);
  make(15, video15);
});

afterAll(async () => {
  await closeQueues();
  await closeEmitter();
  await fsp.rm(dir, { recursive: true, force: true });
});

type Limits = { max_projects?: number | null; max_storage_mb?: number | null; max_video_minutes?: number | null };

async function planFor(admin: TestUser, owner: TestUser, limits: Limits, expires_at = '2099-12-31') {
  const plan = await api().post('/api/plans').set(admin.auth).send({ name: uniqueName('Plan'), price: 10, period: 'month', member_slots: 3, ...limits });
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  const sub = await api().post(`/api/plans/${plan.body.data.id}/subscriptions`).set(admin.auth).send({ user: owner.user.username, expires_at });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  return { id: plan.body.data.id as number, name: plan.body.data.name as string, subscription: sub.body.data.id as number };
}

async function joinPlan(owner: TestUser, member: TestUser) {
  const res = await api().post('/api/plan-members/invite').set(owner.auth).send({ email: member.user.email });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const accepted = await api().post(`/api/plan-members/${res.body.data.id}/accept`).set(member.auth);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
}

const planInfo = async (u: TestUser): Promise<PlanInfo> => (await api().get(`/api/users/${u.user.id}/profile`).set(u.auth)).body.data.plan_info;

/** Random pixels compress badly, so the PNG's size is close to width × height × 3. */
const noisePng = (width: number, height: number) => sharp(Buffer.from(Array.from({ length: width * height * 3 }, () => Math.floor(Math.random() * 256))), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
const pano = (width = 1024) => sharp({ create: { width, height: width / 2, channels: 3, background: { r: 120, g: 170, b: 220 } } }).jpeg({ quality: 70 }).toBuffer();

async function newVisit(owner: TestUser, projectId: number): Promise<VisitDetail> {
  const res = await api().post('/api/visits').set(owner.auth).send({ id_project: projectId, name: 'Walk', date: '2026-03-02' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const snagFile = (u: TestUser, visitId: number, file: Buffer) => api().post('/api/annotations/file').set(u.auth).field('id_visit', String(visitId)).attach('file', file, 'photo.png');
const videoUpload = (u: TestUser, visitId: number, file: string) => api().post(`/api/visits/${visitId}/video`).set(u.auth).attach('file', file, path.basename(file));

/** Every stored file of a project (what a refused upload must not add to). */
const storedFiles = (projectId: number): string[] => {
  const root = localPath(projectFolder(projectId));
  return fs.existsSync(root) ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(root, f)).isFile()).sort() : [];
};

describe('plan limits', () => {
  it('counts the projects of the plan owner and its members together, and nobody else’s', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const member = await createUser();
    const other = await createUser();
    const noPlan = await createUser();
    const plan = await planFor(admin, owner, { max_projects: 2 });
    await joinPlan(owner, member);
    await planFor(admin, other, { max_projects: 1 });
    await newProject(other);
    for (let i = 0; i < 3; i++) await newProject(noPlan);

    const first = await newProject(owner);
    await newProject(member);
    expect((await planInfo(owner)).usage).toEqual({ projects: 2, storage_bytes: 0, video_seconds: 0 });

    for (const who of [owner, member]) {
      const refused = await api().post('/api/projects').set(who.auth).send({ name: 'One too many' });
      expect(refused.status).toBe(PLAN_LIMIT_STATUS);
      expect(refused.body.message).toBe(`Your plan "${plan.name}" allows 2 project(s) and 2 already exist. Delete a project or ask for a larger plan.`);
      // The figures of the message, for the client to say it in the reader's language.
      expect(refused.body.data).toEqual({ plan_limit: { kind: 'projects', whose: 'ours', vars: { plan: plan.name, limit: 2, used: 2 } } });
    }
    expect(await db()('projects').whereIn('id_owner', [owner.user.id, member.user.id]).count<{ n: number }[]>({ n: '*' }).first().then((r) => Number(r?.n))).toBe(2);
    // Without a plan there is no limit; a super admin is never refused.
    expect((await api().post('/api/projects').set(noPlan.auth).send({ name: 'Fourth' })).status).toBe(201);

    await api().delete(`/api/projects/${first.id}`).set(owner.auth).expect(200);
    expect((await api().post('/api/projects').set(owner.auth).send({ name: 'Fits again' })).status).toBe(201);
    expect((await planInfo(member)).usage.projects).toBe(2);
  });

  it('allows uploads up to the storage limit, refuses past it leaving no file, and counts uploads by others into the owner’s projects', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const editor = await createUser();
    const other = await createUser();
    const plan = await planFor(admin, owner, { max_storage_mb: 1 });
    await planFor(admin, other, { max_storage_mb: 1 });
    const p = await newProject(owner);
    await addMember(p.id, editor, 'editor', { upload: true, manage_snags: true });
    const visit = await newVisit(owner, p.id);

    const big = await noisePng(420, 420);
    expect(big.length).toBeGreaterThan(0.5 * PLAN_BYTES_PER_MB);
    const first = await snagFile(editor, visit.id, big);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await planInfo(owner)).usage.storage_bytes).toBe(big.length);

    const before = storedFiles(p.id);
    const refused = await snagFile(editor, visit.id, big);
    expect(refused.status).toBe(PLAN_LIMIT_STATUS);
    expect(refused.body.message).toMatch(new RegExp(`^This file needs 0\\.\\d MB, but the plan "${plan.name}" of this project's owner has only 0\\.\\d MB left of its 1 MB of storage\\. Delete files or ask the project owner for a larger plan\\.$`));
    expect(storedFiles(p.id)).toEqual(before);
    expect(Number((await db()('annotation_files').where({ id_visit: visit.id }).count<{ n: number }[]>({ n: '*' }).first())?.n)).toBe(1);

    // What is left still takes a smaller file: just under the limit.
    const small = await noisePng(200, 200);
    expect(big.length + small.length).toBeLessThan(PLAN_BYTES_PER_MB);
    expect((await snagFile(owner, visit.id, small)).status).toBe(201);
    expect((await planInfo(owner)).usage.storage_bytes).toBe(big.length + small.length);

    // Another plan's usage is its own: the same big file fits there.
    const otherProject = await newProject(other);
    const otherVisit = await newVisit(other, otherProject.id);
    expect((await snagFile(other, otherVisit.id, big)).status).toBe(201);
    // A super admin is never refused.
    expect((await snagFile(admin, visit.id, big)).status).toBe(201);
  });

  it('refuses every kind of upload (PDF, 360 photo, cover, snag and point-of-interest file, video) when the plan has no room, storing nothing', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const roomy = await planFor(admin, owner, { max_storage_mb: null });
    const p = await newProject(owner);
    const visit = await newVisit(owner, p.id);
    const room = await api().post('/api/rooms').set(owner.auth).field('id_visit', String(visit.id)).attach('file', await pano(), 'Lobby.jpg');
    expect(room.status, JSON.stringify(room.body)).toBe(202);
    const poi = await api().post('/api/pois').set(owner.auth).send({ id_room: room.body.data.id, title: 'Crack', yaw: 0, pitch: 0 });
    expect(poi.status, JSON.stringify(poi.body)).toBe(201);

    // The same subscription moves to a plan with no storage at all.
    const none = await api().post('/api/plans').set(admin.auth).send({ name: uniqueName('Empty'), price: 0, period: 'month', member_slots: 0, max_storage_mb: 0 });
    await api().put(`/api/plan-subscriptions/${roomy.subscription}`).set(admin.auth).send({ id_plan: none.body.data.id }).expect(200);
    const before = storedFiles(p.id);
    // This project's rows only: other test files add rooms and uploads of their own meanwhile.
    const rowsOfProject = () =>
      Promise.all(
        [db()('pdf_uploads').where({ id_project: p.id }), db()('rooms').where({ id_visit: visit.id }), db()('videos').where({ id_visit: visit.id }), db()('annotation_files').where({ id_visit: visit.id })].map((q) =>
          q.count<{ n: number }[]>({ n: '*' }).first(),
        ),
      );
    const rowsBefore = await rowsOfProject();

    const attempts = {
      pdf: await api().post(`/api/projects/${p.id}/pdf-sheet`).set(owner.auth).attach('file', await planPdf([{ size: PAPER.A6 }]), 'plans.pdf'),
      room: await api().post('/api/rooms').set(owner.auth).field('id_visit', String(visit.id)).attach('file', await pano(), 'Stairs.jpg'),
      cover: await api().post(`/api/projects/${p.id}/cover`).set(owner.auth).attach('file', await pano(400), 'cover.jpg'),
      snag: await snagFile(owner, visit.id, await noisePng(20, 20)),
      poi: await api().post(`/api/pois/${poi.body.data.id}/file`).set(owner.auth).attach('file', await noisePng(20, 20), 'crack.png'),
      video: await videoUpload(owner, visit.id, video15),
    };
    for (const [kind, res] of Object.entries(attempts)) {
      expect(res.status, `${kind}: ${JSON.stringify(res.body)}`).toBe(PLAN_LIMIT_STATUS);
      expect(res.body.message, kind).toMatch(/^This file needs .* MB, but your plan ".*" has only 0\.0 MB left of its 0 MB of storage\. Delete files or ask for a larger plan\.$/);
    }
    expect(storedFiles(p.id)).toEqual(before);
    const rowsAfter = await rowsOfProject();
    expect(rowsAfter).toEqual(rowsBefore);
    expect((await db()('pois').where({ id: poi.body.data.id }).first('file_key')).file_key).toBeNull();
    expect((await db()('projects').where({ id: p.id }).first('cover')).cover).toBeNull();
    // Freeing space is never refused.
    expect((await api().delete(`/api/rooms/${room.body.data.id}`).set(owner.auth)).status).toBe(200);
  });

  it('counts video minutes: a video that would pass the limit is refused, a replacement counts only the difference', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const plan = await planFor(admin, owner, { max_video_minutes: 1 });
    const p = await newProject(owner);
    const [a, b, c] = [await newVisit(owner, p.id), await newVisit(owner, p.id), await newVisit(owner, p.id)];
    // Someone of another plan already uses 40 s of their own minute: it is not counted here.
    const other = await createUser();
    await planFor(admin, other, { max_video_minutes: 1 });
    const otherProject = await newProject(other);
    expect((await videoUpload(other, (await newVisit(other, otherProject.id)).id, video40)).status).toBe(201);

    expect((await videoUpload(owner, a.id, video40)).status).toBe(201);
    const usage = (await planInfo(owner)).usage;
    expect(usage.video_seconds).toBeGreaterThan(39);
    expect(usage.video_seconds).toBeLessThanOrEqual(41);

    const before = storedFiles(p.id);
    const refused = await videoUpload(owner, b.id, video40);
    expect(refused.status).toBe(PLAN_LIMIT_STATUS);
    expect(refused.body.message).toMatch(new RegExp(`^This video lasts 40 s, but your plan "${plan.name}" has only (19|20) s of video left of its 1 min\\. Delete a video or ask for a larger plan\\.$`));
    expect(storedFiles(p.id)).toEqual(before);
    expect(await db()('videos').where({ id_visit: b.id }).first('id')).toBeUndefined();

    // Replacing visit a's video with one as long counts nothing new; a short one still fits beside it.
    expect((await videoUpload(owner, a.id, video40)).status).toBe(201);
    expect((await videoUpload(owner, c.id, video15)).status).toBe(201);
    expect((await planInfo(owner)).usage.video_seconds).toBeLessThanOrEqual(60);
  });

  it('adds nothing to an expired plan, and counts again once it is renewed', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const plan = await planFor(admin, owner, { max_projects: 5 }, '2020-01-31');
    expect((await planInfo(owner)).expired).toBe(true);
    const refused = await api().post('/api/projects').set(owner.auth).send({ name: 'After expiry' });
    expect(refused.status).toBe(PLAN_LIMIT_STATUS);
    expect(refused.body.message).toBe(`Your plan "${plan.name}" expired on 2020-01-31. Nothing new can be added until it is renewed; everything already stored stays available.`);
    await api().put(`/api/plan-subscriptions/${plan.subscription}`).set(admin.auth).send({ expires_at: '2099-01-31' }).expect(200);
    expect((await api().post('/api/projects').set(owner.auth).send({ name: 'Renewed' })).status).toBe(201);
  });

  it('refuses handing a project over to someone whose plan has no room for it, and allows it once there is room', async () => {
    const admin = await createUser({ super_admin: true });
    const giver = await createUser();
    const taker = await createUser();
    const plan = await planFor(admin, taker, { max_projects: 1, max_storage_mb: 1 });
    const own = await newProject(taker);
    const p = await newProject(giver);
    await addMember(p.id, taker, 'editor');
    const visit = await newVisit(giver, p.id);
    const file = await noisePng(200, 200);
    expect((await snagFile(giver, visit.id, file)).status).toBe(201);
    const handOver = () => api().post('/api/team-members/transfer-ownership').set(giver.auth).send({ id_project: p.id, id_user: taker.user.id });

    const refused = await handOver();
    expect(refused.status).toBe(PLAN_LIMIT_STATUS);
    expect(refused.body.message).toBe(`The plan "${plan.name}" of the new owner allows 1 project(s) and 1 already exist, so it has no room for this project.`);
    expect(refused.body.data.plan_limit).toMatchObject({ kind: 'projects', whose: 'new_owner' });
    expect((await db()('projects').where({ id: p.id }).first('id_owner')).id_owner).toBe(giver.user.id);

    await api().delete(`/api/projects/${own.id}`).set(taker.auth).expect(200);
    const moved = await handOver();
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await planInfo(taker)).usage).toMatchObject({ projects: 1, storage_bytes: file.length });
  });
});
