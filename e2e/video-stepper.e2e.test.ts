import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { ProjectDetail, VideoDetail, VisitDetail } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { api } from '../api/test/helpers.js';
import { test } from './browser.js';
import { createUser, uniqueName, type TestUser } from './support/backend.js';
import { planPdf, projectWithSheet } from './support/visits-fixtures.js';
import { EVENTUALLY, signIn } from './support/ui.js';

/**
 * The video stepper's choices once a walk is reconstructed, on a phone:
 * a walk that took the stairs (one part per floor, a sheet per floor) and a
 * proposal SiteWalk is unsure of (rooms flagged, one more control point asked
 * for where it helps). The run's state is written as the workers leave it, so
 * no reconstruction runs here (the pipeline's own tests run it).
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A second sheet in the project (the upper floor), made by the real PDF worker. */
async function addSheet(owner: TestUser, project: ProjectDetail): Promise<ProjectDetail> {
  const res = await api().post(`/api/projects/${project.id}/pdf-sheet`).set(owner.auth).attach('file', await planPdf(), 'upper.pdf');
  if (res.status !== 202) throw new Error(`PDF not accepted: ${res.status}`);
  for (const until = Date.now() + 120_000; Date.now() < until; await sleep(300)) {
    const detail = (await api().get(`/api/projects/${project.id}`).set(owner.auth)).body.data as ProjectDetail;
    if (detail.maps.length === 2 && detail.maps.every((m) => m.status === 'ready')) return detail;
  }
  throw new Error('the second sheet was not made within 120 s');
}

/** A tiny real 360 video (2:1), uploaded as the visit's video. */
async function uploadVideo(owner: TestUser, visitId: number): Promise<VideoDetail> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sitewalk-e2e-stepper-')), 'walk.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=640x320:r=10:d=2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-y', file]);
  const res = await api().post(`/api/visits/${visitId}/video`).set(owner.auth).attach('file', file);
  if (res.status !== 201) throw new Error(`video not accepted: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as VideoDetail;
}

describe('video stepper choices', () => {
  test('on a phone: each floor of a walk that took the stairs gets its own sheet, and rooms SiteWalk is unsure of ask for one more control point there', async ({ page }) => {
    const owner = await createUser();
    const project = await addSheet(owner, await projectWithSheet(owner, uniqueName('Two storeys')));
    const [lower, upper] = project.maps;
    const visit = (await api().post('/api/visits').set(owner.auth).send({ id_project: project.id, name: uniqueName('Both floors'), id_map: lower.id })).body.data as VisitDetail;
    const video = await uploadVideo(owner, visit.id);

    // As generate-ply and project-points leave it: three parts (floor 1, the stairs, floor 2), floor 1 laid on
    // the lower sheet with its start and end pinned (the second point marked half a metre from where the walk passes),
    // rooms 6 to 9 unsure, keyframe 8 asked for.
    const done = { status: 'done', percent: 100, message: '', attempts: 1, started_at: new Date().toISOString(), finished_at: new Date().toISOString(), error: null };
    const w = lower.width!, h = lower.height!;
    const positions = Array.from({ length: 10 }, (_, i) => ({ keyframe: i, x: Math.round(w * (0.2 + 0.06 * i)), y: Math.round(h * 0.5), heading: 0 }));
    const artifacts = {
      keyframes: Array.from({ length: 16 }, (_, i) => ({ index: i, time: i * 1.5, image_key: null })),
      clusters: [
        { osfm_cluster: 0, keyframes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], points: 5000, ply_key: null, path_key: null, level: { kind: 'floor', floor: 0 } },
        { osfm_cluster: 1, keyframes: [10, 11], points: 800, ply_key: null, path_key: null, level: { kind: 'stairs', floor: null } },
        { osfm_cluster: 2, keyframes: [12, 13, 14, 15], points: 2000, ply_key: null, path_key: null, level: { kind: 'floor', floor: 1 } },
      ],
      projections: [
        {
          osfm_cluster: 0, id_map: lower.id, image_width: w, image_height: h,
          control_points: [{ keyframe: 0, x: positions[0].x, y: positions[0].y }, { keyframe: 5, x: positions[5].x, y: positions[5].y + 20 }],
          positions, scale: 40, residual_px: 0, fitted_by: 'controls', preview_key: null, confirmed_at: null, room_ids: [],
          certainty: { threshold_m: 0.3, error_m: [0.08, 0.1, 0.12, 0.12, 0.1, 0.08, 0.34, 0.45, 0.62, 0.58], worst_m: 0.62, unsure: [6, 7, 8, 9], stretches: [{ from: 6, to: 9 }], suggested_keyframe: 8, px_per_metre: 40, leave_one_out_m: null },
        },
      ],
    };
    const seed = () =>
      db()('video_runs').where({ id_video: video.id }).update({
        status: 'needs_confirmation', step: 'project-points', percent: 100, message: '10 rooms proposed', error: null,
        steps: JSON.stringify({ process: done, 'generate-ply': done, 'project-points': done }),
        artifacts: JSON.stringify(artifacts),
      });
    await seed();

    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page, { username: owner.user.username, password: owner.password });
    await page.goto(`/visitvideo/${visit.id}`);

    // The parts are named by floor; the hint says to lay each floor on its own sheet.
    const parts = page.getByTestId('cluster-select');
    await expect.poll(() => parts.locator('option').allInnerTexts(), EVENTUALLY).toEqual(['Floor 1: 10 rooms', 'Stairs: 2 rooms', 'Floor 2: 4 rooms']);
    expect(await page.getByTestId('parts-hint').innerText()).toContain('The walk took the stairs');
    const sheetSelect = page.getByLabel('Sheet for Floor 1');
    expect(await sheetSelect.inputValue()).toBe(String(lower.id));

    // Floor 1's proposal says which rooms are unsure and asks for one more control point.
    const unsure = page.getByTestId('projection-unsure');
    await expect.poll(() => unsure.innerText(), EVENTUALLY).toContain('4 rooms may be up to 0.6 m off.');
    expect(await unsure.innerText()).toContain('Add one more control point near them');
    // The point marked half a metre from the walk is not called a good fit: the sheet's scale is known, so it says how far.
    expect(await page.getByTestId('fit-quality').innerText()).toContain('The walk passes 0.5 m from a point you marked: check the points.');
    await expect.poll(() => page.getByTestId('projection-overlay').getAttribute('data-target'), EVENTUALLY).toMatch(/^\d+ \d+$/);

    // Pinning it: one click on the sheet asks the server again with the two control points and the new one.
    await unsure.getByRole('button', { name: 'Pin this room on the sheet' }).click();
    expect(await page.getByTestId('projection-hint').innerText()).toContain('Click on the sheet where the highlighted room’s photo was taken.');
    const overlay = page.getByTestId('projection-overlay');
    await overlay.scrollIntoViewIfNeeded();
    const [k, ox, oy] = ((await overlay.getAttribute('data-view')) ?? '').split(' ').map(Number);
    const box = (await overlay.boundingBox())!;
    const asked = page.waitForRequest((r) => r.url().endsWith('/python/videos/project-points') && r.method() === 'POST');
    await page.mouse.click(box.x + ox + positions[8].x * k, box.y + oy + (positions[8].y + 20) * k);
    const body = (await asked).postDataJSON() as { osfmCluster: number; id_map: number; control_points: { keyframe: number }[] };
    expect(body).toMatchObject({ osfmCluster: 0, id_map: lower.id });
    expect(body.control_points.map((c) => c.keyframe)).toEqual([0, 5, 8]);

    // The point marked half a metre aside is named, at its time in the video, and can be marked again: one click on the
    // sheet replaces it, the other point stays.
    await seed();
    await page.reload();
    const far = page.getByTestId('far-control-point');
    await expect.poll(() => far.innerText(), EVENTUALLY).toContain('The point you marked at 0:08 of the video is 0.5 m from where the walk passes.');
    await far.getByRole('button', { name: 'Mark this point again' }).click();
    expect(await page.getByTestId('projection-hint').innerText()).toContain('Click on the sheet where the highlighted room’s photo was taken.');
    await expect.poll(() => far.getByRole('button', { name: 'Cancel pinning' }).isVisible(), EVENTUALLY).toBe(true);
    await overlay.scrollIntoViewIfNeeded();
    const [k2, ox2, oy2] = ((await overlay.getAttribute('data-view')) ?? '').split(' ').map(Number);
    const box2 = (await overlay.boundingBox())!;
    const again = page.waitForRequest((r) => r.url().endsWith('/python/videos/project-points') && r.method() === 'POST');
    await page.mouse.click(box2.x + ox2 + positions[5].x * k2, box2.y + oy2 + positions[5].y * k2);
    const remarked = (await again).postDataJSON() as { control_points: { keyframe: number; x: number; y: number }[] };
    expect(remarked.control_points.map((c) => c.keyframe)).toEqual([0, 5]);
    expect(remarked.control_points[0]).toMatchObject({ x: positions[0].x, y: positions[0].y });
    // Clicked where the walk passes, not 20 px below it.
    expect(Math.abs(remarked.control_points[1].y - positions[5].y)).toBeLessThan(10);

    // Floor 2 gets its own sheet; floor 1 keeps the lower one.
    await parts.selectOption('2');
    await page.getByLabel('Sheet for Floor 2').selectOption(String(upper.id));
    await parts.selectOption('0');
    expect(await page.getByLabel('Sheet for Floor 1').inputValue()).toBe(String(lower.id));
    await parts.selectOption('2');
    expect(await page.getByLabel('Sheet for Floor 2').inputValue()).toBe(String(upper.id));

    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // In Arabic, right to left, the same warning in words and still nothing wider than the phone. (The pin above
    // asked the server for a fit of these made-up parts, which has no cloud to fit: the run is laid back as it was.)
    await seed();
    await page.evaluate(() => {
      sessionStorage.setItem('language', 'ar');
      localStorage.setItem('ls_language', 'ar');
    });
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('dir')), EVENTUALLY).toBe('rtl');
    await expect.poll(() => page.getByTestId('projection-unsure').innerText(), EVENTUALLY).toContain('أضف نقطة تحكم أخرى قربها');
    expect(await page.getByTestId('pin-unsure').innerText()).toContain('ثبّت هذه الغرفة على اللوحة');
    expect(await page.getByTestId('fit-quality').innerText()).toContain('من نقطة حددتها: راجع النقاط.');
    expect(await page.getByTestId('far-control-point').innerText()).toContain('حدّد هذه النقطة مجددًا');
    expect(await page.getByTestId('parts-hint').innerText()).toContain('صعدت الجولة الدرج');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
