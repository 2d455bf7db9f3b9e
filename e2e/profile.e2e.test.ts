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
});
