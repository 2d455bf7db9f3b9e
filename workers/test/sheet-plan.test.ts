import fs from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Room, Sheet, closeDb } from '@sitewalk/core/db';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime';
import { closeRedis } from '@sitewalk/core/redis.js';
import { localPath } from '@sitewalk/core/storage';
import { api, createUser, type TestUser } from '../../api/test/helpers.js';
import { newProject } from '../../api/test/project-helpers.js';
import { handlers } from '../src/jobs/index.js';
import { startWorkers, type RunningWorkers } from '../src/runner.js';
import { useOwnRedisPrefix, waitFor } from './helpers.js';
import { PAPER, planPdf } from './pdf-fixtures.js';

useOwnRedisPrefix('sheet-plan');

let workers: RunningWorkers;
beforeAll(() => {
  workers = startWorkers(handlers, { queues: ['sheets'] });
});
afterAll(async () => {
  await workers?.close();
  await Promise.allSettled([closeQueues(), closeEmitter(), closeRedis()]);
  await closeDb();
});

/** A drawing as an image: white with a dark frame. */
const planImage = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}"><rect x="10" y="10" width="${width - 20}" height="${height - 20}" fill="none" stroke="#000" stroke-width="6"/></svg>`), top: 0, left: 0 }])
    .png()
    .toBuffer();

async function emptySheet(owner: TestUser) {
  const project = await newProject(owner);
  const res = await api().post('/api/maps').set(owner.auth).send({ id_project: project.id, name: 'Roof' });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; id_project: number };
}

const readySheet = (id: number, width: number) =>
  waitFor(async () => {
    const m = await Sheet.query().findById(id);
    return m?.status === 'ready' && m.width === width ? m : null;
  }, `sheet ${id} drawn ${width} px wide`, 120_000);

describe('POST /api/maps/{id}/plan: a sheet gets or replaces its plan', () => {
  it('draws an image as the plan of an empty sheet, then replaces it with a PDF page and keeps the rooms on the same spot of the drawing', async () => {
    const owner = await createUser();
    const sheet = await emptySheet(owner);

    const first = await api().post(`/api/maps/${sheet.id}/plan`).set(owner.auth).attach('file', await planImage(800, 400), 'roof.png');
    expect(first.status).toBe(202);
    expect(first.body.message).toBe('The plan is uploaded. It is being drawn on the sheet.');
    expect(first.body.data).toMatchObject({ id: sheet.id, status: 'processing' });
    const drawn = await readySheet(sheet.id, 800);
    expect(drawn).toMatchObject({ width: 800, height: 400, dpi: null });
    expect(fs.existsSync(localPath(`${drawn.folder}/tiles/0/0/0.jpg`))).toBe(true);
    const detail = (await api().get(`/api/maps/${sheet.id}`).set(owner.auth)).body.data;
    expect(detail.tile_url_template).toContain('/tiles/');

    // A room stands in the middle of the drawing; the new plan (page 2 of a PDF) has another size.
    const room = await Room.query().insertAndFetch({ id_map: sheet.id, name: 'Hall', x: 400, y: 200 });
    const pdf = await planPdf([{ size: PAPER.A6 }, { size: PAPER.A4, landscape: true }]);
    const second = await api().post(`/api/maps/${sheet.id}/plan`).set(owner.auth).field('page', '2').attach('file', pdf, 'roof-rev-b.pdf');
    expect(second.status).toBe(202);
    // The old plan stays on show while the new one is drawn.
    expect(second.body.data).toMatchObject({ status: 'ready', width: 800 });
    const replaced = await waitFor(async () => {
      const m = await Sheet.query().findById(sheet.id);
      return m && m.width !== 800 ? m : null;
    }, 'the new plan', 120_000);
    expect(replaced.width! > replaced.height!).toBe(true);
    expect(replaced.dpi).toBeGreaterThan(0);
    // The old tiles go once the new plan is on the sheet (right after its transaction), the new ones are there.
    await waitFor(async () => !fs.existsSync(localPath(drawn.folder!)), 'the old tiles removed', 30_000);
    expect(fs.existsSync(localPath(`${replaced.folder}/tiles/0/0/0.jpg`))).toBe(true);
    const moved = await Room.query().findById(room.id);
    expect(moved!.x).toBeCloseTo(replaced.width! / 2, 6);
    expect(moved!.y).toBeCloseTo(replaced.height! / 2, 6);
  });

  it('refuses what is not a plan, a page an image does not have, bad fields, and another user’s sheet', async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const sheet = await emptySheet(owner);
    const png = await planImage(300, 200);

    const text = await api().post(`/api/maps/${sheet.id}/plan`).set(owner.auth).attach('file', Buffer.from('just some words'), 'plan.pdf');
    expect(text.status).toBe(415);
    expect(text.body.message).toMatch(/^This file is not a PDF or an image\./);

    const page0 = await api().post(`/api/maps/${sheet.id}/plan`).set(owner.auth).field('page', '0').attach('file', png, 'a.png');
    expect(page0.status).toBe(400);
    expect(page0.body.message).toContain('page must be at least 1');

    const imagePage = await api().post(`/api/maps/${sheet.id}/plan`).set(owner.auth).field('page', '2').attach('file', png, 'a.png');
    expect(imagePage.status).toBe(400);
    expect(imagePage.body.message).toBe('An image has one page: leave the page out, or upload a PDF.');

    const extra = await api().post(`/api/maps/${sheet.id}/plan`).set(owner.auth).field('scale', '2').attach('file', png, 'a.png');
    expect(extra.status).toBe(400);

    const foreign = await api().post(`/api/maps/${sheet.id}/plan`).set(stranger.auth).attach('file', png, 'a.png');
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Sheet not found.');

    // Nothing of this changed the sheet.
    expect(await Sheet.query().findById(sheet.id)).toMatchObject({ status: 'empty', width: null });
  });

  it('puts an empty sheet back to offering the upload when the PDF has no such page', async () => {
    const owner = await createUser();
    const sheet = await emptySheet(owner);
    const pdf = await planPdf([{ size: PAPER.A6 }]);
    const res = await api().post(`/api/maps/${sheet.id}/plan`).set(owner.auth).field('page', '3').attach('file', pdf, 'one-page.pdf');
    expect(res.status).toBe(202);
    await waitFor(async () => (await Sheet.query().findById(sheet.id))?.status === 'empty', 'the sheet to be empty again', 60_000);
  });
});
