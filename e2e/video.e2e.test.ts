import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect } from 'vitest';
import type { SheetRoom, ProjectDetail, VideoDetail, VisitDetail } from '@sitewalk/proto';
import { api } from '../api/test/helpers.js';
import { newProject } from '../api/test/project-helpers.js';
import { generateWalk, type PathJson, type WalkResult } from '../test/fixtures/walk-video/generate.js';
import { worldToPlan, type PlanJson } from '../test/fixtures/walk-video/plan.js';
import { saveScreenshot, test } from './browser.js';
import { createUser, uniqueName, type TestUser } from './support/backend.js';
import { ACTION_TIMEOUT, EVENTUALLY, expectSignedInLayout, roomsShownOnSheet, signIn } from './support/ui.js';

/** COLMAP on a loaded two-core machine takes its time. */
const PIPELINE = { timeout: 480_000, interval: 500 } as const;
const SLOW = { timeout: 120_000, interval: 250 } as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const toasts = (page: Page) => page.locator('.Toastify').innerText();

let walk: WalkResult;
let pathJson: PathJson;
let plan: PlanJson;
let blankVideo: string;

beforeAll(async () => {
  // A short walk with a known path, at low resolution (the ground truth of issue 8).
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitewalk-e2e-walk-'));
  walk = await generateWalk({ kind: '360', seconds: 8, fps: 10, width: 1024, height: 512, outDir, threads: 1 });
  pathJson = JSON.parse(fs.readFileSync(walk.pathJson, 'utf8')) as PathJson;
  plan = JSON.parse(fs.readFileSync(walk.planJson, 'utf8')) as PlanJson;
  // Three seconds of a black 360° picture: a real video in which there is nothing to walk through.
  blankVideo = path.join(outDir, 'blank.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=black:s=1024x512:d=3:r=10', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-y', blankVideo]);
}, 300_000);

/** The walk's plan as a one-page PDF, one point per plan pixel, so the sheet is the plan at a known scale. */
async function planPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const png = await pdf.embedPng(fs.readFileSync(walk.planPng));
  const page = pdf.addPage([png.width, png.height]);
  page.drawImage(png, { x: 0, y: 0, width: png.width, height: png.height });
  return Buffer.from(await pdf.save());
}

/** A project whose one sheet is the walk's plan, made by the real PDF worker. */
async function projectWithPlan(owner: TestUser): Promise<ProjectDetail> {
  const project = await newProject(owner, { name: uniqueName('Walked floor') });
  const res = await api().post(`/api/projects/${project.id}/pdf-sheet`).set(owner.auth).attach('file', await planPdf(), 'plan.pdf');
  if (res.status !== 202) throw new Error(`PDF not accepted: ${res.status} ${JSON.stringify(res.body)}`);
  for (const until = Date.now() + 120_000; Date.now() < until; await sleep(300)) {
    const detail = (await api().get(`/api/projects/${project.id}`).set(owner.auth)).body.data as ProjectDetail;
    if (detail.maps.length === 1 && detail.maps[0].status === 'ready') return detail;
  }
  throw new Error('the sheet was not made within 120 s');
}

async function newVisit(owner: TestUser, fields: { id_project: number; name: string; id_map?: number }): Promise<VisitDetail> {
  const res = await api().post('/api/visits').set(owner.auth).send(fields);
  if (res.status !== 201) throw new Error(`visit not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as VisitDetail;
}

const videoOf = async (owner: TestUser, visitId: number) => (await api().get(`/api/visits/${visitId}/video`).set(owner.auth)).body.data as VideoDetail | null;

/** Where the camera truly was at `time` seconds, in sheet pixels (the sheet is the plan scaled by `k`). */
function truthOnSheet(time: number, k: number): { x: number; y: number } {
  const f = pathJson.frames[Math.min(pathJson.frames.length - 1, Math.max(0, Math.round(time * pathJson.fps)))];
  const [px, py] = worldToPlan(plan, f.x, f.y);
  return { x: px * k, y: py * k };
}

/**
 * Records in the page every state each step of the stepper shows and the
 * percents it goes through (the steps can be quick; polling from the test
 * would miss the states in between).
 */
async function recordStepper(page: Page) {
  await page.evaluate(() => {
    const seen: Record<string, { states: string[]; percents: number[]; messages: string[] }> = {};
    (window as unknown as { __steps: typeof seen }).__steps = seen;
    const note = () => {
      for (const li of document.querySelectorAll<HTMLElement>('[data-testid="video-step"]')) {
        const step = li.dataset.step!;
        const s = (seen[step] ??= { states: [], percents: [], messages: [] });
        const state = li.dataset.state!;
        if (s.states[s.states.length - 1] !== state) s.states.push(state);
        const bar = li.querySelector('[role="progressbar"]');
        const p = Number(bar?.getAttribute('aria-valuenow') ?? NaN);
        if (Number.isFinite(p) && s.percents[s.percents.length - 1] !== p) s.percents.push(p);
        const m = li.querySelector('[data-testid="video-step-message"]')?.textContent?.trim();
        if (m && !s.messages.includes(m)) s.messages.push(m);
      }
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    note();
  });
}

const stepsSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __steps: Record<string, { states: string[]; percents: number[]; messages: string[] }> }).__steps);

/** Clicks a point of the sheet (sheet pixels) on the projection editor. */
async function clickSheet(page: Page, p: { x: number; y: number }) {
  const overlay = page.getByTestId('projection-overlay');
  await overlay.scrollIntoViewIfNeeded();
  const [k, ox, oy] = ((await overlay.getAttribute('data-view')) ?? '').split(' ').map(Number);
  const box = (await overlay.boundingBox())!;
  await page.mouse.click(box.x + ox + p.x * k, box.y + oy + p.y * k);
}

describe('walk-through video', () => {
  test(
    'a supervisor uploads a walk, watches the stepper live in two tabs, sees the point cloud, lays the walk on the plan by its start and end, confirms, and finds the rooms on the sheet, linked in walking order',
    async ({ page, context, browser, baseUrl }) => {
      const owner = await createUser();
      const project = await projectWithPlan(owner);
      const sheet = project.maps[0];
      const k = sheet.width! / plan.imageWidth;
      const visit = await newVisit(owner, { id_project: project.id, name: uniqueName('Level 1 walk'), id_map: sheet.id });
      // Remembered, so a second tab of the browser is signed in too.
      await signIn(page, { username: owner.user.username, password: owner.password }, { remember: true });
      await expectSignedInLayout(page);

      // The visit's page invites to upload a video; its link opens the video screen with the empty state.
      await page.goto(`/editvisit/${visit.id}`);
      const card = page.getByTestId('visit-video-card');
      await card.getByRole('link', { name: 'Upload a video' }).click();
      await page.waitForURL(`**/visitvideo/${visit.id}`);
      await expect.poll(() => page.getByTestId('video-empty').isVisible(), EVENTUALLY).toBe(true);

      // A second tab on the visit's page follows the processing too.
      const other = await context.newPage();
      other.setDefaultTimeout(ACTION_TIMEOUT);
      await other.goto(`/editvisit/${visit.id}`);
      await other.getByTestId('visit-video-card').waitFor();

      await recordStepper(page);
      await page.evaluate(() => {
        const bars: number[] = [];
        (window as unknown as { __upload: number[] }).__upload = bars;
        new MutationObserver(() => {
          const v = Number(document.querySelector('[data-testid="video-upload-bar"] [role="progressbar"]')?.getAttribute('aria-valuenow') ?? NaN);
          if (Number.isFinite(v) && bars[bars.length - 1] !== v) bars.push(v);
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      });
      await page.getByLabel('Walk-through video file').setInputFiles(walk.videoPath);
      await expect.poll(() => toasts(page), SLOW).toContain('Video uploaded. Processing starts now.');
      expect((await page.evaluate(() => (window as unknown as { __upload: number[] }).__upload)).length).toBeGreaterThan(0);
      expect(await page.getByTestId('video-facts').innerText()).toContain('360° video');

      // The stepper moves live, step by step, until the point cloud is ready.
      const stepper = page.getByTestId('video-stepper');
      await expect.poll(() => stepper.getAttribute('data-status'), PIPELINE).toBe('needs_projection');
      const seen = await stepsSeen(page);
      expect(seen['process'].states).toContain('active');
      expect(seen['process'].states.at(-1)).toBe('done');
      expect(seen['generate-ply'].states).toContain('active');
      expect(seen['generate-ply'].states.at(-1)).toBe('done');
      expect(seen['process'].percents.some((p) => p > 0 && p < 100), `process went through ${seen['process'].percents.join(', ')}`).toBe(true);
      expect(seen['process'].messages.length + seen['generate-ply'].messages.length).toBeGreaterThan(0);
      // …and in the other tab, without a reload.
      await expect.poll(() => other.getByTestId('video-stepper-compact').getAttribute('data-status'), SLOW).toBe('needs_projection');
      await other.close();

      // After a reload the stepper shows the same, read from the run the API keeps.
      await page.reload();
      await expect.poll(() => stepper.getAttribute('data-status'), EVENTUALLY).toBe('needs_projection');
      expect(await page.locator('[data-testid="video-step"][data-state="done"]').count()).toBe(2);
      expect(await page.locator('[data-step="process"] [role="progressbar"]').getAttribute('aria-valuenow')).toBe('100');

      // The point cloud in 3D.
      await expect.poll(() => page.getByTestId('point-cloud').getAttribute('data-state'), SLOW).toMatch(/^(ready|no-webgl)$/);
      await saveScreenshot(page, 'video--point-cloud');

      // Lay the biggest part of the walk on the plan: the server's proposal shows over the sheet.
      await page.getByRole('button', { name: 'Lay the walk on this sheet' }).click();
      await expect.poll(() => stepper.getAttribute('data-status'), PIPELINE).toBe('needs_confirmation');
      await page.getByTestId('projection-overlay').waitFor();
      const video = (await videoOf(owner, visit.id))!;
      const cluster = video.run.artifacts.clusters[0];
      const time = (kf: number) => video.run.artifacts.keyframes.find((f) => f.index === kf)!.time;
      const first = truthOnSheet(time(cluster.keyframes[0]), k);
      const last = truthOnSheet(time(cluster.keyframes[cluster.keyframes.length - 1]), k);

      // Click where the walk started, then where it ended.
      await page.getByRole('button', { name: 'Start and end' }).click();
      await clickSheet(page, first);
      await clickSheet(page, last);
      // The two clicks go to the server as control points: it fits the walk to them from the reconstruction
      // itself, and its new proposal (with the fit's residual) replaces the first one on the screen.
      const fittedProjection = async () =>
        (await videoOf(owner, visit.id))!.run.artifacts.projections.find((p) => p.osfm_cluster === cluster.osfm_cluster && p.id_map === sheet.id);
      await expect.poll(async () => (await fittedProjection())?.control_points.length ?? 0, PIPELINE).toBe(2);
      await expect.poll(() => stepper.getAttribute('data-status'), PIPELINE).toBe('needs_confirmation');
      const fitted = (await fittedProjection())!;
      expect(fitted.control_points.map((c) => c.keyframe)).toEqual([cluster.keyframes[0], cluster.keyframes[cluster.keyframes.length - 1]]);
      expect(fitted.image_width).toBe(sheet.width);
      // Clicked where they were meant to be (within the few pixels a click on a zoomed-out sheet is worth).
      const metreOnSheet = plan.pxPerMetre * k;
      expect(Math.hypot(fitted.control_points[0].x - first.x, fitted.control_points[0].y - first.y)).toBeLessThan(0.3 * metreOnSheet);
      expect(Math.hypot(fitted.control_points[1].x - last.x, fitted.control_points[1].y - last.y)).toBeLessThan(0.3 * metreOnSheet);
      expect(fitted.residual_px).not.toBeNull();
      // The fit is told in words, not in pixels: two marked points fit exactly.
      await expect.poll(() => page.getByTestId('fit-quality').innerText(), EVENTUALLY).toContain('The walk fits the points you marked well.');
      expect(await page.getByTestId('projection-summary').innerText()).not.toMatch(/pixels/);
      // The proposal on screen is the server's fit itself (no hand adjustment left on top of it).
      expect(await page.getByTestId('projection-hint').innerText()).not.toMatch(/Turned/);
      await saveScreenshot(page, 'video--projection');
      await page.getByRole('button', { name: 'Confirm and place the rooms' }).click();
      await expect.poll(() => page.getByTestId('projection-confirmed').isVisible(), PIPELINE).toBe(true);
      expect(await stepper.getAttribute('data-status')).toBe('completed');
      // The "Placing the rooms…" toast goes once the rooms are placed.
      await expect.poll(() => page.locator('.Toastify').innerText(), EVENTUALLY).not.toContain('Placing the rooms…');

      // One room per keyframe of the part, each where the camera was (within a metre), linked in walking order.
      const done = (await videoOf(owner, visit.id))!;
      const projection = done.run.artifacts.projections.find((p) => p.osfm_cluster === cluster.osfm_cluster && p.id_map === sheet.id)!;
      expect(projection.room_ids.length).toBe(cluster.keyframes.length);
      const placed = (await api().get(`/api/maps/${sheet.id}/rooms`).query({ id_visit: visit.id }).set(owner.auth)).body.data as SheetRoom[];
      const metre = plan.pxPerMetre * k;
      projection.room_ids.forEach((id, i) => {
        const room = placed.find((r) => r.id === id)!;
        expect(room, `room ${id}`).toBeTruthy();
        const truth = truthOnSheet(time(projection.positions[i].keyframe), k);
        expect(Math.hypot(room.x! - truth.x, room.y! - truth.y) / metre, `room ${i + 1} off by (metres)`).toBeLessThan(1);
      });
      const detail = (await api().get(`/api/visits/${visit.id}`).set(owner.auth)).body.data as VisitDetail;
      for (let i = 0; i + 1 < projection.room_ids.length; i++) {
        const room = detail.rooms.find((r) => r.id === projection.room_ids[i])!;
        expect(room.hotspots.map((h) => h.id_room_target)).toContain(projection.room_ids[i + 1]);
      }

      // The rooms are on the sheet in the placement screen.
      await page.getByRole('link', { name: 'See the rooms on the sheet' }).click();
      await page.waitForURL(`**/visitsheet/${visit.id}?map=${sheet.id}`);
      await expect.poll(() => roomsShownOnSheet(page), SLOW).toBe(projection.room_ids.length);
      // Every room of the walk has a name of its own.
      expect(new Set(detail.rooms.map((r) => r.name)).size).toBe(detail.rooms.length);
      await saveScreenshot(page, 'video--rooms-on-sheet');

      // The video screen fits a 360 px phone in English and in Arabic.
      const phone = await browser.newContext({ baseURL: baseUrl, locale: 'en-US', viewport: { width: 360, height: 740 } });
      try {
        await phone.addInitScript(() => {
          try {
            localStorage.setItem('onboardingCompleted', 'true');
          } catch {
            /* about:blank */
          }
        });
        const p = await phone.newPage();
        p.setDefaultTimeout(ACTION_TIMEOUT);
        await signIn(p, { username: owner.user.username, password: owner.password });
        await expectSignedInLayout(p);
        for (const lang of ['en', 'ar']) {
          await p.evaluate((l) => {
            sessionStorage.setItem('language', l);
            localStorage.setItem('ls_language', l);
          }, lang);
          for (const route of [`/visitvideo/${visit.id}`, `/editvisit/${visit.id}`]) {
            await p.goto(route);
            await expect.poll(() => p.evaluate(() => document.documentElement.getAttribute('dir')), EVENTUALLY).toBe(lang === 'ar' ? 'rtl' : 'ltr');
            await expect.poll(() => p.locator('.spinner-border').count(), SLOW).toBe(0);
            // The screen's own content (the top bar is the layout's, tested with the layout).
            const wide = await p.evaluate((id) => {
              const root = document.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
              const r = root.getBoundingClientRect();
              return Math.max(root.scrollWidth - root.clientWidth, r.right - window.innerWidth, -r.left);
            }, route.startsWith('/visitvideo') ? 'visit-video-page' : 'edit-visit-page');
            if (wide > 0) await saveScreenshot(p, `video--too-wide-${lang}-${route}`);
            expect(wide, `${route} in ${lang}`).toBeLessThanOrEqual(0);
          }
          await saveScreenshot(p, `video--phone-${lang}`);
        }
      } finally {
        await phone.close();
      }
    },
    900_000,
  );

  test(
    'an upload shows its progress and can be cancelled; a file that is not a video is refused in words; a video is deleted after a confirmation',
    async ({ page }) => {
      const owner = await createUser();
      const project = await newProject(owner, { name: uniqueName('Upload checks') });
      const visit = await newVisit(owner, { id_project: project.id, name: uniqueName('Cancelled walk') });
      await signIn(page, { username: owner.user.username, password: owner.password });
      await expectSignedInLayout(page);
      await page.goto(`/visitvideo/${visit.id}`);
      await expect.poll(() => page.getByTestId('video-empty').isVisible(), EVENTUALLY).toBe(true);

      // A slow line: the bar climbs with the bytes sent, and Cancel stops the upload.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 400 * 1024 });
      await page.getByLabel('Walk-through video file').setInputFiles(walk.videoPath);
      const bar = page.getByTestId('video-upload-bar').getByRole('progressbar');
      await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), SLOW).toBeGreaterThan(5);
      const early = Number(await bar.getAttribute('aria-valuenow'));
      await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), SLOW).toBeGreaterThan(early);
      expect(await page.getByTestId('video-upload-bytes').innerText()).toMatch(/^[\d.,]+ of [\d.,]+ MB$/);
      await page.getByRole('button', { name: 'Cancel upload' }).click();
      await expect.poll(() => toasts(page), EVENTUALLY).toContain('Upload cancelled.');
      await expect.poll(() => page.getByTestId('video-empty').isVisible(), EVENTUALLY).toBe(true);
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await sleep(500);
      expect(await videoOf(owner, visit.id)).toBeNull();

      // A text file named like a video: the server says why, in words.
      await page.getByLabel('Walk-through video file').setInputFiles({ name: 'walk.mp4', mimeType: 'video/mp4', buffer: Buffer.from('this is not a video at all\n'.repeat(100)) });
      await expect.poll(() => page.getByTestId('video-upload-error').isVisible(), EVENTUALLY).toBe(true);
      expect((await page.getByTestId('video-upload-error').innerText()).trim().length).toBeGreaterThan(5);

      // A real video (resumable upload: its resumption after a dropped line is tested at the API, api/test/video-uploads.test.ts).
      await page.getByLabel('Walk-through video file').setInputFiles(walk.videoPath);
      await expect.poll(() => page.getByTestId('video-stepper').isVisible(), SLOW).toBe(true);
      expect((await videoOf(owner, visit.id))?.size_bytes).toBe(fs.statSync(walk.videoPath).size);

      // Then deleted after a confirmation.
      await page.getByRole('button', { name: 'Delete the video' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete the video' });
      await expect.poll(() => dialog.isVisible(), EVENTUALLY).toBe(true);
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => page.getByTestId('video-empty').isVisible(), SLOW).toBe(true);
      await expect.poll(() => toasts(page), EVENTUALLY).toMatch(/Video deleted/);
      expect(await videoOf(owner, visit.id)).toBeNull();
    },
    300_000,
  );

  test(
    'a video in which nothing can be seen stops the stepper at its step, says why in words, and offers to try again',
    async ({ page }) => {
      const owner = await createUser();
      const project = await newProject(owner, { name: uniqueName('Dark site') });
      const visit = await newVisit(owner, { id_project: project.id, name: uniqueName('Walk in the dark') });
      await signIn(page, { username: owner.user.username, password: owner.password });
      await expectSignedInLayout(page);
      await page.goto(`/visitvideo/${visit.id}`);
      await page.getByLabel('Walk-through video file').setInputFiles(blankVideo);
      const stepper = page.getByTestId('video-stepper');
      await expect.poll(() => stepper.getAttribute('data-status'), SLOW).toBe('failed');
      const step = page.locator('[data-testid="video-step"][data-step="process"]');
      expect(await step.getAttribute('data-state')).toBe('failed');
      const words = await step.getByTestId('video-step-error').innerText();
      expect(words).toContain('Failed to process video');
      expect(words).toMatch(/nothing/i);
      expect(await page.getByTestId('video-run-status').innerText()).toBe('Processing stopped.');
      expect(await page.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
      // The same after a reload: the run the API keeps says so.
      await page.reload();
      await expect.poll(() => page.locator('[data-step="process"] [data-testid="video-step-error"]').innerText(), EVENTUALLY).toContain('Failed to process video');
      await saveScreenshot(page, 'video--failed');
    },
    300_000,
  );
});
