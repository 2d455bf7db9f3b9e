import { describe, expect } from 'vitest';
import { test } from './browser.js';
import { getSettings } from '@sitewalk/core/services/settings.service.js';
import { admin, uniqueName, withSettings } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, signIn } from './support/ui.js';

/** The forms whose rules are proto's schemas say what to fix under each field, in words a person reads. */

describe('signing up', () => {
  test("the form says what to fix under each field in the server's words, clears a field's message as it changes, then creates the account", async ({ page }) => {
    await withSettings({ enable_registration: true, validate_email: false, captcha_register: false, city_enable: true, city_mandatory: true }, async () => {
      // Browsers keep the settings for an hour (SPEC §4); a new visitor has none yet.
      await page.goto('/login');
      await page.evaluate(() => localStorage.clear());
      await page.goto('/register');
      const form = page.getByRole('form', { name: 'Create an account' });
      await form.getByRole('button', { name: 'Create account' }).waitFor();

      await form.getByLabel(/^Username/).fill('ab');
      await form.getByLabel(/^E-mail/).fill('hala@');
      await form.getByLabel(/^Password/).fill('short');
      await form.getByLabel(/^Confirm password/).fill('other');
      await form.getByRole('button', { name: 'Create account' }).click();
      for (const message of [
        'Username must be at least 3 characters.',
        'Invalid email format',
        'First name is required',
        'This field is required.',
        'Password must be at least 8 characters.',
        'The passwords do not match.',
      ]) {
        await expect.poll(() => form.getByText(message, { exact: true }).isVisible(), EVENTUALLY).toBe(true);
      }

      // Changing a field clears its message, and only its own.
      const username = uniqueName('signup');
      await form.getByLabel(/^Username/).fill(username);
      await expect.poll(() => form.getByText('Username must be at least 3 characters.').count(), EVENTUALLY).toBe(0);
      expect(await form.getByText('Invalid email format').isVisible()).toBe(true);

      await form.getByLabel(/^E-mail/).fill(`${username}@example.test`);
      await form.getByLabel(/^First name/).fill('Hala');
      await form.getByLabel(/^City/).fill('Amman');
      await form.getByLabel(/^Password/).fill('a long passphrase');
      await form.getByLabel(/^Confirm password/).fill('a long passphrase');
      await form.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL('**/login');
      await expect.poll(() => page.getByRole('status').textContent(), EVENTUALLY).toMatch(/created/i);
    });
  });
});

describe('the settings screen', () => {
  test("a port out of range and a malformed sender address are said under their fields before anything is sent", async ({ page }) => {
    const stored = await getSettings();
    const a = admin();
    await signIn(page, { username: a.username, password: a.password });
    await expectSignedInLayout(page);
    await page.goto('/settings?tab=mail');
    const port = page.getByLabel('Port', { exact: true });
    await port.fill('70000');
    await page.getByLabel('Sender address', { exact: true }).fill('mail@');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByText('Enter a whole number from 1 to 65535.', { exact: true }).isVisible(), EVENTUALLY).toBe(true);
    expect(await page.getByText('Invalid email format', { exact: true }).isVisible()).toBe(true);
    const after = await getSettings();
    expect([after.smtp_port, after.smtp_from_email]).toEqual([stored.smtp_port, stored.smtp_from_email]);

    // A port in range clears its message; the address still holds the save back.
    await port.fill('2525');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByText('Enter a whole number from 1 to 65535.').count(), EVENTUALLY).toBe(0);
    expect(await page.getByText('Invalid email format', { exact: true }).isVisible()).toBe(true);
    expect((await getSettings()).smtp_port).toBe(stored.smtp_port);
    await page.getByRole('button', { name: 'Discard changes' }).click();
  });
});
