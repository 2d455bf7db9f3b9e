import type { Locator, Page } from 'playwright-core';

/**
 * How the tests find things on SiteWalk's screens: by role and accessible
 * name, the way a person (or a screen reader) finds them. Kept in one place
 * so a renamed label is fixed once.
 */

export function loginForm(page: Page) {
  return {
    username: page.getByLabel(/username|e-?mail/i).first(),
    password: page.getByLabel(/^password/i).first(),
    remember: page.getByLabel(/remember me/i),
    submit: page.getByRole('button', { name: /^(sign in|log ?in)$/i }),
  };
}

export interface Credentials {
  username: string;
  password: string;
}

/**
 * Signs in through the login screen (opening /login unless the page is
 * already on the auth screen) and waits until the app has left it.
 */
export async function signIn(page: Page, who: Credentials, opts: { remember?: boolean } = {}): Promise<void> {
  if (new URL(page.url()).pathname !== '/login') await page.goto('/login');
  const form = loginForm(page);
  await form.username.fill(who.username);
  await form.password.fill(who.password);
  if (opts.remember) await form.remember.check();
  await form.submit.click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** The menu in the sidebar of the signed-in layout (found by structure, so it works in every language). */
export const sidebar = (page: Page): Locator => page.getByRole('complementary').getByRole('navigation');

/**
 * Waits for the signed-in layout to be on screen: its top bar's sidebar toggle
 * (on a phone the sidebar itself stays off-canvas until the toggle opens it).
 */
export async function expectSignedInLayout(page: Page): Promise<void> {
  await page.getByTestId('sidebar-toggle').waitFor();
  await page.getByTestId('sidebar').waitFor({ state: 'attached' });
}

/** Options for `expect.poll`: screens settle within seconds on a loaded two-core machine. */
export const EVENTUALLY = { timeout: 15_000, interval: 100 } as const;
