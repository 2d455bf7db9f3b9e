import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { saveScreenshot, test } from './browser.js';
import { createUser, uniqueName } from './support/backend.js';
import { ACTION_TIMEOUT, EVENTUALLY, expectSignedInLayout, signIn } from './support/ui.js';
import { panorama, placeRooms, projectWithSheet, visitWithRooms } from './support/visits-fixtures.js';
import { addMember, newProject } from '../api/test/project-helpers.js';
import { api } from '../api/test/helpers.js';

/** Tiling and WebGL on a loaded two-core machine take their time. */
const SLOW = { timeout: 120_000, interval: 250 } as const;

const toasts = (page: Page) => page.locator('.Toastify').innerText();

describe('the snag list', () => {
  test(
    'a supervisor pins a snag in the 360 view and sees it on the sheet; the assignee moves it to in progress from /snaglist in another browser and the first updates live',
    async ({ page, browser, baseUrl }) => {
      const owner = await createUser();
      const worker = await createUser({ first_name: 'Sara', last_name: 'Haddad' });
      const project = await projectWithSheet(owner, uniqueName('Harbour Tower'));
      await addMember(project.id, worker, 'editor');
      const sheet = project.maps[0];
      const visit = await visitWithRooms(owner, { id_project: project.id, name: 'Level 1 walk', id_map: sheet.id }, [{ name: 'Lobby' }]);
      await placeRooms(owner, sheet.id, [{ id: visit.rooms[0].id, x: 400, y: 300 }]);

      // The supervisor, in the viewer: "Add a snag", a click on the defect, the form.
      await signIn(page, { username: owner.user.username, password: owner.password });
      await expectSignedInLayout(page);
      await page.goto(`/viewer/${visit.code}`);
      const pano = page.getByTestId('panorama');
      await expect.poll(() => pano.getAttribute('data-pano-state'), SLOW).toBe('ready');
      await page.getByTestId('viewer-add-snag').click();
      await expect.poll(() => page.getByTestId('snag-add-hint').isVisible(), EVENTUALLY).toBe(true);
      const box = (await pano.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.6);
      const panel = page.getByTestId('snag-panel');
      await expect.poll(() => panel.isVisible(), EVENTUALLY).toBe(true);
      await panel.getByLabel('Title').fill('Cracked floor tile');
      await panel.getByLabel('Description').fill('Two tiles by the door.');
      await panel.getByLabel('Priority').selectOption('high');
      await expect.poll(() => panel.getByLabel('Assignee').locator('option').allTextContents(), EVENTUALLY).toContain('Sara Haddad');
      await panel.getByLabel('Assignee').selectOption({ label: 'Sara Haddad' });
      await panel.getByRole('button', { name: 'Create snag' }).click();
      await expect.poll(() => toasts(page), EVENTUALLY).toContain('Snag created.');
      // A photo of the defect, attached to the saved snag.
      await panel.getByTestId('snag-file-input').setInputFiles({ name: 'crack.jpg', mimeType: 'image/jpeg', buffer: await panorama('Crack', 1024) });
      await expect.poll(() => toasts(page), EVENTUALLY).toContain('File uploaded.');
      await expect.poll(() => panel.getByTestId('snag-file').allTextContents(), EVENTUALLY).toEqual(['crack.jpg']);

      // Its pin in the 360 view and on the floor sheet, red for open.
      await expect.poll(() => pano.getByTestId('pano-snag').count(), EVENTUALLY).toBe(1);
      expect(await pano.getByTestId('pano-snag').getAttribute('class')).toContain('sw-snag-open');
      const sheetPin = page.getByTestId('viewer-sheet').getByTestId('sheet-snag');
      await expect.poll(() => sheetPin.count(), EVENTUALLY).toBe(1);
      expect(await sheetPin.getAttribute('data-status')).toBe('open');
      await saveScreenshot(page, 'snaglist--viewer-pin');

      // The assignee, in a second browser: the snag is on their list, assigned to them.
      const other = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-US' });
      await other.addInitScript(() => localStorage.setItem('onboardingCompleted', 'true'));
      try {
        const second = await other.newPage();
        second.setDefaultTimeout(ACTION_TIMEOUT);
        await signIn(second, { username: worker.user.username, password: worker.password });
        await expectSignedInLayout(second);
        await second.goto('/snaglist');
        await second.getByTestId('snag-filter-assignee').selectOption('me');
        await second.getByTestId('snag-filter-project').selectOption({ label: project.name });
        await expect.poll(() => second.getByTestId('snag-filter-sheet').locator('option').allTextContents(), EVENTUALLY).toContain(sheet.name);
        await second.getByTestId('snag-filter-sheet').selectOption({ label: sheet.name });
        const row = second.getByTestId('snag-row').filter({ hasText: 'Cracked floor tile' });
        await expect.poll(() => row.count(), EVENTUALLY).toBe(1);
        expect(await row.getAttribute('data-status')).toBe('open');
        expect(await second.getByTestId('snag-count-open').getByTestId('snag-count').textContent()).toBe('1');

        // Quick view: the snapshot of the room, then the status moves to "In progress".
        await row.getByTestId('snag-quick').click();
        const quick = second.getByTestId('snag-panel');
        await expect.poll(() => quick.getByLabel('Title').inputValue(), EVENTUALLY).toBe('Cracked floor tile');
        await expect.poll(() => second.getByTestId('snag-snapshot').isVisible(), EVENTUALLY).toBe(true);
        await expect.poll(() => quick.getByTestId('snag-file').allTextContents(), EVENTUALLY).toEqual(['crack.jpg']);
        await quick.getByLabel('Status').selectOption('in_progress');
        await quick.getByLabel('Comment').fill('Tiler booked for Monday.');
        await quick.getByRole('button', { name: 'Save' }).click();
        await expect.poll(() => toasts(second), EVENTUALLY).toContain('Snag updated.');
        await expect.poll(() => row.getAttribute('data-status'), EVENTUALLY).toBe('in_progress');
        await expect.poll(() => second.getByTestId('snag-count-in_progress').getByTestId('snag-count').textContent(), EVENTUALLY).toBe('1');
        await saveScreenshot(second, 'snaglist--assignee-list');

        // The supervisor's viewer follows without a reload: both pins turn to "in progress".
        await expect.poll(() => sheetPin.getAttribute('data-status'), EVENTUALLY).toBe('in_progress');
        await expect.poll(() => pano.getByTestId('pano-snag').getAttribute('class'), EVENTUALLY).toContain('sw-snag-in_progress');
        await expect.poll(() => page.getByTestId('snag-panel-status').textContent(), EVENTUALLY).toBe('In progress');
        await expect.poll(() => page.getByTestId('snag-history').textContent(), EVENTUALLY).toContain('Tiler booked for Monday.');

        // The deep link opens the defect in the 360 view with its panel.
        await second.keyboard.press('Escape');
        await row.getByRole('link', { name: 'Open Cracked floor tile in the 360 view' }).click();
        await second.waitForURL(new RegExp(`/viewer/${visit.code}/${visit.rooms[0].id}\\?snag=\\d+$`));
        await expect.poll(() => second.getByTestId('snag-panel').getAttribute('data-snag'), SLOW).toMatch(/^\d+$/);
        await expect.poll(() => second.getByTestId('snag-panel').getByLabel('Title').inputValue(), EVENTUALLY).toBe('Cracked floor tile');

        // The sheet screen shows the pin too; a click opens its panel.
        await second.goto(`/sheet/${sheet.id}`);
        const pin = second.getByTestId('sheet-map').getByTestId('sheet-snag');
        await expect.poll(() => pin.count(), EVENTUALLY).toBe(1);
        expect(await pin.getAttribute('data-status')).toBe('in_progress');
        await pin.click();
        await expect.poll(() => second.getByTestId('snag-panel').getByLabel('Title').inputValue(), EVENTUALLY).toBe('Cracked floor tile');
        // The panel lies over the plan, not under it: what is on top at its title field is the field itself.
        const onTop = await second.getByTestId('snag-panel').getByLabel('Title').evaluate((el) => {
          const r = el.getBoundingClientRect();
          return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
        });
        expect(onTop).toBe(true);
        await saveScreenshot(second, 'snaglist--sheet-panel');
      } finally {
        await other.close();
      }
    },
  );

  test('the filters live in the address (a reload keeps them), and the chosen snags move to a status together', async ({ page }) => {
    const owner = await createUser();
    const project = await newProject(owner, { name: uniqueName('Quay House') });
    const visit = await api().post('/api/visits').set(owner.auth).send({ id_project: project.id, name: 'Roof walk', date: '2026-03-02' });
    expect(visit.status).toBe(201);
    for (const title of ['Loose handrail', 'Missing exit sign']) {
      expect((await api().post('/api/annotations').set(owner.auth).send({ id_visit: visit.body.data.id, title })).status).toBe(201);
    }
    await signIn(page, { username: owner.user.username, password: owner.password });
    await expectSignedInLayout(page);

    // A shared link with a filter shows it chosen; nothing matches, and one click clears it.
    await page.goto('/snaglist?priority=critical');
    await expect.poll(() => page.getByTestId('snaglist-empty').textContent(), EVENTUALLY).toContain('No snags match these filters.');
    expect(await page.getByTestId('snag-filter-priority').inputValue()).toBe('critical');
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await expect.poll(() => page.getByTestId('snag-row').count(), EVENTUALLY).toBe(2);
    expect(new URL(page.url()).search).toBe('');

    // Both chosen, moved to "In progress" at once.
    await page.getByLabel('Select every snag on this page').check();
    await page.getByTestId('snag-bulk-status').selectOption('in_progress');
    await page.getByTestId('snag-bulk-apply').click();
    await expect.poll(() => toasts(page), EVENTUALLY).toContain('2 snags moved to In progress.');
    await expect.poll(() => page.getByTestId('snag-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status'))), EVENTUALLY).toEqual(['in_progress', 'in_progress']);
    expect(await page.getByTestId('snag-bulk').count()).toBe(0);

    // A status chip goes into the address and is still chosen after a reload.
    await page.getByTestId('snag-count-open').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('status'), EVENTUALLY).toBe('open');
    await expect.poll(() => page.getByTestId('snaglist-empty').isVisible(), EVENTUALLY).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByTestId('snag-count-open').getAttribute('aria-pressed'), EVENTUALLY).toBe('true');
    await expect.poll(() => page.getByTestId('snag-count-in_progress').getByTestId('snag-count').textContent(), EVENTUALLY).toBe('2');
  });

  test('an empty snag list explains where snags come from', async ({ page }) => {
    const me = await createUser();
    await signIn(page, { username: me.user.username, password: me.password });
    await expectSignedInLayout(page);
    await page.goto('/snaglist');
    await expect.poll(() => page.getByTestId('snaglist-empty').isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByTestId('snaglist-empty').textContent()).toContain('No snags yet.');
    expect(await page.title()).toContain('Snag list');
  });
});
