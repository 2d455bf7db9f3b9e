import { describe, expect } from 'vitest';
import { test } from './browser.js';
import { createUser, withSettings } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, signIn } from './support/ui.js';

describe('profile completeness', () => {
  test('a user without a mandatory last name is held on /editprofile until they give one', async ({ page }) => {
    await withSettings({ last_name_enable: true, last_name_mandatory: true }, async () => {
      const { user, password } = await createUser({ last_name: '' });
      await signIn(page, { username: user.username, password });
      await page.waitForURL('**/editprofile');
      await expectSignedInLayout(page);
      const notice = page.getByRole('alert').filter({ hasText: 'Missing fields' });
      await expect.poll(() => notice.textContent(), EVENTUALLY).toContain('Last name');

      // Every other signed-in screen sends them back here.
      await page.goto('/notifications');
      await page.waitForURL('**/editprofile');
      await page.goto('/dashboard');
      await page.waitForURL('**/editprofile');

      await page.getByLabel(/^Last name/).fill('Lovelace');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => page.getByText('Profile updated successfully!').isVisible(), EVENTUALLY).toBe(true);
      await expect.poll(() => notice.count(), EVENTUALLY).toBe(0);

      await page.goto('/dashboard');
      await expectSignedInLayout(page);
      await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).isVisible(), EVENTUALLY).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/dashboard');
    });
  });

  test('with last name optional, the same user goes straight to the dashboard', async ({ page }) => {
    const { user, password } = await createUser({ last_name: '' });
    await signIn(page, { username: user.username, password });
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).isVisible(), EVENTUALLY).toBe(true);
  });

  test('the dashboard greets a user without a first name by their username', async ({ page }) => {
    await withSettings({ first_name_mandatory: false }, async () => {
      const { user, password } = await createUser({ first_name: '' });
      await signIn(page, { username: user.username, password });
      await page.waitForURL('**/dashboard');
      await expect.poll(() => page.getByRole('heading', { name: `Welcome, ${user.username}` }).isVisible(), EVENTUALLY).toBe(true);
    });
  });
});

describe('changing one\'s own password', () => {
  test('a mismatched confirmation is refused in place; a matching one changes the password for the next sign-in', async ({ page, context }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    await page.waitForURL('**/dashboard');
    await page.goto('/editprofile');
    const section = page.getByRole('region', { name: 'Change password' });
    await section.getByLabel(/^Current password/).fill(password);
    await section.getByLabel(/^New password/).fill('a brand new secret');
    await section.getByLabel(/^Confirm new password/).fill('something else');
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => section.getByText('The passwords do not match.').isVisible(), EVENTUALLY).toBe(true);

    // Typing in the confirmation clears its error.
    await section.getByLabel(/^Confirm new password/).fill('a brand new secret');
    await expect.poll(() => section.getByText('The passwords do not match.').count(), EVENTUALLY).toBe(0);
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByText('The password has been changed.').isVisible(), EVENTUALLY).toBe(true);

    const fresh = await context.browser()!.newContext();
    await fresh.addInitScript(() => localStorage.setItem('onboardingCompleted', 'true'));
    const other = await fresh.newPage();
    await other.goto(new URL('/login', page.url()).toString());
    await signIn(other, { username: user.username, password: 'a brand new secret' });
    await other.waitForURL('**/dashboard');
    await fresh.close();
  });
});

describe('the onboarding tour', () => {
  test("closing the tour asks with the app's own dialog, never the browser's: continuing keeps the tour, stopping ends it", async ({ page }) => {
    await withSettings({ enable_wizard: true }, async () => {
      const nativeDialogs: string[] = [];
      page.on('dialog', (d) => {
        nativeDialogs.push(d.message());
        void d.dismiss();
      });
      const { user, password } = await createUser();
      await signIn(page, { username: user.username, password });
      await expectSignedInLayout(page);
      await page.getByTestId('tour-button').click();
      const step = page.locator('.shepherd-element');
      await expect.poll(() => step.isVisible(), EVENTUALLY).toBe(true);

      await step.getByRole('button', { name: 'Close the tour' }).click();
      const ask = page.getByRole('dialog', { name: 'Stop the tour?' });
      await expect.poll(() => ask.isVisible(), EVENTUALLY).toBe(true);
      expect(await ask.textContent()).toContain('Are you sure you want to stop the tour?');
      await ask.getByRole('button', { name: 'Continue the tour' }).click();
      await expect.poll(() => ask.count(), EVENTUALLY).toBe(0);
      expect(await step.isVisible()).toBe(true);

      await step.getByRole('button', { name: 'Close the tour' }).click();
      await expect.poll(() => ask.isVisible(), EVENTUALLY).toBe(true);
      await ask.getByRole('button', { name: 'Stop the tour', exact: true }).click();
      await expect.poll(() => page.locator('.shepherd-element').count(), EVENTUALLY).toBe(0);
      await expect.poll(() => ask.count(), EVENTUALLY).toBe(0);
      expect(nativeDialogs).toEqual([]);
    });
  });
});
