import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { saveScreenshot, test } from './browser.js';
import { createUser, uniqueName } from './support/backend.js';
import { ACTION_TIMEOUT, EVENTUALLY, expectSignedInLayout, roomsShownOnSheet, settledBox, signIn } from './support/ui.js';
import { db } from '@sitewalk/core/db';
import { api } from '../api/test/helpers.js';
import { newProject } from '../api/test/project-helpers.js';
import { panorama, placeRooms, projectWithSheet, visitWithRooms } from './support/visits-fixtures.js';
import { seriousViolations } from './support/axe.js';

/** Tiling and WebGL on a loaded two-core machine take their time. */
const SLOW = { timeout: 120_000, interval: 250 } as const;

const toasts = (page: Page) => page.locator('.Toastify').innerText();

/** Waits until a 360 view shows its panorama (the low-resolution sphere at least). */
async function panoramaReady(pano: Locator): Promise<void> {
  await expect.poll(() => pano.getAttribute('data-pano-state'), SLOW).toBe('ready');
}

/** Drags the view of a panorama sideways, as a person turning around with the mouse. */
async function dragView(page: Page, pano: Locator, dx: number): Promise<void> {
  const box = (await pano.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(x + (dx * i) / 10, y, { steps: 2 });
  await page.mouse.up();
}

const yawOf = async (pano: Locator) => Number((await pano.getAttribute('data-yaw')) ?? 'NaN');
const angleGap = (a: number, b: number) => {
  const d = Math.abs(a - b) % (2 * Math.PI);
  return Math.min(d, 2 * Math.PI - d);
};

describe('visits and the 360 viewer', () => {
  test(
    'a supervisor creates a visit, uploads three 360 photos with a bar each, links two rooms by a hotspot and jumps through it; the public viewer opens by code without sign-in',
    async ({ page, browser, baseUrl }) => {
      const owner = await createUser();
      const project = await projectWithSheet(owner, uniqueName('Harbour Tower'));
      await signIn(page, { username: owner.user.username, password: owner.password });
      await expectSignedInLayout(page);

      // No visits yet: the empty state, then the create button of the project.
      await page.goto(`/visits/${project.id}`);
      await expect.poll(() => page.getByTestId('visits-empty').isVisible(), EVENTUALLY).toBe(true);
      await page.getByTestId('create-visit').click();
      await page.waitForURL(/\/editvisit\/new\?project=\d+$/);
      await page.getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => page.getByText('Visit name is required').isVisible(), EVENTUALLY).toBe(true);
      const visitName = uniqueName('Level 3 walk');
      await page.getByLabel('Visit name').fill(visitName);
      await page.getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => toasts(page), EVENTUALLY).toContain('Visit created successfully!');
      await page.waitForURL(/\/editvisit\/\d+$/);
      const visitId = Number(new URL(page.url()).pathname.split('/').pop());
      await expect.poll(() => page.getByTestId('rooms-empty').isVisible(), EVENTUALLY).toBe(true);

      // Three photos at once: each gets its own upload bar, then its own tiling bar, live.
      await page.evaluate(() => {
        const seen = { uploads: new Set<string>(), tiling: new Set<string>() };
        (window as unknown as { __bars: typeof seen }).__bars = seen;
        const note = () => {
          for (const row of document.querySelectorAll('[data-testid="room-upload"]')) {
            if (row.querySelector('.progress')) seen.uploads.add(row.querySelector('.text-truncate')?.textContent ?? '');
          }
          for (const row of document.querySelectorAll('[data-testid="room-row"]')) {
            if (row.querySelector('[data-testid="room-tiling"] .progress')) seen.tiling.add(row.querySelector('[data-testid="room-name"]')?.textContent ?? '');
          }
        };
        new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      });
      const files = await Promise.all(
        ['Lobby', 'Corridor', 'Office'].map(async (name, i) => ({ name: `${name}.jpg`, mimeType: 'image/jpeg', buffer: await panorama(name, 2048, i * 2) })),
      );
      await page.getByLabel('360° photos').setInputFiles(files);
      const rows = page.getByTestId('room-row');
      await expect.poll(() => rows.count(), SLOW).toBe(3);
      await expect.poll(() => page.locator('[data-testid="room-row"][data-status="ready"]').count(), SLOW).toBe(3);
      expect(await page.getByTestId('room-name').allTextContents()).toEqual(['Lobby', 'Corridor', 'Office']);
      const bars = await page.evaluate(() => {
        const seen = (window as unknown as { __bars: { uploads: Set<string>; tiling: Set<string> } }).__bars;
        return { uploads: [...seen.uploads].sort(), tiling: [...seen.tiling] };
      });
      // A bar per file while its bytes go up, then a bar while the server prepares its 360 view.
      expect(bars.uploads).toEqual(['Corridor.jpg', 'Lobby.jpg', 'Office.jpg']);
      expect(bars.tiling.length).toBeGreaterThan(0);
      await saveScreenshot(page, 'visits--rooms-ready');

      // Reorder: Office first, and it stays so after a reload.
      await page.getByRole('button', { name: 'Move Office up' }).click();
      await expect.poll(() => page.getByTestId('room-name').allTextContents(), EVENTUALLY).toEqual(['Lobby', 'Office', 'Corridor']);
      await page.reload();
      await expect.poll(() => page.getByTestId('room-name').allTextContents(), EVENTUALLY).toEqual(['Lobby', 'Office', 'Corridor']);

      // The hotspot editor: click in the Lobby's view, link it to the Office.
      // Errors thrown in the page show the user "Something went wrong"; the editor must cause none
      // (it once rebuilt its 360 view mid-load when the address gained the room's id).
      const pageErrors: string[] = [];
      page.on('pageerror', (err) => pageErrors.push(err.message));
      await page.getByRole('link', { name: 'Hotspots and points of interest' }).click();
      await page.waitForURL(new RegExp(`/visittour/${visitId}/\\d+$`));
      const pano = page.getByTestId('panorama');
      await panoramaReady(pano);
      const hotspotMode = page.getByRole('button', { name: 'Add a hotspot' });
      await hotspotMode.click();
      await expect.poll(() => hotspotMode.getAttribute('aria-pressed'), EVENTUALLY).toBe('true');
      const box = (await pano.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.6, box.y + box.height * 0.55);
      await expect.poll(() => page.getByTestId('hotspot-form').isVisible(), EVENTUALLY).toBe(true);
      await page.getByLabel('Leads to').selectOption({ label: 'Office' });
      await page.getByRole('button', { name: 'Save hotspot' }).click();
      await expect.poll(() => toasts(page), EVENTUALLY).toContain('Hotspot saved.');
      await expect.poll(() => page.getByTestId('hotspot-item').allTextContents(), EVENTUALLY).toEqual(['→ Office']);

      // A point of interest in the Lobby.
      const poiMode = page.getByRole('button', { name: 'Add a point of interest' });
      await poiMode.click();
      // The click in the view places a point only once the editor is in that mode and the view has settled after the hotspot.
      await expect.poll(() => poiMode.getAttribute('aria-pressed'), EVENTUALLY).toBe('true');
      await panoramaReady(pano);
      const poiBox = (await pano.boundingBox())!;
      await page.mouse.click(poiBox.x + poiBox.width * 0.3, poiBox.y + poiBox.height * 0.45);
      const poiForm = page.getByTestId('poi-form');
      await expect.poll(() => poiForm.isVisible(), EVENTUALLY).toBe(true);
      await poiForm.getByLabel('Title').fill('Cracked tile');
      await poiForm.getByLabel('Text').fill('Replace before handover.');
      await poiForm.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => toasts(page), EVENTUALLY).toContain('Point of interest saved.');
      await expect.poll(() => page.getByTestId('poi-item').allTextContents(), EVENTUALLY).toEqual(['Cracked tile']);
      await saveScreenshot(page, 'visits--tour-editor');

      // Jump through the hotspot inside the 360 view.
      const hotspot = pano.getByRole('button', { name: 'Go to Office' });
      await expect.poll(() => hotspot.isVisible(), SLOW).toBe(true);
      const lobbyPath = new URL(page.url()).pathname;
      // The same 360 view turns to the next room (a transition), it is not rebuilt with the new address.
      await pano.evaluate((el) => el.setAttribute('data-e2e-same-view', 'yes'));
      await hotspot.click();
      await expect.poll(() => pano.getAttribute('data-room'), SLOW).not.toBeNull();
      await expect.poll(() => page.getByTestId('tour-room-select').locator('option:checked').textContent(), SLOW).toBe('Office');
      await page.waitForURL((url) => new RegExp(`/visittour/${visitId}/\\d+$`).test(url.pathname) && url.pathname !== lobbyPath);
      expect(await pano.getAttribute('data-e2e-same-view')).toBe('yes');
      expect(pageErrors).toEqual([]);

      // The public viewer, by code, in a browser that never signed in.
      await page.goto(`/visits/${project.id}`);
      await expect.poll(() => page.getByTestId('visit-row').count(), EVENTUALLY).toBe(1);
      expect(await page.getByTestId('visit-rooms').textContent()).toBe('3 rooms');
      const viewerHref = await page.getByRole('link', { name: `View: ${visitName}` }).getAttribute('href');
      expect(viewerHref).toMatch(/^\/viewer\/[A-Za-z0-9_-]+$/);

      const visitor = await browser.newContext({ baseURL: baseUrl, locale: 'en-US', viewport: { width: 1280, height: 800 } });
      try {
        const pub = await visitor.newPage();
        pub.setDefaultTimeout(ACTION_TIMEOUT);
        await pub.goto(viewerHref!);
        await expect.poll(() => pub.getByTestId('viewer-title').textContent(), EVENTUALLY).toBe(visitName);
        const view = pub.getByTestId('panorama');
        await panoramaReady(view);
        // It opens at the first room, with its point of interest and the hotspot to the Office.
        await expect.poll(() => pub.getByTestId('viewer-room-select').locator('option:checked').textContent(), EVENTUALLY).toBe('Lobby');
        // The address names the room on screen, so it can be shared as it is.
        await pub.waitForURL(new RegExp(`${viewerHref}/\\d+$`));
        const lobbyUrl = new URL(pub.url()).pathname;
        await pub.getByTestId('viewer-poi-button').filter({ hasText: 'Cracked tile' }).click();
        await expect.poll(() => pub.getByTestId('poi-panel').textContent(), EVENTUALLY).toContain('Replace before handover.');
        await pub.getByTestId('poi-panel').getByRole('button', { name: 'Close' }).click();
        // Share buttons of every provider in the settings.
        await pub.getByTestId('viewer-share').click();
        expect(await pub.locator('[data-provider]').count()).toBeGreaterThanOrEqual(9);
        expect(await pub.locator('[data-provider="whatsapp"]').getAttribute('href')).toContain(encodeURIComponent('/viewer/'));
        await pub.keyboard.press('Escape');
        await saveScreenshot(pub, 'visits--public-viewer');

        const link = view.getByRole('button', { name: 'Go to Office' });
        await expect.poll(() => link.isVisible(), SLOW).toBe(true);
        await link.click();
        await expect.poll(() => pub.getByTestId('viewer-room-select').locator('option:checked').textContent(), SLOW).toBe('Office');
        // The address follows the room.
        await pub.waitForURL((url) => new RegExp(`${viewerHref}/\\d+$`).test(url.pathname) && url.pathname !== lobbyUrl);
        const officeUrl = new URL(pub.url()).pathname;
        await pub.reload();
        await panoramaReady(pub.getByTestId('panorama'));
        await expect.poll(() => pub.getByTestId('viewer-room-select').locator('option:checked').textContent(), EVENTUALLY).toBe('Office');
        expect(new URL(pub.url()).pathname).toBe(officeUrl);

        // An unknown code says so.
        await pub.goto('/viewer/no-such-code');
        await expect.poll(() => pub.getByTestId('viewer-missing').isVisible(), EVENTUALLY).toBe(true);
      } finally {
        await visitor.close();
      }
    },
    400_000,
  );

  test(
    'a room placed on the sheet stays there after a reload, and its floor-sheet dot shows in the viewer',
    async ({ page }) => {
      const owner = await createUser();
      const project = await projectWithSheet(owner, uniqueName('Clinic'));
      const sheet = project.maps[0];
      const visit = await visitWithRooms(owner, { id_project: project.id, name: 'Ground floor walk', id_map: sheet.id }, [{ name: 'Entrance' }, { name: 'Waiting room', hue: 3 }]);
      await signIn(page, { username: owner.user.username, password: owner.password });
      await expectSignedInLayout(page);

      await page.goto(`/visitsheet/${visit.id}`);
      const map = page.getByTestId('sheet-rooms-map');
      await expect.poll(() => page.evaluate(() => document.querySelectorAll('img.leaflet-tile-loaded').length), SLOW).toBeGreaterThan(0);
      expect(await page.getByTestId('sheet-room').count()).toBe(0);

      const entrance = page.getByTestId('placement-room').filter({ hasText: 'Entrance' });
      await entrance.getByRole('button', { name: 'Place' }).click();
      await expect.poll(() => page.getByTestId('placement-hint').textContent(), EVENTUALLY).toContain('Click the sheet where Entrance was taken.');
      const box = (await map.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.5);
      await expect.poll(() => page.getByTestId('placement-status').textContent(), EVENTUALLY).toContain('Entrance saved on the sheet.');
      await expect.poll(() => page.getByTestId('sheet-room').count(), EVENTUALLY).toBe(1);
      const placedAt = await settledBox(page.getByTestId('sheet-room'));

      await page.reload();
      await expect.poll(() => page.getByTestId('sheet-room').count(), SLOW).toBe(1);
      expect(await page.getByTestId('placement-room').filter({ hasText: 'Entrance' }).getAttribute('data-placed')).toBe('true');
      const afterReload = await settledBox(page.getByTestId('sheet-room'));
      const centre = (b: { x: number; y: number; width: number; height: number }) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
      expect(Math.abs(centre(afterReload).x - centre(placedAt).x)).toBeLessThan(3);
      expect(Math.abs(centre(afterReload).y - centre(placedAt).y)).toBeLessThan(3);

      // Dragged somewhere else, it stays there too.
      const dot = page.getByTestId('sheet-room');
      const from = await settledBox(dot);
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 120, from.y + from.height / 2 + 40, { steps: 8 });
      await page.mouse.up();
      await expect.poll(() => page.getByTestId('placement-status').textContent(), EVENTUALLY).toContain('Entrance saved on the sheet.');
      await page.reload();
      await expect.poll(() => page.getByTestId('sheet-room').count(), SLOW).toBe(1);
      const moved = await settledBox(page.getByTestId('sheet-room'));
      expect(moved.x - from.x).toBeGreaterThan(80);
      await saveScreenshot(page, 'visits--placement');

      // A language switch makes the map again (right to left): the room is drawn on the new one too.
      await page.getByTestId('language-switcher').click();
      await page.getByRole('button', { name: 'العربية' }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.dir), EVENTUALLY).toBe('rtl');
      await expect.poll(() => page.getByTestId('sheet-room').count(), EVENTUALLY).toBe(1);
      await page.getByTestId('language-switcher').click();
      await page.getByRole('button', { name: 'English' }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.dir), EVENTUALLY).toBe('ltr');
      await expect.poll(() => page.getByTestId('sheet-room').count(), EVENTUALLY).toBe(1);

      // In the public viewer, the floor sheet shows where one stands.
      await page.goto(`/viewer/${visit.code}`);
      await panoramaReady(page.getByTestId('panorama'));
      await expect.poll(() => page.getByTestId('viewer-sheet').getByTestId('sheet-room').count(), SLOW).toBe(1);
      expect(await page.getByTestId('viewer-sheet').getByTestId('sheet-room').getAttribute('data-current')).toBe('true');
      await expect.poll(() => page.locator('.sw-view-cone').count(), SLOW).toBe(1);
      await saveScreenshot(page, 'visits--viewer-with-sheet');
    },
    400_000,
  );

  test(
    'a walk of 60 rooms is a path of small dots on the viewer\'s floor sheet at phone width: close rooms merge into counted clusters, a dot grows under the pointer and opens with the keyboard, the current room shows its heading',
    async ({ browser, baseUrl }) => {
      const owner = await createUser();
      const project = await projectWithSheet(owner, uniqueName('Long walk'));
      const sheet = project.maps[0];
      const visit = await visitWithRooms(owner, { id_project: project.id, name: 'Level 1 walk', id_map: sheet.id }, [{ name: 'Start' }]);
      // A video's walk, without a video: 59 more rooms showing the first room's photo, in a serpentine over the plan.
      const W = sheet.width!;
      const H = sheet.height!;
      const walk = Array.from({ length: 60 }, (_, i) => {
        const row = Math.floor(i / 12);
        const col = row % 2 ? 11 - (i % 12) : i % 12;
        return { x: Math.round(W * (0.12 + col * 0.065)), y: Math.round(H * (0.15 + row * 0.17)) };
      });
      const start = visit.rooms[0];
      await db()('rooms').where({ id: start.id }).update({ id_map: sheet.id, x: walk[0].x, y: walk[0].y, heading: Math.PI / 2 });
      const { id: _id, created_at: _c, updated_at: _u, ...photo } = await db()('rooms').where({ id: start.id }).first();
      const json = (v: unknown) => (v !== null && typeof v === 'object' && !(v instanceof Date) && !Buffer.isBuffer(v) ? JSON.stringify(v) : v);
      const copy = Object.fromEntries(Object.entries(photo).map(([k, v]) => [k, json(v)]));
      await db()('rooms').insert(walk.slice(1).map((p, i) => ({ ...copy, name: `Video 0:${String(i + 1).padStart(2, '0')}.5`, position: start.position + i + 1, x: p.x, y: p.y, heading: 0 })));

      const phone = await browser.newContext({ baseURL: baseUrl, locale: 'en-US', viewport: { width: 360, height: 740 } });
      try {
        const page = await phone.newPage();
        await page.goto(`/viewer/${visit.code}/${start.id}`);
        await panoramaReady(page.getByTestId('panorama'));
        await page.getByRole('button', { name: 'Floor sheet' }).click();
        const mini = page.getByTestId('viewer-sheet');
        // The walk is one line, and every room is on the sheet: as a dot or counted in a cluster.
        await expect.poll(() => mini.locator('.sw-walk-path').count(), SLOW).toBe(1);
        await expect.poll(() => roomsShownOnSheet(mini), SLOW).toBe(60);
        const clusters = mini.getByTestId('sheet-room-cluster');
        expect(await clusters.count()).toBeGreaterThan(0);
        expect(await mini.getByTestId('sheet-room').count()).toBeLessThan(60);
        // The current room is marked above the dots and clusters, pointing its heading (90°: to the right of the sheet);
        // the mark is not a target, so it never covers the dot or cluster to choose under it.
        const here = mini.getByTestId('sheet-room-here');
        await expect.poll(() => here.count(), EVENTUALLY).toBe(1);
        expect(await here.locator('.sw-room-heading').getAttribute('style')).toContain('rotate(90deg)');
        expect(await here.evaluate((el) => [el.getAttribute('aria-hidden'), el.hasAttribute('tabindex'), getComputedStyle(el).pointerEvents].join(' '))).toBe('true false none');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        // Zoomed out, no dot or cluster lies on another: each keeps a 24 px target (WCAG 2.2 target size, checked by axe).
        expect((await seriousViolations(page)).filter((v) => v.id === 'target-size')).toEqual([]);
        await saveScreenshot(page, 'visits--walk-clusters');

        // A cluster opens with the keyboard: Enter zooms in and its rooms come apart.
        const dotsBefore = await mini.getByTestId('sheet-room').count();
        await clusters.first().focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => mini.getByTestId('sheet-room').count(), SLOW).toBeGreaterThan(dotsBefore);
        expect((await seriousViolations(page)).filter((v) => v.id === 'target-size')).toEqual([]);

        // A dot grows under the pointer.
        const dot = mini.locator('.sw-room-dot:not(.is-current)').first();
        await expect.poll(() => dot.count(), SLOW).toBe(1);
        const core = dot.locator('.sw-room-core');
        // Read once the zoom into the cluster has ended (the dots are drawn again as it goes).
        const small = (await settledBox(core)).width;
        await dot.hover();
        await expect.poll(async () => (await core.boundingBox())?.width ?? 0, EVENTUALLY).toBeGreaterThan(small * 1.4);

        // Enter on a dot goes to that room; the focus stays on it, now the current room.
        const target = await dot.getAttribute('data-room');
        const name = await dot.getAttribute('aria-label');
        expect(name).toMatch(/^\d+ · Video 0:\d\d\.5$/);
        await dot.focus();
        await page.keyboard.press('Enter');
        await page.waitForURL((url) => url.pathname === `/viewer/${visit.code}/${target}`);
        await expect.poll(() => mini.locator(`[data-room="${target}"] [data-current="true"]`).count(), EVENTUALLY).toBe(1);
        await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-room')), EVENTUALLY).toBe(target);
        await saveScreenshot(page, 'visits--walk-zoomed');
      } finally {
        await phone.close();
      }
    },
    400_000,
  );

  test(
    'two visits of one sheet side by side: turning one view turns the other',
    async ({ page }) => {
      const owner = await createUser();
      const project = await projectWithSheet(owner, uniqueName('School'));
      const sheet = project.maps[0];
      const march = await visitWithRooms(owner, { id_project: project.id, name: 'March', date: '2026-03-02', id_map: sheet.id }, [{ name: 'Hall in March' }]);
      const june = await visitWithRooms(owner, { id_project: project.id, name: 'June', date: '2026-06-15', id_map: sheet.id }, [{ name: 'Hall in June', hue: 4 }]);
      await placeRooms(owner, sheet.id, [
        { id: march.rooms[0].id, x: 400, y: 300 },
        { id: june.rooms[0].id, x: 410, y: 305 },
      ]);
      await signIn(page, { username: owner.user.username, password: owner.password });
      await expectSignedInLayout(page);

      await page.goto(`/visits/${project.id}`);
      await page.getByRole('link', { name: 'Compare: June' }).click();
      await page.waitForURL(new RegExp(`/compare/${sheet.id}`));
      const left = page.getByTestId('compare-pano-left');
      const right = page.getByTestId('compare-pano-right');
      await panoramaReady(left);
      await panoramaReady(right);
      expect(await page.getByTestId('compare-left').textContent()).toContain('Hall in');
      expect(await page.getByTestId('compare-right').textContent()).toContain('Hall in');

      // The left side is turned by hand; the right one follows to the same direction.
      await dragView(page, left, -250);
      await expect.poll(() => yawOf(left), SLOW).not.toBeNaN();
      const turned = await yawOf(left);
      expect(angleGap(turned, 0)).toBeGreaterThan(0.1);
      await expect.poll(async () => angleGap(await yawOf(right), await yawOf(left)), SLOW).toBeLessThan(0.02);

      // And the other way round.
      await dragView(page, right, 300);
      await expect.poll(async () => angleGap(await yawOf(right), turned), SLOW).toBeGreaterThan(0.1);
      await expect.poll(async () => angleGap(await yawOf(left), await yawOf(right)), SLOW).toBeLessThan(0.02);

      // The date picker of a side chooses the visit nearest the day.
      expect(await page.getByTestId('compare-right').locator('select option:checked').textContent()).toContain('March');
      await page.getByTestId('compare-right').getByLabel('Date of the visit').fill('2026-06-20');
      await expect.poll(() => page.getByTestId('compare-right').locator('select option:checked').textContent(), EVENTUALLY).toContain('June');
      await saveScreenshot(page, 'visits--compare');
    },
    400_000,
  );

  test(
    'comparing two dates of a sheet walked more than a hundred times: every visit can be picked on either side',
    async ({ page }) => {
      const owner = await createUser();
      const project = await projectWithSheet(owner, uniqueName('Busy tower'));
      const sheet = project.maps[0];
      const day = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      // 130 visits of the sheet (more than the API's largest page of 100), a few at a time: the test server's pool is small.
      for (let from = 0; from < 130; from += 5) {
        await Promise.all(
          Array.from({ length: 5 }, (_, j) =>
            api().post('/api/visits').set(owner.auth).send({ id_project: project.id, name: `Walk ${from + j + 1}`, date: day(from + j), id_map: sheet.id }).expect(201),
          ),
        );
      }
      await signIn(page, { username: owner.user.username, password: owner.password });
      await expectSignedInLayout(page);

      await page.goto(`/compare/${sheet.id}`);
      const left = page.getByTestId('compare-left');
      const right = page.getByTestId('compare-right');
      // Both pickers offer all 130 visits, and the default pair is the two newest (beyond the first hundred).
      await expect.poll(() => left.locator('select option').count(), EVENTUALLY).toBe(130);
      expect(await right.locator('select option').count()).toBe(130);
      expect(await left.locator('select option:checked').textContent()).toContain('Walk 129');
      expect(await right.locator('select option:checked').textContent()).toContain('Walk 130');
      await expect.poll(() => left.getByTestId('compare-no-room').textContent(), EVENTUALLY).toBe('No room of this visit is placed on this sheet.');

      // The oldest date on one side, a date in the middle on the other (nearest visit), and a pick from the list.
      await left.getByLabel('Date of the visit').fill(day(0));
      await expect.poll(() => left.locator('select option:checked').textContent(), EVENTUALLY).toMatch(/— Walk 1$/);
      await right.getByLabel('Date of the visit').fill(day(104));
      await expect.poll(() => right.locator('select option:checked').textContent(), EVENTUALLY).toContain('Walk 105');
      await right.locator('select').selectOption({ label: (await right.locator('select option').nth(115).textContent())! });
      await expect.poll(() => right.locator('select option:checked').textContent(), EVENTUALLY).toContain('Walk 116');
      // The choice is in the address: a reload keeps both sides.
      await page.reload();
      await expect.poll(() => right.locator('select option:checked').textContent(), EVENTUALLY).toContain('Walk 116');
      expect(await left.locator('select option:checked').textContent()).toMatch(/— Walk 1$/);
    },
    400_000,
  );

  test(
    'a project with more visits than one page: page links, the page kept in the address, and every project in the chooser beyond the first hundred',
    async ({ page }) => {
      const owner = await createUser();
      const project = await newProject(owner, { name: uniqueName('Aaa Busy site') });
      const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      // 45 visits (pages of 20: 20, 20, 5) and 101 more projects, through the API.
      // A few at a time: the test server's database pool is small.
      for (let from = 0; from < 45; from += 5) {
        await Promise.all(
          Array.from({ length: 5 }, (_, j) => api().post('/api/visits').set(owner.auth).send({ id_project: project.id, name: `Walk ${from + j + 1}`, date: day(from + j) }).expect(201)),
        );
      }
      for (let from = 0; from < 101; from += 5) {
        await Promise.all(Array.from({ length: Math.min(5, 101 - from) }, (_, j) => newProject(owner, { name: `Zz project ${String(from + j + 1).padStart(3, '0')}` })));
      }
      await signIn(page, { username: owner.user.username, password: owner.password });
      await expectSignedInLayout(page);

      await page.goto(`/visits/${project.id}`);
      const rows = page.getByTestId('visit-row');
      await expect.poll(() => rows.count(), EVENTUALLY).toBe(20);
      expect(await page.getByTestId('visits-count').textContent()).toBe('45 visits');
      expect(await page.getByTestId('visit-name').first().textContent()).toBe('Walk 45');
      const pages = page.getByRole('navigation', { name: 'Pages' });
      await pages.getByRole('button', { name: 'Page 3' }).click();
      await page.waitForURL((url) => url.search === '?page=3');
      await expect.poll(() => page.getByTestId('visit-name').allTextContents(), EVENTUALLY).toEqual(['Walk 5', 'Walk 4', 'Walk 3', 'Walk 2', 'Walk 1']);
      expect(await pages.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
      await saveScreenshot(page, 'visits--third-page');
      // A reload stays on the page; Previous goes back one.
      await page.reload();
      await expect.poll(() => rows.count(), EVENTUALLY).toBe(5);
      expect(await pages.getByRole('button', { name: 'Page 3' }).getAttribute('aria-current')).toBe('page');
      await pages.getByRole('button', { name: 'Previous page' }).click();
      await expect.poll(() => page.getByTestId('visit-name').first().textContent(), EVENTUALLY).toBe('Walk 25');
      expect(await rows.count()).toBe(20);
      // An address past the last page shows the last page.
      await page.goto(`/visits/${project.id}?page=9`);
      await page.waitForURL((url) => url.search === '?page=3');
      await expect.poll(() => rows.count(), EVENTUALLY).toBe(5);

      // The chooser offers all 102 projects (and "All projects"), not the first hundred.
      const chooser = page.getByLabel('Project', { exact: true });
      await expect.poll(() => chooser.locator('option').count(), EVENTUALLY).toBe(103);
      expect(await chooser.locator('option').last().textContent()).toBe('Zz project 101');
    },
    400_000,
  );

  test(
    'the visit screens fit a 360 px phone in English and in Arabic',
    async ({ page, browser, baseUrl }) => {
      const owner = await createUser();
      const project = await projectWithSheet(owner, uniqueName('Narrow'));
      const sheet = project.maps[0];
      const visit = await visitWithRooms(owner, { id_project: project.id, name: 'A visit with a rather long name to wrap on a phone', id_map: sheet.id }, [{ name: 'Only room' }]);
      const later = await visitWithRooms(owner, { id_project: project.id, name: 'Later', date: '2030-01-01', id_map: sheet.id }, [{ name: 'Same room later', hue: 5 }]);
      await placeRooms(owner, sheet.id, [
        { id: visit.rooms[0].id, x: 300, y: 200 },
        { id: later.rooms[0].id, x: 310, y: 200 },
      ]);
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
        const paths = [`/visits/${project.id}`, '/visits', `/editvisit/${visit.id}`, `/visittour/${visit.id}`, `/visitsheet/${visit.id}`, `/compare/${sheet.id}`, `/viewer/${visit.code}`];
        for (const lang of ['en', 'ar']) {
          await p.evaluate((l) => {
            sessionStorage.setItem('language', l);
            localStorage.setItem('ls_language', l);
          }, lang);
          for (const path of paths) {
            await p.goto(path);
            await expect.poll(() => p.evaluate(() => document.documentElement.getAttribute('dir')), EVENTUALLY).toBe(lang === 'ar' ? 'rtl' : 'ltr');
            await expect.poll(() => p.locator('.spinner-border').count(), SLOW).toBe(0);
            await p.locator('[data-testid$="-page"]').first().waitFor();
            // The screen itself (the shared top bar is not part of these screens): nothing sticks out or scrolls sideways.
            // null while the screen is being swapped in (a fade or a room change replaces the page node).
            const measure = () => p.evaluate(() => {
              const root = document.querySelector<HTMLElement>('[data-testid$="-page"]');
              if (!root) return null;
              let over = 0;
              for (const el of [root, ...root.querySelectorAll<HTMLElement>('*')]) {
                // Leaflet and the 360 view clip their own panes and canvas.
                if (el.parentElement?.closest('.leaflet-container, .psv-container')) continue;
                const r = el.getBoundingClientRect();
                if (r.width === 0 || r.height === 0) continue;
                over = Math.max(over, Math.ceil(r.right - window.innerWidth), Math.ceil(-r.left));
              }
              return over;
            });
            await expect
              .poll(measure, { ...SLOW, message: `${path} in ${lang}: px beyond the screen` })
              .toBe(0)
              .catch(async (err: unknown) => {
                await saveScreenshot(p, `visits--too-wide-${lang}-${path}`);
                throw err;
              });
          }
        }
        await saveScreenshot(p, 'visits--phone-arabic-viewer');
      } finally {
        await phone.close();
      }
    },
    400_000,
  );
});
