import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { saveScreenshot, test } from './browser.js';
import { createUser } from './support/backend.js';
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
