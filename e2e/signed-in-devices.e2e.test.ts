import { describe, expect } from 'vitest';
import { test } from './browser.js';
import { createUser } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, signIn } from './support/ui.js';

describe('signed-in devices', () => {
  test('the profile lists the devices, this one marked, and signing another out ends its session', async ({ browser, baseUrl, page }) => {
    const { user, password } = await createUser();
    const other = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-US', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1' });
    await other.addInitScript(() => localStorage.setItem('onboardingCompleted', 'true'));
    const phone = await other.newPage();
    try {
      await signIn(phone, { username: user.username, password });
      await expectSignedInLayout(phone);
      await signIn(page, { username: user.username, password });
      await expectSignedInLayout(page);

      await page.goto('/profile');
      const list = page.getByTestId('sessions').getByRole('listitem');
      // The two browsers, and the session the test helper made the account with.
      await expect.poll(() => list.count(), EVENTUALLY).toBe(3);
      expect(await list.first().textContent()).toContain('This device');
      const iphone = list.filter({ hasText: /Safari.*iOS/ });
      expect(await iphone.count()).toBe(1);
      expect(await iphone.textContent()).toContain('127.0.0.1');

      await iphone.getByRole('button', { name: /^Sign out on / }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Sign out' }).click();
      await expect.poll(() => list.count(), EVENTUALLY).toBe(2);
      expect(await iphone.count()).toBe(0);

      // The phone is signed out: it is sent to the sign-in page (at once, or at its next call).
      await phone.goto('/dashboard');
      await expect.poll(() => new URL(phone.url()).pathname, EVENTUALLY).toBe('/login');
    } finally {
      await other.close();
    }
  });

  test('a super admin signs a person out everywhere from Edit User: their open page goes to the sign-in at once', async ({ browser, baseUrl, page }) => {
    const { user, password } = await createUser({ first_name: 'Rania', last_name: 'Haddad' });
    const admin = await createUser({ super_admin: true });
    const other = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await other.addInitScript(() => localStorage.setItem('onboardingCompleted', 'true'));
    const theirs = await other.newPage();
    try {
      await signIn(theirs, { username: user.username, password });
      await expectSignedInLayout(theirs);

      await signIn(page, { username: admin.user.username, password: admin.password });
      await expectSignedInLayout(page);
      await page.goto(`/edituser/${user.id}`);
      const card = page.getByTestId('sign-out-everywhere-card');
      await card.getByRole('button', { name: 'Sign out everywhere' }).click();
      const dialog = page.getByRole('dialog');
      expect(await dialog.textContent()).toContain('Every browser and app where Rania Haddad is signed in');
      await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
      await expect.poll(() => page.getByText('Rania Haddad is signed out on every device.').isVisible(), EVENTUALLY).toBe(true);

      // Their page is told live and leaves for the sign-in, without a click.
      await expect.poll(() => new URL(theirs.url()).pathname, EVENTUALLY).toBe('/login');
      // The administrator is still signed in.
      await page.reload();
      await expectSignedInLayout(page);
    } finally {
      await other.close();
    }
  });
});
