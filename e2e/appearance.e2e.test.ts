import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { saveScreenshot, test } from './browser.js';
import { notice, withoutIsolates } from '@sitewalk/proto';
import { getSettings } from '@sitewalk/core/services/settings.service.js';
import { createUser, notifyUser, waitForMail, withSettings } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, sidebar, signIn } from './support/ui.js';

const ARABIC_SCRIPT = /[\u0600-\u06FF]/;

/** Where the sidebar and the main column sit, left to right. */
async function columns(page: Page) {
  const side = await page.getByRole('complementary').boundingBox();
  const main = await page.getByRole('main').boundingBox();
  if (!side || !main) throw new Error('the sidebar or the main column is not on screen');
  return { side, main };
}

const htmlAttr = (page: Page, name: string) => page.evaluate((n) => document.documentElement.getAttribute(n), name);

async function signedInDashboard(page: Page) {
  const { user, password } = await createUser();
  await signIn(page, { username: user.username, password });
  await page.waitForURL('**/dashboard');
  await expectSignedInLayout(page);
  return user;
}

describe('Arabic', () => {
  test('switching to Arabic turns the page right-to-left and mirrors the layout', async ({ page }) => {
    await signedInDashboard(page);
    expect(await htmlAttr(page, 'dir')).toBe('ltr');
    const before = await columns(page);
    expect(before.side.x).toBeLessThan(before.main.x);

    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('button', { name: 'العربية' }).click();

    await expect.poll(() => htmlAttr(page, 'dir'), EVENTUALLY).toBe('rtl');
    expect(await htmlAttr(page, 'lang')).toBe('ar');
    expect(await page.evaluate(() => document.body.classList.contains('rtl'))).toBe(true);
    // Mirrored: the sidebar now sits to the right of the main column.
    await expect.poll(async () => {
      const { side, main } = await columns(page);
      return side.x >= main.x + main.width - 1;
    }, EVENTUALLY).toBe(true);
    // The interface speaks Arabic: the page title in the top bar is in Arabic script.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), EVENTUALLY).toMatch(ARABIC_SCRIPT);
    await saveScreenshot(page, 'arabic-rtl-dashboard');

    // The choice survives a reload.
    await page.reload();
    await expectSignedInLayout(page);
    await expect.poll(() => htmlAttr(page, 'dir'), EVENTUALLY).toBe('rtl');
  });

  test('the sidebar menu is in Arabic too', async ({ page }) => {
    await signedInDashboard(page);
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('button', { name: 'العربية' }).click();
    await expect.poll(() => htmlAttr(page, 'dir'), EVENTUALLY).toBe('rtl');
    const labels = (await sidebar(page).getByRole('link').allTextContents()).map((s) => s.trim());
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(label).toMatch(ARABIC_SCRIPT);
  });
});

describe('dark mode', () => {
  test('the dark-mode toggle turns the theme dark, keeps it after a reload, and turns it back', async ({ page }) => {
    await signedInDashboard(page);
    expect(await htmlAttr(page, 'data-bs-theme')).toBe('light');
    const toggle = page.getByRole('button', { name: 'Dark mode' });
    await toggle.click();
    await expect.poll(() => htmlAttr(page, 'data-bs-theme'), EVENTUALLY).toBe('dark');
    // The page really is dark: the body background is no longer white.
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(255, 255, 255)');

    await page.reload();
    await expectSignedInLayout(page);
    await expect.poll(() => htmlAttr(page, 'data-bs-theme'), EVENTUALLY).toBe('dark');

    await page.getByRole('button', { name: 'Dark mode' }).click();
    await expect.poll(() => htmlAttr(page, 'data-bs-theme'), EVENTUALLY).toBe('light');
  });
});

describe('the site\'s own name', () => {
  test('after a rename, a returning browser shows the new name on its first load, and the tour, notifications and their mails use it', async ({ page }) => {
    const user = await signedInDashboard(page);
    const brand = page.locator('.sw-brand');
    const oldName = (await getSettings()).name;
    await expect.poll(() => brand.getAttribute('aria-label'), EVENTUALLY).toBe(oldName);

    await withSettings({ name: 'Abdali Works' }, async () => {
      // Back later within the settings cache's hour: a navigation, not a reload, so the cached copy is shown first.
      await page.goto('/projects');
      await expect.poll(() => brand.getAttribute('aria-label'), EVENTUALLY).toBe('Abdali Works');
      await expect.poll(() => page.title(), EVENTUALLY).toMatch(/ \| Abdali Works$/);
      expect(await page.getByRole('contentinfo').textContent()).toContain('Abdali Works');

      // A server-side notice names the site as it is now called, in the app and in its mail.
      await notifyUser(user.id, { kind: 'system', ...notice('mailWorks', { server: 'smtp.example.com:587' }), type: 'success', link: '/settings' });
      await page.getByTestId('notifications-toggle').click();
      const message = page.locator('.sw-notification-message').first();
      await expect.poll(async () => withoutIsolates((await message.textContent()) ?? ''), EVENTUALLY).toBe('Abdali Works can send e-mail through smtp.example.com:587.');
      const mail = await waitForMail(user.email, (m) => m.subject === 'Mail server works');
      expect(mail.text).toContain('The Abdali Works team');
      expect(mail.text).not.toContain(oldName === 'Abdali Works' ? '\0' : `The ${oldName} team`);
      await page.keyboard.press('Escape');

      // The onboarding tour welcomes to the renamed site.
      await page.getByTestId('tour-button').click();
      await expect.poll(() => page.getByText('Welcome to Abdali Works').isVisible(), EVENTUALLY).toBe(true);
    });
  });
});
