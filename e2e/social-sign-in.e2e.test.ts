import { describe, expect, inject } from 'vitest';
import { test } from './browser.js';
import { uniqueName, withSettings } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout } from './support/ui.js';
import { SOCIAL_CLIENTS } from '../test/support/social-sample.js';

const googleOn = {
  social_google_enable: true,
  social_google_id: SOCIAL_CLIENTS.google.id,
  social_google_secret: SOCIAL_CLIENTS.google.secret,
  social_facebook_enable: false,
  social_twitter_enable: false,
  enable_registration: true,
};

/** A person who can sign in at the Google stand-in, new to SiteWalk. */
async function googlePerson(first: string) {
  const name = uniqueName(first.toLowerCase());
  const person = { provider: 'google', subject: `g-${name}`, email: `${name}@mail.example.test`, email_verified: true, first_name: first, last_name: 'Tester' };
  const res = await fetch(`${inject('socialStandInUrl')}/__standin/people`, { method: 'POST', body: JSON.stringify(person) });
  expect(res.status).toBe(201);
  return person;
}

describe('social sign-in', () => {
  test('sign in through the Google stand-in: a new account, signed in, with Google linked in the profile', async ({ page }) => {
    await withSettings(googleOn, async () => {
      const person = await googlePerson('Grace');
      await page.goto('/login');
      // Only the services turned on are offered.
      await page.getByRole('button', { name: 'Continue with Google' }).click();
      expect(await page.getByRole('button', { name: 'Continue with Facebook' }).count()).toBe(0);
      await page.getByRole('button', { name: `Continue as Grace Tester (${person.email})` }).click();
      await page.waitForURL('**/dashboard');
      await expectSignedInLayout(page);
      // The one-time ticket left no trace in the address.
      expect(page.url()).not.toContain('social_ticket');

      await page.goto('/profile');
      const google = page.getByTestId('linked-accounts').locator('[data-provider="google"]');
      await expect.poll(() => google.textContent(), EVENTUALLY).toContain(person.email);
      // Without a password, the last way in cannot be unlinked.
      await google.getByRole('button', { name: 'Unlink Google' }).click();
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'the only way into your account' }).count(), EVENTUALLY).toBeGreaterThan(0);
    });
  });

  test('a refused sign-in is said in Arabic on a phone, calling the site by its name, and the Google button fits 360 px', async ({ page }) => {
    await withSettings({ ...googleOn, name: 'Abdali Works' }, async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto('/login');
      // Arabic as a person picks it (a stored choice can be written back by the page still open).
      await page.getByTestId('language-switcher').getByRole('button', { name: 'العربية' }).click();
      await expect.poll(() => page.evaluate(() => document.documentElement.dir), EVENTUALLY).toBe('rtl');
      await page.goto('/login?social_error=linked_elsewhere');
      await expect.poll(() => page.getByRole('alert').textContent(), EVENTUALLY).toContain('مرتبط بالفعل');
      // The renamed site's name, an English run isolated inside the Arabic sentence (it cannot pull the full stop to its side).
      await expect.poll(() => page.getByRole('alert').textContent(), EVENTUALLY).toContain('\u2068Abdali Works\u2069.');
      expect(await page.getByRole('alert').textContent()).not.toContain('SiteWalk');
      expect(new URL(page.url()).search).toBe('');
      const button = page.getByRole('button', { name: 'المتابعة باستخدام \u2068Google\u2069' });
      const box = await button.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    });
  });
});
