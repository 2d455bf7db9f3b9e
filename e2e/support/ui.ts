import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

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

/**
 * How long a page action or a check waits for the screen: seconds on a quiet machine, but
 * `make test` runs the browser beside the other suites on two cores, where a page can take
 * ten seconds or more. Only a failure waits this long; a passing check returns at once.
 */
export const ACTION_TIMEOUT = 30_000;

/** Options for `expect.poll`: screens settle within seconds on a loaded two-core machine. */
export const EVENTUALLY = { timeout: ACTION_TIMEOUT, interval: 100 } as const;

/**
 * How many rooms a sheet map shows: its single dots plus the rooms counted in
 * its clusters (close rooms merge into one counted disc when zoomed out).
 */
export async function roomsShownOnSheet(scope: Page | Locator): Promise<number> {
  const dots = await scope.getByTestId('sheet-room').count();
  const clustered = await scope.getByTestId('sheet-room-cluster').evaluateAll((els) => els.reduce((n, el) => n + Number(el.getAttribute('data-count') ?? 0), 0));
  return dots + clustered;
}

type Box = { x: number; y: number; width: number; height: number };

/**
 * Where an element stands once it is drawn and still. A map redraws its markers when its data
 * arrives again (after a reload, a save or a live update), so an element found a moment ago can be
 * gone, or not yet laid out, when its box is read: read until two reads in a row agree.
 */
export async function settledBox(what: Locator): Promise<Box> {
  let last: Box | null = null;
  let settled: Box | null = null;
  await expect
    .poll(async () => {
      const box = await what.boundingBox();
      settled = box && last && Math.abs(box.x - last.x) < 0.5 && Math.abs(box.y - last.y) < 0.5 && box.width > 0 ? box : null;
      last = box;
      return settled !== null;
    }, EVENTUALLY)
    .toBe(true);
  return settled!;
}

/**
 * Waits for the page's finite animations and transitions (a button just pressed fades to its new colours in 0.15 s,
 * a page slides in): what a person reads, and what a measure of colours or boxes must see, is the screen once they
 * ended. Endless ones (spinners) are left running; none waits more than 5 s.
 */
export async function settledTransitions(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 5_000)),
    ]),
  );
}

/**
 * A screen ready to be judged as a person sees it: loaded, its data in (no spinner, no placeholder), its fonts in,
 * its transitions ended, and laid out after that (two frames).
 */
export async function settleScreen(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await expect.poll(() => page.locator('.spinner-border, .placeholder-glow').count(), { timeout: 60_000, interval: 200 }).toBe(0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await settledTransitions(page);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}
