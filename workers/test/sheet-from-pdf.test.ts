import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import { io as connect, type Socket } from 'socket.io-client';
import { LIVE_WAIT_MS, connected } from '../../test/support/socket-connected.js';
import { SHEET_RENDERING, withoutIsolates, type ClientToServerEvents, type JobOf, type JobProgressEvent, type SheetDetail, type PdfUpload as PdfUploadDto, type ServerToClientEvents } from '@sitewalk/proto';
import { Notification, PdfUpload, Sheet, closeDb, db } from '@sitewalk/core/db';
import { closeQueues, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { attachRealtime } from '../../api/src/realtime/index.js';
import { closeRedis } from '@sitewalk/core/redis.js';
import { putBuffer, remove } from '@sitewalk/core/storage';
import { isStored, storedNames } from '../../test/support/stored.js';
import { createApp } from '../../api/src/app.js';
import { canAccessProject } from '@sitewalk/core/services/access.service.js';
import { api, createUser, type TestUser } from '../../api/test/helpers.js';
import { addMember, newProject } from '../../api/test/project-helpers.js';
import { handlers } from '../src/jobs/index.js';
import { PAGES_IN_FLIGHT_PIXELS, laneCount, pagePixels, sheetFromPdf } from '../src/jobs/sheet-from-pdf.js';
import { dpiFor } from '../src/adapters/pdf-render.js';
import { startWorkers, type RunningWorkers } from '../src/runner.js';
import { settled, useOwnRedisPrefix, waitFor } from './helpers.js';
import { PAPER, emptyPdf, encryptedPdf, planPdf, truncated } from './pdf-fixtures.js';

useOwnRedisPrefix('sheet-from-pdf');

let workers: RunningWorkers;
beforeAll(() => {
  // Sheets, and the notifications they send; mail jobs stay queued.
  workers = startWorkers(handlers, { queues: ['sheets', 'notifications'] });
});
afterAll(async () => {
  await workers?.close();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

async function upload(owner: TestUser, projectId: number, pdf: Buffer, name = 'plans.pdf'): Promise<PdfUploadDto> {
  const res = await api().post(`/api/projects/${projectId}/pdf-sheet`).set(owner.auth).attach('file', pdf, name);
  expect(res.status).toBe(202);
  return res.body.data;
}

/** Waits for the upload's job to finish and returns its state and the upload row. */
/** How long a PDF job may take before it counts as hung: a guard, not a measure (a busy machine drew a 36 MP page in minutes). */
const JOB_WAIT_MS = 240_000;

async function finished(uploadId: number) {
  const job = await waitFor(() => queue('sheets').getJob(`pdf-upload-${uploadId}`), 'the PDF job');
  const { state } = await settled(job, JOB_WAIT_MS);
  return { state, upload: (await PdfUpload.query().findById(uploadId))! };
}

/** A stand-in for BullMQ's job when a test calls the handler directly (a rerun, a retry). */
function fakeJob(uploadId: number, attemptsMade = 0, attempts = 3): Job<JobOf<'sheet.from-pdf'>> {
  return {
    id: `pdf-upload-${uploadId}`,
    name: 'sheet.from-pdf',
    data: { upload_id: uploadId },
    opts: { attempts },
    attemptsMade,
    updateProgress: async () => undefined,
  } as unknown as Job<JobOf<'sheet.from-pdf'>>;
}

const sheetsOf = (uploadId: number) => Sheet.query().where({ id_upload: uploadId }).orderBy('page');
const stored = (key: string) => isStored(key);

describe('sheet.from-pdf: a plan set becomes sheets', () => {
  // The file's first job loads pdf.js and draws a 36 MP page: on a busy machine that took minutes,
  // so this test is given its own wait for the job and a little more.
  it('makes one sheet per page, named from the page labels, at a resolution fit for large plans, with tiles and thumbnails, reporting progress live', async () => {
    const owner = await createUser();
    const editor = await createUser();
    const project = await newProject(owner, { name: 'Plans tower' });
    await addMember(project.id, editor, 'editor');

    // Live browsers: the owner watching the project's room, the editor (who uploads) only signed in.
    const server = http.createServer(createApp({ serveClient: false }).callback());
    const realtime = attachRealtime(server, { canJoinProject: canAccessProject });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const open = (token: string): Socket<ServerToClientEvents, ClientToServerEvents> =>
      connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    const socket = open(owner.token);
    const editorSocket = open(editor.token);
    const events: JobProgressEvent[] = [];
    const editorEvents: JobProgressEvent[] = [];
    socket.on('job:progress', (e) => events.push(e));
    editorSocket.on('job:progress', (e) => editorEvents.push(e));
    try {
      await Promise.all([connected(socket), connected(editorSocket)]);
      expect(await socket.timeout(LIVE_WAIT_MS).emitWithAck('project:join', project.id)).toBe(true);

      // Cover (A4), ground floor (A1 landscape), roof (A3): labels Cover, A-101, A-102.
      const pdf = await planPdf(
        [{ size: PAPER.A4 }, { size: PAPER.A1, landscape: true }, { size: PAPER.A3 }],
        [[0, { prefix: 'Cover', decimal: false }], [1, { prefix: 'A-', start: 101 }]],
      );
      const up = await upload(editor, project.id, pdf, 'Tower plans.pdf');
      expect(up).toMatchObject({ status: 'queued', original_name: 'Tower plans.pdf', pages_done: 0, sheet_ids: [], file_stored: true });

      const { state, upload: row } = await finished(up.id);
      expect(state).toBe('completed');
      expect(row).toMatchObject({ status: 'done', pages_total: 3, pages_done: 3, error: null });
      const sheets = await sheetsOf(up.id);
      expect(sheets.map((s) => [s.page, s.name, s.page_label, s.status])).toEqual([
        [1, 'Cover', 'Cover', 'ready'],
        [2, 'A-101', 'A-101', 'ready'],
        [3, 'A-102', 'A-102', 'ready'],
      ]);
      expect(row.sheet_ids).toEqual(sheets.map((s) => s.id));

      // A1 landscape is 841 × 594 mm: at 150 dpi or more it is at least 4967 × 3508 pixels, within the pixel budget.
      const a1 = sheets[1];
      expect(a1.dpi).toBeGreaterThanOrEqual(150);
      expect(a1.width).toBeGreaterThanOrEqual(4967);
      expect(a1.width!).toBeGreaterThan(a1.height!);
      expect(a1.width! * a1.height!).toBeLessThanOrEqual(36_000_000);
      // Zoom 0 holds the whole sheet in one tile; the deepest level is full resolution.
      const T = SHEET_RENDERING.tileSize;
      expect(a1.tile_size).toBe(T);
      expect(a1.max_zoom).toBe(Math.ceil(Math.log2(a1.width! / T)));

      // The sheet as the viewer loads it: signed tile URLs and thumbnail, served by the API.
      const detail: SheetDetail = (await api().get(`/api/maps/${a1.id}`).set(owner.auth)).body.data;
      expect(detail).toMatchObject({ status: 'ready', tile_size: T, min_zoom: 0, max_zoom: a1.max_zoom, width: a1.width, height: a1.height, id_upload: up.id, page: 2 });
      expect(detail.tile_url_template).toMatch(/^\/api\/files\/projects\/\d+\/maps\/\d+\/tiles\/\{z\}\/\{y\}\/\{x\}\.jpg\?exp=\d+&sig=[\w-]+&scope=folder$/);
      const tile = await api().get(detail.tile_url_template!.replace('{z}', String(a1.max_zoom)).replace('{y}', '0').replace('{x}', '0')).redirects(1);
      expect(tile.status).toBe(200);
      expect(tile.headers['content-type']).toBe('image/jpeg');
      const tileAt = (z: number, x: number, y: number) =>
        api().get(detail.tile_url_template!.replace('{z}', String(z)).replace('{y}', String(y)).replace('{x}', String(x))).redirects(1).buffer(true);
      // Every tile of every level is there, and none past the sheet's edge: level z holds the image shrunk 2^(max_zoom − z) times.
      for (let z = 0; z <= a1.max_zoom!; z++) {
        const scale = 2 ** (a1.max_zoom! - z);
        const [cols, rows] = [Math.ceil(a1.width! / scale / T), Math.ceil(a1.height! / scale / T)];
        expect((await tileAt(z, cols - 1, rows - 1)).status).toBe(200);
        expect((await tileAt(z, cols, 0)).status).toBe(404);
        expect((await tileAt(z, 0, rows)).status).toBe(404);
      }
      // The tiles line up with Leaflet's CRS.Simple: zoom 0 is one full tile with the sheet in its top-left corner,
      // as wide and as high as the sheet shrunk to that level, white beyond.
      const zoom0 = sharp((await tileAt(0, 0, 0)).body as Buffer);
      expect(await zoom0.metadata()).toMatchObject({ width: T, height: T, format: 'jpeg' });
      const [w0, h0] = [Math.ceil(a1.width! / 2 ** a1.max_zoom!), Math.ceil(a1.height! / 2 ** a1.max_zoom!)];
      const darkest = async (region: { left: number; top: number; width: number; height: number }) =>
        Math.min(...(await sharp(await zoom0.clone().extract(region).png().toBuffer()).stats()).channels.map((c) => c.min));
      expect(await darkest({ left: 0, top: 0, width: w0, height: h0 })).toBeLessThan(160); // the plan's lines
      expect(await darkest({ left: w0 + 2, top: 0, width: T - w0 - 2, height: T })).toBeGreaterThan(240); // white right of it
      expect(await darkest({ left: 0, top: h0 + 2, width: T, height: T - h0 - 2 })).toBeGreaterThan(240); // and below
      // The red title block sits at the bottom right of the page: in the last 15 % of the sheet's width and height at zoom 0.
      expect(await darkest({ left: Math.floor(w0 * 0.85), top: Math.floor(h0 * 0.85), width: Math.ceil(w0 * 0.15), height: Math.ceil(h0 * 0.15) })).toBeLessThan(160);
      const thumb = await api().get(detail.thumbnail_url!).redirects(1);
      expect(thumb.status).toBe(200);
      expect(thumb.headers['content-type']).toBe('image/jpeg');
      expect((await api().get(detail.tile_url_template!.replace('{z}', '0').replace('{y}', '0').replace('{x}', '0').replace(/sig=[\w-]+/, 'sig=forged'))).status).toBe(404);

      // The project page lists the sheets with thumbnails, and the upload as done.
      const page = (await api().get(`/api/projects/${project.id}`).set(owner.auth)).body.data;
      expect(page.sheets_count).toBe(3);
      expect(page.maps.map((m: { name: string }) => m.name)).toEqual(['Cover', 'A-101', 'A-102']);
      expect(page.maps.every((m: { thumbnail_url: string | null }) => m.thumbnail_url)).toBe(true);
      expect(page.pdf_uploads[0]).toMatchObject({ id: up.id, status: 'done', pages_total: 3, sheet_ids: row.sheet_ids });

      // Live progress: page by page, in order, ending complete with the sheet ids.
      await waitFor(() => events.some((e) => e.state === 'completed'), 'the completed event');
      const mine = events.filter((e) => e.subject.id === up.id);
      expect(mine.every((e) => e.job === 'sheet.from-pdf' && e.subject.kind === 'pdf-upload' && e.project_id === project.id)).toBe(true);
      const percents = mine.map((e) => e.percent);
      expect(percents).toEqual([...percents].sort((a, b) => a - b));
      expect(mine.map((e) => e.message)).toEqual(expect.arrayContaining(['Page 1 of 3', 'Page 2 of 3 is ready', 'Page 3 of 3']));
      const last = mine.at(-1)!;
      expect(last).toMatchObject({ state: 'completed', percent: 100, detail: { pages_done: 3, pages_total: 3, sheet_ids: row.sheet_ids } });

      // The uploader's browser follows too, without having joined the project's room.
      await waitFor(() => editorEvents.some((e) => e.state === 'completed'), "the editor's completed event");
      expect(editorEvents.filter((e) => e.subject.id === up.id).map((e) => e.message)).toEqual(expect.arrayContaining(['Page 3 of 3']));

      // The owner and the uploader are told in the app.
      for (const who of [owner, editor]) {
        const note = await waitFor(() => Notification.query().findOne({ user_id: who.user.id, title: 'Sheets ready' }), 'the notification');
        expect(note).toMatchObject({ type: 'success', link: `/project/${project.id}` });
        expect(withoutIsolates(note!.message)).toBe('3 sheets from "Tower plans.pdf" are ready in "Plans tower".');
      }
    } finally {
      socket.close();
      editorSocket.close();
      await realtime.close();
      server.close();
    }
  }, JOB_WAIT_MS + 60_000);

  it('names pages without labels "Sheet N"', async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const up = await upload(owner, project.id, await planPdf([{ size: PAPER.A6 }, { size: PAPER.A6, landscape: true }]));
    expect((await finished(up.id)).state).toBe('completed');
    expect((await sheetsOf(up.id)).map((s) => s.name)).toEqual(['Sheet 1', 'Sheet 2']);
  });
});

describe('sheet.from-pdf: pages side by side, each sheet published as soon as it is cut', () => {
  it('shows each sheet the moment its pyramid exists while other pages are still being cut, several at once within the memory budget', async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const pages = 5;
    const pdf = await planPdf(Array.from({ length: pages }, () => ({ size: PAPER.A4 })));
    const lanes = laneCount(Array.from({ length: pages }, () => pagePixels({ widthPt: PAPER.A4[0], heightPt: PAPER.A4[1] }, dpiFor(PAPER.A4[0], PAPER.A4[1]))));
    // What a browser reading the project would see each time a sheet is announced.
    const seen: { ready: number[]; cutting: number; upload: PdfUploadDto['status']; listed: number[]; pagesDone: number }[] = [];
    await queue('sheets').pause();
    let uploadId: number;
    try {
      uploadId = (await upload(owner, project.id, pdf)).id;
      const job = fakeJob(uploadId, 0, 1);
      job.updateProgress = async () => {
        const rows = await sheetsOf(uploadId);
        const row = (await PdfUpload.query().findById(uploadId))!;
        seen.push({
          ready: rows.filter((r) => r.status === 'ready').map((r) => r.id),
          cutting: rows.filter((r) => r.status === 'processing').length,
          upload: row.status,
          listed: row.sheet_ids,
          pagesDone: row.pages_done,
        });
      };
      expect((await sheetFromPdf({ upload_id: uploadId }, job)).status).toBe('done');
    } finally {
      await (await queue('sheets').getJob(`pdf-upload-${uploadId!}`))?.remove();
      await queue('sheets').resume();
    }
    expect(seen).toHaveLength(pages);
    // The first sheet is ready, listed and openable while the upload is still at work on the others.
    expect(seen[0]).toMatchObject({ upload: 'processing', pagesDone: 1 });
    expect(seen[0].listed).toHaveLength(1);
    expect(seen[0].ready).toEqual(expect.arrayContaining(seen[0].listed));
    expect((await api().get(`/api/maps/${seen[0].listed[0]}`).set(owner.auth)).body.data).toMatchObject({ status: 'ready', tile_url_template: expect.any(String) });
    // Progress only moves forward, one more sheet each time.
    expect(seen.map((s) => s.pagesDone)).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
    expect(seen.map((s) => s.listed.length)).toEqual(Array.from({ length: pages }, (_, i) => i + 1));
    // Pages are cut side by side (one per core), never more at once than the budget allows.
    expect(lanes).toBe(Math.min(os.availableParallelism(), pages));
    // At each announcement: this page, the pages still being cut, and those cut but waiting for their turn to be announced.
    const mostAtOnce = Math.max(...seen.map((s) => 1 + s.cutting + s.ready.length - s.listed.length));
    expect(mostAtOnce).toBeLessThanOrEqual(lanes);
    if (lanes > 1) expect(mostAtOnce).toBeGreaterThan(1);
    expect((await sheetsOf(uploadId!)).map((s) => s.status)).toEqual(Array(pages).fill('ready'));
  });

  it('bounds the pages in flight by pixels, whatever the page count: two of the largest pages, more of small ones', () => {
    const a0 = pagePixels({ widthPt: 3370.39, heightPt: 2383.94 }, dpiFor(3370.39, 2383.94));
    expect(a0).toBeLessThanOrEqual(SHEET_RENDERING.pixelBudget);
    for (const count of [1, 10, 20, 200]) {
      expect(laneCount(Array(count).fill(a0), 16)).toBe(Math.min(count, Math.floor(PAGES_IN_FLIGHT_PIXELS / a0)));
      expect(laneCount(Array(count).fill(a0), 1)).toBe(1);
    }
    expect(laneCount(Array(20).fill(a0), 16)).toBe(2);
    const a4 = pagePixels({ widthPt: PAPER.A4[0], heightPt: PAPER.A4[1] }, dpiFor(PAPER.A4[0], PAPER.A4[1]));
    expect(laneCount(Array(20).fill(a4), 4)).toBe(4);
    expect(laneCount(Array(20).fill(a4), 64) * a4).toBeLessThanOrEqual(PAGES_IN_FLIGHT_PIXELS);
    // The largest page of a mixed set decides.
    expect(laneCount([a4, a4, a0, a4], 16)).toBe(2);
    expect(laneCount([], 4)).toBe(0);
  });
});

describe('sheet.from-pdf: files that cannot become sheets', () => {
  const A6x2 = () => planPdf([{ size: PAPER.A6 }, { size: PAPER.A6 }]);
  const cases: [string, () => Promise<Buffer>, RegExp][] = [
    ['a PDF that needs a password to open', async () => encryptedPdf(await A6x2(), 'site-secret'), /^This PDF is protected by a password\./],
    ['a PDF encrypted with only an owner password', async () => encryptedPdf(await A6x2(), ''), /^This PDF is encrypted: its author restricted/],
    // A PDF cut off in transfer no longer gets this far: the upload refuses it (api/test/projects-files.test.ts).
    ['a PDF with an absurd page size (6 m × 1 m)', () => planPdf([{ size: PAPER.A6 }, { size: [17_008, 2_835] }]), /^Page 2 is 6\.0 m × 1\.0 m\. A sheet's sides must be between 1 cm and 5 m\.$/],
    ['a PDF with no pages', () => emptyPdf(), /^This PDF has no pages\.$/],
  ];
  for (const [what, make, message] of cases) {
    it(`fails ${what} with a clear message and leaves no sheet`, async () => {
      const owner = await createUser();
      const project = await newProject(owner);
      const up = await upload(owner, project.id, await make());
      const { state, upload: row } = await finished(up.id);
      expect(state).toBe('failed');
      expect(row.status).toBe('failed');
      expect(row.error).toMatch(message);
      expect(row.sheet_ids).toEqual([]);
      expect(await sheetsOf(up.id)).toEqual([]);
      // The refused PDF itself is not kept in storage.
      expect(row.file_key).toBeNull();
      expect(await storedNames(`projects/${project.id}/pdf`)).toEqual([]);
      expect((await api().get(`/api/projects/${project.id}`).set(owner.auth)).body.data).toMatchObject({ maps: [], pdf_uploads: [{ status: 'failed', error: row.error }] });
      // Refused files are not retried: another attempt would give the same answer.
      const job = await queue('sheets').getJob(`pdf-upload-${up.id}`);
      expect(job?.attemptsMade).toBe(1);
      const note = await waitFor(() => Notification.query().findOne({ user_id: owner.user.id, title: 'PDF plan not turned into sheets' }), 'the failure notification');
      expect(note!.type).toBe('error');
      expect(note!.message).toContain(row.error!);
    });
  }
});

describe('sheet.from-pdf: reruns and retries', () => {
  it('makes no duplicate when the job runs twice, and resumes after a crash keeping the pages already made', async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const up = await upload(owner, project.id, await planPdf([{ size: PAPER.A6 }, { size: PAPER.A6 }, { size: PAPER.A6 }]));
    expect((await finished(up.id)).state).toBe('completed');
    const first = await sheetsOf(up.id);
    expect(first).toHaveLength(3);

    // The same job again (a duplicate delivery): nothing changes.
    const again = await sheetFromPdf({ upload_id: up.id }, fakeJob(up.id));
    expect(again).toMatchObject({ status: 'skipped', sheet_ids: first.map((s) => s.id) });
    expect((await sheetsOf(up.id)).map((s) => s.id)).toEqual(first.map((s) => s.id));

    // A worker died while drawing page 3: the upload says processing, page 3 is half written.
    await PdfUpload.query().patch({ status: 'processing', pages_done: 2 }).where({ id: up.id });
    await Sheet.query().patch({ status: 'processing' }).where({ id: first[2].id });
    await remove(first[2].thumbnail!);
    const resumed = await sheetFromPdf({ upload_id: up.id }, fakeJob(up.id, 1));
    expect(resumed.status).toBe('done');
    const after = await sheetsOf(up.id);
    expect(after.map((s) => [s.id, s.status])).toEqual(first.map((s) => [s.id, 'ready']));
    expect(await stored(after[2].thumbnail!)).toBe(true);
    expect(await PdfUpload.query().findById(up.id)).toMatchObject({ status: 'done', pages_done: 3, sheet_ids: first.map((s) => s.id) });
  });

  it('removes the sheets an earlier attempt made when the last attempt fails', async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const pdf = await planPdf([{ size: PAPER.A6 }, { size: PAPER.A6 }]);
    const up = await upload(owner, project.id, pdf);
    expect((await finished(up.id)).state).toBe('completed');
    const made = await sheetsOf(up.id);

    // As if the earlier attempt stopped after page 1 and the stored file was then damaged on disk.
    await PdfUpload.query().patch({ status: 'processing', pages_done: 1 }).where({ id: up.id });
    await Sheet.query().delete().where({ id: made[1].id });
    const fileKey = (await PdfUpload.query().findById(up.id))!.file_key!;
    await putBuffer(fileKey, truncated(pdf));
    await expect(sheetFromPdf({ upload_id: up.id }, fakeJob(up.id, 2, 3))).rejects.toThrow(/incomplete/);
    expect(await sheetsOf(up.id)).toEqual([]);
    expect(await stored(made[0].folder!)).toBe(false);
    expect(await PdfUpload.query().findById(up.id)).toMatchObject({ status: 'failed', sheet_ids: [], pages_done: 0, file_key: null });
    expect(await stored(fileKey)).toBe(false);
  });

  it('stops quietly and tidies up when the project is deleted while its PDF is processed', async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const pdf = await planPdf([{ size: PAPER.A6 }]);
    // Held in the queue so the worker of this file does not take it first.
    await queue('sheets').pause();
    let uploadId: number;
    try {
      uploadId = (await upload(owner, project.id, pdf)).id;
      await api().delete(`/api/projects/${project.id}`).set(owner.auth).expect(200);
      const result = await sheetFromPdf({ upload_id: uploadId }, fakeJob(uploadId));
      expect(result).toMatchObject({ status: 'skipped', reason: 'the upload no longer exists' });
    } finally {
      await (await queue('sheets').getJob(`pdf-upload-${uploadId!}`))?.remove();
      await queue('sheets').resume();
    }
    expect(await db()('maps').where({ id_project: project.id })).toEqual([]);
    expect(await isStored(`projects/${project.id}`)).toBe(false);
  });
});
