import { describe, expect } from 'vitest';
import { test } from './browser.js';
import { admin, createUser, withSettings } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, sidebar, signIn } from './support/ui.js';

describe('maintenance', () => {
  test('maintenance page seen by a user while the admin works', async ({ browser, baseUrl, page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    await expectSignedInLayout(page);

    const adminContext = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await adminContext.addInitScript(() => localStorage.setItem('onboardingCompleted', 'true'));
    const adminPage = await adminContext.newPage();
    try {
      await signIn(adminPage, admin());
      await expectSignedInLayout(adminPage);

      // Every address is outside maintenance_ip: only the signed-in super admin carries on.
      await withSettings({ maintenance_backend: true, maintenance_ip: '' }, async () => {
        const maintenance = page.getByTestId('maintenance-page');
        await expect
          .poll(async () => {
            await page.reload();
            return maintenance.isVisible();
          }, EVENTUALLY)
          .toBe(true);
        expect(await maintenance.textContent()).toContain('SiteWalk is down for maintenance. Please try again in a few minutes.');
        expect(await maintenance.textContent()).toContain('للصيانة');

        // The admin works on: moving through the app, and reloading a page.
        await sidebar(adminPage).getByRole('link', { name: 'Projects' }).click();
        await adminPage.waitForURL('**/projects');
        await expect.poll(() => adminPage.getByRole('heading', { level: 1, name: 'Projects' }).isVisible(), EVENTUALLY).toBe(true);
        await adminPage.reload();
        await expectSignedInLayout(adminPage);
        expect(await adminPage.getByTestId('maintenance-page').count()).toBe(0);

        // The sign-in page stays open, so an administrator can come in.
        await page.goto('/login');
        expect(await maintenance.count()).toBe(0);
      });

      // Maintenance over: the user's page is the app again.
      await expect
        .poll(async () => {
          await page.goto('/dashboard');
          return page.getByTestId('maintenance-page').count();
        }, EVENTUALLY)
        .toBe(0);
      await expectSignedInLayout(page);
    } finally {
      await adminContext.close();
    }
  });
});
