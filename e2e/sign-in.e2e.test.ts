import { describe, expect } from 'vitest';
import { test } from './browser.js';
import { createUser } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, loginForm, signIn } from './support/ui.js';

describe('signing in', () => {
  test('a signed-out visitor of /dashboard is sent to the sign-in screen', async ({ page }) => {
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await expect.poll(() => loginForm(page).password.isVisible(), EVENTUALLY).toBe(true);
    await expect.poll(() => page.title(), EVENTUALLY).toBe('Sign in | SiteWalk');
  });

  test('after signing in, the visitor lands where they were going', async ({ page }) => {
    const { user, password } = await createUser();
    await page.goto('/notifications');
    await page.waitForURL('**/login');
    await signIn(page, { username: user.username, password });
    await page.waitForURL('**/notifications');
    await expectSignedInLayout(page);
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Notifications' }).isVisible(), EVENTUALLY).toBe(true);
  });

  test('without a destination, signing in opens the dashboard', async ({ page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.email, password });
    await page.waitForURL('**/dashboard');
    await expectSignedInLayout(page);
  });

  test('"Remember me" keeps the user signed in when they come back in a new tab', async ({ context, page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password }, { remember: true });
    await expectSignedInLayout(page);
    await page.close();

    const later = await context.newPage();
    await later.goto('/notifications');
    await expectSignedInLayout(later);
    expect(new URL(later.url()).pathname).toBe('/notifications');
  });

  test('a wrong password shows why and stays on the sign-in screen', async ({ page }) => {
    const { user } = await createUser();
    await page.goto('/login');
    const form = loginForm(page);
    await form.username.fill(user.username);
    await form.password.fill('not the password');
    await form.submit.click();
    await expect.poll(() => page.getByRole('alert').textContent(), EVENTUALLY).toContain('Wrong username or password.');
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
