import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { test } from './browser.js';
import { admin, createUser } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, sidebar, signIn } from './support/ui.js';

/** The labels of the sidebar's ordinary items and of its Settings group, top to bottom. */
async function menuLabels(page: Page) {
  const nav = sidebar(page);
  await expectSignedInLayout(page);
  const main = await nav.locator(':scope > ul').getByRole('link').allTextContents();
  const group = nav.getByRole('group', { name: 'Settings' });
  const settings = (await group.count()) ? await group.getByRole('link').allTextContents() : null;
  return { main: main.map((s) => s.trim()), settings: settings?.map((s) => s.trim()) ?? null };
}

const alphabetical = (labels: string[]) => [...labels].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));

describe('sidebar', () => {
  test('a regular user sees the dashboard first, then the other items alphabetically, and no Settings group', async ({ page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    const { main, settings } = await menuLabels(page);
    expect(main[0]).toBe('Dashboard');
    expect(main.slice(1)).toEqual(alphabetical(main.slice(1)));
    expect(settings).toBeNull();
    expect(main).not.toContain('Approvals'); // a super-admin screen (SPEC §2)
  });

  test('a super admin also sees the Settings group, last, with its items alphabetically', async ({ page }) => {
    const a = admin();
    await signIn(page, { username: a.username, password: a.password });
    const { main, settings } = await menuLabels(page);
    expect(main[0]).toBe('Dashboard');
    expect(main.slice(1)).toEqual(alphabetical(main.slice(1)));
    expect(settings).not.toBeNull();
    expect(settings!.length).toBeGreaterThan(0);
    expect(settings).toEqual(alphabetical(settings!));
    expect(settings).toContain('Approvals');
    expect(main).not.toContain('Approvals');
    // The group comes after every ordinary item.
    const groupTop = await sidebar(page).getByRole('group', { name: 'Settings' }).boundingBox();
    const lastMainTop = await sidebar(page).locator(':scope > ul').getByRole('link').last().boundingBox();
    expect(groupTop!.y).toBeGreaterThan(lastMainTop!.y);
  });

  test('a regular user who opens a super-admin screen is sent to the dashboard', async ({ page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    await expectSignedInLayout(page);
    await page.goto('/approvals');
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).isVisible(), EVENTUALLY).toBe(true);
  });
});

describe('breadcrumb trail', () => {
  test('is hidden on the dashboard, where it would hold one item, and shows the parent chain deeper down', async ({ page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    await page.waitForURL('**/dashboard');
    await expectSignedInLayout(page);
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' });
    // The page has settled (its title shows) and still no trail.
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).isVisible(), EVENTUALLY).toBe(true);
    expect(await trail.count()).toBe(0);

    await page.goto('/editprofile');
    await expect.poll(() => trail.isVisible(), EVENTUALLY).toBe(true);
    const items = (await trail.getByRole('listitem').allTextContents()).map((s) => s.trim());
    expect(items[0]).toBe('Dashboard');
    expect(items.at(-1)).toBe('Edit Profile');
    expect(items.length).toBeGreaterThanOrEqual(3); // Dashboard › Profile › Edit Profile
    await trail.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL('**/dashboard');
    await expect.poll(() => trail.count(), EVENTUALLY).toBe(0);
  });
});

describe('logging out', () => {
  test('the logout modal asks "Ready to Leave?" and its Logout button ends the session', async ({ page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    await expectSignedInLayout(page);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();

    // The dialog is announced by its title, and shows the SPEC's words.
    const dialog = page.getByRole('dialog', { name: 'Ready to Leave?' });
    await expect.poll(() => dialog.isVisible(), EVENTUALLY).toBe(true);
    expect(await dialog.getByText('Ready to Leave?', { exact: true }).isVisible()).toBe(true);
    expect(await dialog.getByText('Select "Logout" below if you are ready to end your current session.', { exact: true }).isVisible()).toBe(true);

    await dialog.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await expect.poll(() => dialog.count(), EVENTUALLY).toBe(0);
    // The session is over: the dashboard is out of reach again.
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
  });

  test('Cancel closes the modal and keeps the user signed in', async ({ page }) => {
    const { user, password } = await createUser();
    await signIn(page, { username: user.username, password });
    await expectSignedInLayout(page);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.isVisible(), EVENTUALLY).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count(), EVENTUALLY).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
  });
});

describe('two tabs of one browser', () => {
  test('the second tab follows the sign-in and the logout of the first', async ({ context, page }) => {
    const { user, password } = await createUser();
    const other = await context.newPage();
    await other.goto('/login');
    await other.getByRole('button', { name: 'Sign in' }).waitFor();

    await signIn(page, { username: user.username, password });
    await expectSignedInLayout(page);
    // The other tab was on the sign-in screen; it is signed in now without anyone touching it.
    await other.waitForURL('**/dashboard');
    await expectSignedInLayout(other);

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    await other.waitForURL('**/login');
    await other.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(new URL(other.url()).pathname).toBe('/login');
  });
});
