import { describe, expect } from 'vitest';
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
  });
});
