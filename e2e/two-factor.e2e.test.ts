import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { totpCodeAt } from '@sitewalk/core/two-factor-codes.js';
import { test } from './browser.js';
import { admin, createUser, withSettings } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, loginForm, signIn } from './support/ui.js';
import { seriousViolations, useLook } from './support/axe.js';

/** Ends the session through the user menu's Logout and its confirmation. */
async function logOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('dialog', { name: 'Ready to Leave?' }).getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
}

/** The password step of a sign-in while the site requires two-factor: the screen then asks for the code, or for its setup. */
async function passwordStep(page: Page, username: string, password: string, next: 'code' | 'setup' = 'code') {
  const form = loginForm(page);
  await form.username.fill(username);
  await form.password.fill(password);
  await form.submit.click();
  if (next === 'code') await page.getByRole('button', { name: 'Verify' }).waitFor();
  else await page.getByTestId('two-factor-secret').waitFor();
}

describe('two-factor sign-in', () => {
  test('a session that began before the site required it is told on the profile, with the setup at hand', async ({ page }) => {
    await withSettings({ '2fa_enable': false }, async () => {
      const { user, password } = await createUser();
      await signIn(page, { username: user.username, password });
      await expectSignedInLayout(page);
      await withSettings({ '2fa_enable': true }, async () => {
        await page.goto('/profile');
        const required = page.getByTestId('two-factor-card').getByTestId('two-factor-required');
        await expect.poll(() => required.isVisible(), EVENTUALLY).toBe(true);
        expect(await required.textContent()).toBe('Your administrator requires two-step verification for every account. Set it up now, or your next sign-in will ask you to.');
        expect(await page.getByTestId('two-factor-card').getByRole('button', { name: 'Set up two-factor sign-in' }).isVisible()).toBe(true);
      });
    });
  });

  test('the administrator requires it; a user without it sets it up at sign-in, then signs in with a code from the app, then with a recovery code', { timeout: 120_000 }, async ({ page }) => {
    // Off before, and put back as it was after.
    await withSettings({ '2fa_enable': false }, async () => {
      const { user, password } = await createUser();
      // The administrator turns it on in Settings → Security.
      await signIn(page, { username: admin().username, password: admin().password });
      await page.goto('/settings?tab=security');
      await page.getByRole('switch', { name: 'Two-factor authentication' }).check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => page.locator('.Toastify').getByText('Settings updated successfully!', { exact: true }).isVisible(), EVENTUALLY).toBe(true);
      await logOut(page);

      await passwordStep(page, user.username, password, 'setup');

      // "Your administrator requires two-step verification": the QR code and the key as text, before any session.
      const step = page.getByTestId('two-factor-enrolment');
      await expect.poll(() => step.getByRole('heading', { name: 'Your administrator requires two-step verification' }).isVisible(), EVENTUALLY).toBe(true);
      await expect.poll(() => step.getByRole('img', { name: 'QR code for your authenticator app' }).isVisible(), EVENTUALLY).toBe(true);
      const secret = (await step.getByTestId('two-factor-secret').textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await step.getByLabel('Authentication code').fill(totpCodeAt(secret));
      await step.getByRole('button', { name: 'Turn on and continue' }).click();

      // Ten recovery codes, shown this once; the session starts when they are kept.
      const codes = step.getByTestId('recovery-codes').getByRole('listitem');
      await expect.poll(() => codes.count(), EVENTUALLY).toBe(10);
      const recovery = (await codes.allTextContents()).map((c) => c.trim());
      expect(new URL(page.url()).pathname).toBe('/login');
      await step.getByRole('button', { name: 'I have saved my codes' }).click();
      await page.waitForURL('**/dashboard');
      await expectSignedInLayout(page);
      await page.goto('/profile');
      const card = page.getByTestId('two-factor-card');
      await expect.poll(() => card.getByText('Recovery codes left: 10').isVisible(), EVENTUALLY).toBe(true);
      expect(await card.getByText('so it cannot be turned off').isVisible()).toBe(true);
      await logOut(page);

      // The next sign-in asks for the code: a wrong one is refused with a sentence, the app's next one signs in.
      await passwordStep(page, user.username, password);
      const wrong = totpCodeAt(secret, Date.now() + 30_000) === '000000' ? '111111' : '000000';
      await page.getByLabel('Authentication code').fill(wrong);
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), EVENTUALLY).toContain('That code is not right.');
      expect(new URL(page.url()).pathname).toBe('/login');
      await page.getByLabel('Authentication code').fill(totpCodeAt(secret, Date.now() + 30_000));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL('**/dashboard');
      await logOut(page);

      // A lost phone: a recovery code instead.
      await passwordStep(page, user.username, password);
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(recovery[0]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL('**/dashboard');
      await page.goto('/profile');
      await expect.poll(() => page.getByTestId('two-factor-card').getByText('Recovery codes left: 9').isVisible(), EVENTUALLY).toBe(true);
    });
  });
});

describe('the captcha', () => {
  test('with captcha_login on, the sign-in page shows the captcha; solved, the sign-in goes through', { timeout: 60_000 }, async ({ page }) => {
    await withSettings({ captcha_login: true }, async () => {
      const { user, password } = await createUser();
      await page.goto('/login');
      // In Arabic, the widget speaks Arabic too.
      await page.getByRole('button', { name: 'العربية' }).click();
      await expect.poll(() => page.locator('altcha-widget').getByText('أنا لست روبوتاً').isVisible(), EVENTUALLY).toBe(true);
      await page.getByRole('button', { name: 'English' }).click();
      await expect.poll(() => page.locator('altcha-widget').getByText("I'm not a robot").isVisible(), EVENTUALLY).toBe(true);
      const form = loginForm(page);
      await form.username.fill(user.username);
      await form.password.fill(password);
      // Sent unsolved: the form says what to do.
      await form.submit.click();
      await expect.poll(() => page.getByRole('alert').first().textContent(), EVENTUALLY).toContain('Solve the captcha first');
      // The widget's checkbox, reached by its accessible name and ticked from the keyboard.
      await page.getByRole('checkbox', { name: /not a robot/i }).focus();
      await page.keyboard.press('Space');
      await expect.poll(() => page.locator('altcha-widget').getByText('Verified', { exact: true }).isVisible(), { timeout: 30_000, interval: 200 }).toBe(true);
      await form.submit.click();
      await page.waitForURL('**/dashboard');
    });
  });
});

describe('accessibility of the captcha and the two-factor screens', () => {
  test('the captcha on the sign-in page and the two-factor setup at sign-in pass axe in dark Arabic and light English', { timeout: 120_000 }, async ({ page }) => {
    await withSettings({ captcha_login: true, '2fa_enable': true }, async () => {
      const { user, password } = await createUser();
      const pickLanguage = async (lang: 'en' | 'ar') => {
        // The language as a person picks it: a stored choice can be written back by the page still open.
        await page.getByTestId('language-switcher').getByRole('button', { name: lang === 'ar' ? 'العربية' : 'English' }).click();
        await expect.poll(() => page.evaluate(() => document.documentElement.dir), { timeout: 15_000, interval: 100 }).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      };
      for (const [lang, dark] of [['en', false], ['ar', true]] as const) {
        await page.goto('/login');
        await useLook(page, lang, dark);
        await page.reload();
        await pickLanguage(lang);
        await page.locator('altcha-widget input[type="checkbox"]').waitFor();
        expect(await seriousViolations(page), `sign-in ${lang} ${dark ? 'dark' : 'light'}`).toEqual([]);
      }
      // Still dark: the password step with the captcha solved, then the setup the site requires, read in Arabic.
      await pickLanguage('en');
      const form = loginForm(page);
      await form.username.fill(user.username);
      await form.password.fill(password);
      await page.getByRole('checkbox', { name: /not a robot/i }).focus();
      await page.keyboard.press('Space');
      await expect.poll(() => page.locator('altcha-widget').getByText('Verified', { exact: true }).isVisible(), { timeout: 30_000, interval: 200 }).toBe(true);
      await form.submit.click();
      await page.getByTestId('two-factor-secret').waitFor();
      await pickLanguage('ar');
      await expect.poll(() => page.getByRole('heading', { name: 'يشترط المسؤول التحقق بخطوتين' }).isVisible(), EVENTUALLY).toBe(true);
      expect(await seriousViolations(page), 'two-factor setup at sign-in, ar dark').toEqual([]);
    });
  });
});
