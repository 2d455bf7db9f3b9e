import { describe, expect } from 'vitest';
import { test } from './browser.js';
import { withSettings } from './support/backend.js';
import { EVENTUALLY, loginForm } from './support/ui.js';

const notFound = (page: import('playwright-core').Page) => page.getByRole('heading', { level: 1, name: 'Page not found' });

describe('public routes', () => {
  test('the root address opens the sign-in screen', async ({ page }) => {
    await page.goto('/');
    await page.waitForURL('**/login');
    await expect.poll(() => loginForm(page).submit.isVisible(), EVENTUALLY).toBe(true);
  });

  test('an unknown address shows the 404 page with a way back to sign in', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect.poll(() => notFound(page).isVisible(), EVENTUALLY).toBe(true);
    await page.getByRole('link', { name: 'Go to sign in' }).click();
    await page.waitForURL('**/login');
  });

  test('/register exists only while registration is open', async ({ page }) => {
    await page.goto('/register');
    await expect.poll(() => notFound(page).isVisible(), EVENTUALLY).toBe(true);
    // The tab says what is shown, not the title of the screen that is turned off.
    await expect.poll(() => page.title(), EVENTUALLY).toMatch(/^Page not found \| /);
    await withSettings({ enable_registration: true }, async () => {
      // Browsers keep the settings for an hour (SPEC §4); a new visitor has none yet.
      await page.evaluate(() => localStorage.clear());
      await page.goto('/register');
      await expect.poll(() => page.getByRole('button', { name: 'Create account' }).isVisible(), EVENTUALLY).toBe(true);
      expect(await notFound(page).count()).toBe(0);
      await expect.poll(() => page.title(), EVENTUALLY).toMatch(/^Create an account \| /);
    });
  });

  test('/recover and the "Forgot your password?" link exist only while the mail server is verified', async ({ page }) => {
    await withSettings({ smtp_valid: false }, async () => {
      await page.goto('/recover');
      await expect.poll(() => notFound(page).isVisible(), EVENTUALLY).toBe(true);
      await page.goto('/login');
      await loginForm(page).submit.waitFor();
      expect(await page.getByRole('link', { name: 'Forgot your password?' }).count()).toBe(0);
    });
  });
});
