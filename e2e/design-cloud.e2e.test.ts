import { describe, expect, inject } from 'vitest';
import { test } from './browser.js';
import { createUser, withSettings } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, signIn } from './support/ui.js';
import { ADSK_CLIENT, ADSK_SECRET } from '../test/support/adsk-sample.js';
import { db } from '@sitewalk/core/db';

const ON = { adsk_enable: true, adsk_client: ADSK_CLIENT, adsk_secret: ADSK_SECRET };
const SLOW = { timeout: 90_000, interval: 250 } as const;

interface StandInEvent {
  method: string;
  path: string;
  status: number;
  reason?: string;
}
const standInEvents = async (): Promise<StandInEvent[]> => (await fetch(`${inject('adskStandInUrl')}/__standin/events`)).json() as Promise<StandInEvent[]>;
const standInTokens = async (): Promise<string[]> => ((await (await fetch(`${inject('adskStandInUrl')}/__standin/tokens`)).json()) as { all: string[] }).all;

describe('design-file cloud (Autodesk)', () => {
  test('connect in the browser, browse, bring a project in with live progress, disconnect', async ({ page }) => {
    await withSettings(ON, async () => {
      const { user, password } = await createUser();
      await signIn(page, { username: user.username, password });
      await expectSignedInLayout(page);
      await page.goto('/profile');
      const card = page.getByTestId('adsk-link');
      await expect.poll(() => card.getAttribute('data-state'), EVENTUALLY).toBe('not_connected');

      // Connect: off to Autodesk's sign-in page (the stand-in), Allow, and back.
      let callbackUrl = '';
      page.on('request', (r) => {
        if (r.url().includes('/api/autodesk/callback')) callbackUrl = r.url();
      });
      await card.getByRole('button', { name: 'Connect' }).click();
      await page.waitForURL((u) => u.pathname === '/authentication/v2/authorize', { timeout: 15_000 });
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((u) => u.pathname === '/profile', { timeout: 15_000 });
      await expect.poll(() => page.getByText('Connected to Autodesk.').isVisible(), EVENTUALLY).toBe(true);
      // The query leaves the address once shown; the link is checked again and holds.
      await expect.poll(() => new URL(page.url()).search, EVENTUALLY).toBe('');
      await expect.poll(() => card.getAttribute('data-state'), EVENTUALLY).toBe('connected');
      expect(callbackUrl).toContain('state=');
      // PKCE was verified by Autodesk: the code was traded for tokens.
      expect((await standInEvents()).some((e) => e.path === '/authentication/v2/token' && e.status === 200)).toBe(true);
      expect((await db()('users').where({ id: user.id }).first('adsk_auth')).adsk_auth).toBe(true);

      // The same return again (its state is spent): refused, the link stays.
      await page.goto(callbackUrl);
      await page.waitForURL((u) => u.pathname === '/profile', { timeout: 15_000 });
      await expect.poll(() => page.getByText(/does not match one started here/).isVisible(), EVENTUALLY).toBe(true);

      // A return with a state SiteWalk never issued: refused.
      const forged = new URL(callbackUrl);
      forged.searchParams.set('state', 'forged-by-someone-else');
      await page.goto(forged.toString());
      await page.waitForURL((u) => u.pathname === '/profile', { timeout: 15_000 });
      await expect.poll(() => page.getByText(/does not match one started here/).isVisible(), EVENTUALLY).toBe(true);
      await expect.poll(() => card.getAttribute('data-state'), EVENTUALLY).toBe('connected');

      // Browse: hubs → projects (all three, across two pages) → folders → contents.
      await card.getByRole('link', { name: 'Browse Autodesk files' }).click();
      await page.waitForURL('**/design-cloud');
      const list = page.getByTestId('adsk-list');
      await list.getByRole('button', { name: 'Acme Construction' }).click();
      await expect.poll(() => list.getByRole('listitem').count(), EVENTUALLY).toBe(3);
      // Tower A's sheets as Autodesk Construction Cloud lists them, and its model's 2D views.
      await list.getByRole('button', { name: 'Tower A' }).click();
      await page.getByRole('button', { name: 'Project sheets' }).click();
      await expect.poll(() => page.getByTestId('adsk-acc-sheets').getByRole('listitem').count(), EVENTUALLY).toBe(3);
      await list.getByRole('button', { name: 'Project Files' }).click();
      await list.getByRole('button', { name: 'Models' }).click();
      await list.getByRole('listitem').filter({ hasText: 'Tower.rvt' }).getByRole('button', { name: 'Sheets' }).click();
      await expect.poll(() => page.getByTestId('adsk-manifest').textContent(), EVENTUALLY).toContain('A-202 Level 2');
      await page.getByTestId('adsk-breadcrumbs').getByRole('button', { name: 'Acme Construction' }).click();
      await list.getByRole('button', { name: 'Tower B' }).click();
      await list.getByRole('button', { name: 'Project Files' }).click();
      await expect.poll(() => list.getByRole('listitem').count(), EVENTUALLY).toBe(3);
      await expect.poll(() => page.getByTestId('adsk-breadcrumbs').textContent(), EVENTUALLY).toContain('Project Files');
      await list.getByRole('button', { name: 'B-3.pdf' }).click();
      await expect.poll(() => list.getByText(/Version 2/).count(), EVENTUALLY).toBe(1);
      await page.getByTestId('adsk-breadcrumbs').getByRole('button', { name: 'Acme Construction' }).click();

      // Bring Tower B into SiteWalk; the progress bar follows the job to the end.
      const towerB = list.getByRole('listitem').filter({ hasText: 'Tower B' });
      await towerB.getByRole('button', { name: 'Bring into SiteWalk' }).click();
      const run = page.getByTestId('adsk-sync-run').first();
      await expect.poll(() => run.getAttribute('data-status'), SLOW).toBe('completed');
      await expect.poll(() => run.getByRole('progressbar').getAttribute('aria-valuenow'), EVENTUALLY).toBe('100');
      const link = await db()('adsk_project_links').where({ id_user: user.id }).first('id_project');
      expect(link).toBeTruthy();
      await expect.poll(async () => Number((await db()('maps').where({ id_project: link.id_project, status: 'ready' }).count('* as c'))[0].c), SLOW).toBe(3);
      // Tower B is now hidden among the projects not yet brought in.
      await page.getByTestId('adsk-breadcrumbs').getByRole('button', { name: 'Hubs' }).click();
      await list.getByRole('button', { name: 'Acme Construction' }).click();
      await expect.poll(() => list.getByRole('listitem').count(), EVENTUALLY).toBe(2);

      // No Autodesk token ever reached the page.
      const html = await page.content();
      const storage = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
      const tokens = await standInTokens();
      expect(tokens.filter((t) => html.includes(t) || storage.includes(t))).toEqual([]);

      // Disconnect, after confirming.
      await page.goto('/profile');
      await card.getByRole('button', { name: 'Disconnect' }).click();
      await page.getByTestId('confirm-button').click();
      await expect.poll(() => page.getByText('Successfully disconnected from Autodesk').isVisible(), EVENTUALLY).toBe(true);
      await expect.poll(() => card.getAttribute('data-state'), EVENTUALLY).toBe('not_connected');
      expect(await page.evaluate(() => document.cookie)).not.toContain('adsk_access_token=');
      expect((await db()('users').where({ id: user.id }).first('adsk_auth')).adsk_auth).toBe(false);
    });
  });

  test('with the integration off, the screen says so and the profile offers no Connect', async ({ page }) => {
    await withSettings({ adsk_enable: false }, async () => {
      const { user, password } = await createUser();
      await signIn(page, { username: user.username, password });
      await expectSignedInLayout(page);
      await page.goto('/design-cloud');
      await expect
        .poll(() => page.getByText('The Autodesk integration is switched off. An administrator can turn it on in Settings.').isVisible(), EVENTUALLY)
        .toBe(true);
      await page.goto('/profile');
      await expect.poll(() => page.getByRole('heading', { name: 'Activity' }).isVisible(), EVENTUALLY).toBe(true);
      expect(await page.getByTestId('adsk-link').count()).toBe(0);
    });
  });

  test('on a phone (360 px), in English and in Arabic, the connected Autodesk screen fits', async ({ page }) => {
    await withSettings(ON, async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      const { user, password } = await createUser();
      await signIn(page, { username: user.username, password });
      await expectSignedInLayout(page);
      await page.goto('/design-cloud');
      const card = page.getByTestId('adsk-link');
      await expect.poll(() => card.getAttribute('data-state'), EVENTUALLY).toBe('not_connected');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await card.getByRole('button', { name: 'Connect' }).click();
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((u) => u.pathname === '/profile', { timeout: 15_000 });
      await expect.poll(() => page.getByTestId('adsk-link').getAttribute('data-state'), EVENTUALLY).toBe('connected');
      for (const lang of ['en', 'ar'] as const) {
        await page.evaluate((l) => {
          sessionStorage.setItem('language', l);
          localStorage.setItem('ls_language', l);
        }, lang);
        await page.goto('/design-cloud');
        const list = page.getByTestId('adsk-list');
        await expect.poll(() => list.getByRole('listitem').count(), EVENTUALLY).toBe(2);
        await list.getByRole('listitem').first().getByRole('button').first().click();
        await expect.poll(() => list.getByRole('listitem').count(), EVENTUALLY).toBe(3);
        await expect.poll(() => page.locator('.spinner-border').count(), EVENTUALLY).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        if (lang === 'ar') expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      }
    });
  });
});
