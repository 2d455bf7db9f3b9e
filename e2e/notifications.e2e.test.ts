import { describe, expect } from 'vitest';
import { notice, withoutIsolates } from '@sitewalk/proto';
import { test } from './browser.js';
import { createUser, notifyUser } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, signIn } from './support/ui.js';

describe('live notifications', () => {
  test('a notification the server sends appears in the top-bar badge and dropdown without a reload', async ({ page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    await expectSignedInLayout(page);
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await bell.waitFor();
    // Nothing unread yet: no badge.
    await expect.poll(() => bell.locator('.badge').count(), EVENTUALLY).toBe(0);
    // A marker in the page's memory: it is gone if the page reloads.
    await page.evaluate(() => ((window as unknown as { e2eMarker: string }).e2eMarker = 'still here'));

    await notifyUser(user.id, { kind: 'sheets_ready', title: 'Sheets are ready', message: 'Your plan set became 3 sheets.', type: 'success', email: false });

    await expect.poll(() => bell.locator('.badge').textContent().catch(() => null), EVENTUALLY).toMatch(/^1\b/);
    expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('still here');

    await bell.click();
    const item = page.getByRole('button', { name: /Sheets are ready/ });
    await expect.poll(() => item.isVisible(), EVENTUALLY).toBe(true);
    expect(await item.textContent()).toContain('Your plan set became 3 sheets.');
    expect(await page.getByRole('button', { name: 'See All Notifications' }).isVisible()).toBe(true);

    // A second one raises the count again.
    await notifyUser(user.id, { kind: 'account', title: 'Second notice', message: 'Another one.', type: 'info', email: false });
    await expect.poll(() => bell.locator('.badge').textContent().catch(() => null), EVENTUALLY).toMatch(/^2\b/);

    // "See All Notifications" leads to the full list and closes the dropdown instead of leaving it over the page.
    await page.getByRole('button', { name: 'See All Notifications' }).click();
    await page.waitForURL(/\/notifications$/);
    await expect.poll(() => page.locator('.sw-notifications-menu').isVisible(), EVENTUALLY).toBe(false);
    expect(await bell.getAttribute('aria-expanded')).toBe('false');
  });

  test('a notification reads in the language the screen shows, its names and date isolated, and follows a language switch', async ({ page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    await expectSignedInLayout(page);
    await page.getByTestId('language-switcher').click();
    await page.getByRole('button', { name: 'العربية' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dir), EVENTUALLY).toBe('rtl');

    // Sent as keys and values, the way the server's features notify.
    await notifyUser(user.id, {
      kind: 'visit_created',
      ...notice('visitCreated', { by: 'Rania', visit: 'Roof plan A-105', date: { day: '2026-11-28' }, project: 'Amman, Jordan' }),
      link: '/visits',
      email: false,
    });
    const bell = page.getByTestId('notifications-toggle');
    await expect.poll(() => bell.locator('.badge').textContent().catch(() => null), EVENTUALLY).toMatch(/^1\b/);
    await bell.click();
    const item = page.locator('.sw-notification-item').first();
    await expect.poll(() => item.textContent(), EVENTUALLY).toContain('زيارة جديدة');
    const message = item.locator('.sw-notification-message');
    const arabic = (await message.textContent()) ?? '';
    // Arabic words around English names, each name (and the date) its own isolated run: "Amman, Jordan" keeps its comma, nothing swaps sides.
    expect(arabic).toMatch(/^أضاف \u2068Rania\u2069 الزيارة «\u2068Roof plan A-105\u2069» \(\u2068[^\u2069]+\u2069\) إلى «\u2068Amman, Jordan\u2069»\.$/);
    expect(arabic).not.toContain('2026-11-28');
    expect(await message.getAttribute('dir')).toBe('auto');

    // The same notification, without a reload, in English once the screen is.
    await page.keyboard.press('Escape');
    await page.getByTestId('language-switcher').click();
    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dir), EVENTUALLY).toBe('ltr');
    await bell.click();
    await expect.poll(async () => withoutIsolates((await message.textContent()) ?? ''), EVENTUALLY).toBe('Rania added the visit "Roof plan A-105" (Nov 28, 2026) to "Amman, Jordan".');
    expect(await item.locator('.fw-semibold').textContent()).toBe('New visit');
    await page.getByRole('button', { name: 'See All Notifications' }).click();
    await page.waitForURL(/\/notifications$/);
    await expect.poll(async () => withoutIsolates((await page.getByTestId('notification-item').first().textContent()) ?? ''), EVENTUALLY).toContain('Rania added the visit "Roof plan A-105" (Nov 28, 2026)');
  });
});
