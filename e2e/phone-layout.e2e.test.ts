import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { saveScreenshot, test } from './browser.js';
import { createUser, uniqueName, type TestUser } from './support/backend.js';
import { EVENTUALLY, expectSignedInLayout, signIn } from './support/ui.js';
import { projectWithSheet, visitWithRooms } from './support/visits-fixtures.js';
import { planWithMember } from './support/plans-fixtures.js';
import { ROUTES } from '../client/src/routes/route-table.js';
import { api } from '../api/test/helpers.js';

/**
 * Issue 11 item 5: SiteWalk on a phone. Every screen of the route table fits
 * 360 px without sideways scrolling, in English and in Arabic, and under
 * 768 px the sidebar is off-canvas (no rail) instead of a collapsed column.
 */

const PHONE = { width: 360, height: 740 } as const;
const SLOW = { timeout: 60_000, interval: 200 } as const;

async function phoneContext(browser: { newContext: (o: object) => Promise<BrowserContext> }, baseUrl: string, viewport: { width: number; height: number } = PHONE) {
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'en-US', viewport, reducedMotion: 'reduce' });
  await context.addInitScript(() => {
    try {
      localStorage.setItem('onboardingCompleted', 'true');
    } catch {
      /* about:blank */
    }
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** A super administrator (sees every route) with a project, a ready sheet and a visit. */
async function seed() {
  const owner: TestUser = await createUser({ super_admin: true, role: 'super_admin' } as Parameters<typeof createUser>[0]);
  const project = await projectWithSheet(owner, uniqueName('Phone site'));
  const sheet = project.maps[0];
  const visit = await visitWithRooms(owner, { id_project: project.id, name: 'Walk on a phone', id_map: sheet.id }, []);
  // A snag, so /snaglist shows its table (not its empty state) on the phone.
  const snag = await api().post('/api/annotations').set(owner.auth).send({ id_visit: visit.id, title: 'Cracked tile by the lift door, second row', priority: 'high', due_date: '2026-01-05' });
  if (snag.status !== 201) throw new Error(`snag not created: ${snag.status} ${JSON.stringify(snag.body)}`);
  const plan = await planWithMember(owner, owner);
  return { owner, project, sheet, visit, plan };
}

type Seeded = Awaited<ReturnType<typeof seed>>;

/**
 * A concrete address for each pattern of the route table: each ':param' gets
 * a seeded id, chosen by the route's first segment; optional ones are dropped.
 * A new route with a parameter this does not know fails here, loudly.
 */
function concretePath(pattern: string, s: Seeded): string {
  const first = pattern.split('/')[1];
  const ids: Record<string, Record<string, string | number>> = {
    project: { id: s.project.id },
    editproject: { id: s.project.id },
    editsheet: { id: s.sheet.id },
    sheet: { id: s.sheet.id },
    visits: { id: s.project.id },
    editvisit: { id: s.visit.id },
    visittour: { id: s.visit.id },
    visitsheet: { id: s.visit.id },
    visitvideo: { id: s.visit.id },
    compare: { id: s.sheet.id },
    edituser: { id: s.owner.user.id },
    editplan: { id: s.plan.plan.id },
    editmember: { id: s.plan.member.id },
    viewer: { code: s.visit.code },
  };
  return pattern
    .split('/')
    .map((seg) => {
      if (!seg.startsWith(':')) return seg;
      const optional = seg.endsWith('?');
      const name = seg.slice(1).replace(/\?$/, '');
      const value = ids[first]?.[name];
      if (value !== undefined) return String(value);
      if (optional) return null;
      throw new Error(`phone-layout test: no seeded value for ':${name}' of ${pattern}; add one to concretePath()`);
    })
    .filter((seg) => seg !== null)
    .join('/');
}

/** Waits until the screen has loaded its data and stopped moving. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await expect.poll(() => page.locator('.spinner-border, .placeholder-glow').count(), SLOW).toBe(0);
  await page.waitForTimeout(400);
}

/**
 * What sticks out of the viewport: the document's own scroll width, and every
 * visible element whose box leaves [0, innerWidth] (elements inside a box that
 * scrolls or clips sideways are judged by that box).
 */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = window.innerWidth;
    const problems: string[] = [];
    const sw = document.documentElement.scrollWidth;
    if (sw > vw) problems.push(`document scrollWidth ${sw} > innerWidth ${vw}`);
    const describe = (el: Element) => {
      const parts: string[] = [];
      for (let e: Element | null = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
        const testid = e.getAttribute('data-testid');
        const cls = [...e.classList].slice(0, 3).map((c) => `.${c}`).join('');
        parts.unshift(`${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${testid ? `[data-testid="${testid}"]` : ''}${cls}`);
      }
      return parts.join(' > ');
    };
    const clips = (el: Element) => {
      const ox = getComputedStyle(el).overflowX;
      return ox !== 'visible';
    };
    const walk = (el: Element) => {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') return;
      if (el.classList.contains('visually-hidden')) return;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && (r.right > vw + 0.5 || r.left < -0.5)) {
        problems.push(`${describe(el)} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
      }
      if (clips(el)) return; // what is inside scrolls or is clipped within this box
      for (const child of el.children) walk(child);
    };
    for (const child of document.body.children) walk(child);
    return problems.slice(0, 8);
  });
}

async function useLanguage(page: Page, lang: 'en' | 'ar') {
  await page.evaluate((l) => {
    sessionStorage.setItem('language', l);
    localStorage.setItem('ls_language', l);
  }, lang);
}

describe('on a phone', () => {
  test(
    'every screen of the route table fits 360 px without scrolling sideways, in English and in Arabic',
    async ({ browser, baseUrl }) => {
      const seeded = await seed();
      const { context, page } = await phoneContext(browser, baseUrl);
      const failures: string[] = [];
      const visitAll = async (paths: string[]) => {
        for (const lang of ['en', 'ar'] as const) {
          await useLanguage(page, lang);
          for (const path of paths) {
            await page.goto(path);
            await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('dir')), EVENTUALLY).toBe(lang === 'ar' ? 'rtl' : 'ltr');
            await settle(page);
            const problems = await overflow(page);
            if (problems.length) {
              failures.push(`${path} (${lang}) → ${new URL(page.url()).pathname}:\n    ${problems.join('\n    ')}`);
              await saveScreenshot(page, `phone-too-wide-${lang}-${path}`);
            }
          }
        }
      };
      try {
        // Signed out: the public screens as a visitor sees them.
        await page.goto('/login');
        await visitAll(ROUTES.filter((r) => !r.requiresAuth).map((r) => concretePath(r.path, seeded)));
        await useLanguage(page, 'en');
        await page.goto('/login');
        // Signed in as a super administrator: every screen.
        await signIn(page, { username: seeded.owner.user.username, password: seeded.owner.password });
        await expectSignedInLayout(page);
        const paths = ROUTES.map((r) => concretePath(r.path, seeded));
        expect(paths.length).toBeGreaterThan(20);
        await visitAll(paths);
        expect(failures, `wider than the 360 px viewport:\n${failures.join('\n')}`).toEqual([]);
      } finally {
        await context.close();
      }
    },
    600_000,
  );

  test('under 768 px the sidebar is off-canvas: no rail, opens with the toggle, traps focus, closes on Escape and after navigating', async ({
    browser,
    baseUrl,
  }) => {
    const { user, password } = await createUser();
    const { context, page } = await phoneContext(browser, baseUrl);
    try {
      await signIn(page, { username: user.username, password });
      await page.waitForURL('**/dashboard');
      await expectSignedInLayout(page);
      await settle(page);
      const aside = page.getByTestId('sidebar');
      const toggle = page.getByTestId('sidebar-toggle');

      // Closed: not shown, no rail; the main column has the whole width.
      expect(await aside.isVisible()).toBe(false);
      expect(await page.getByRole('complementary').count()).toBe(0);
      const main = (await page.locator('.sw-main').boundingBox())!;
      expect(main.x).toBe(0);
      expect(main.width).toBe(PHONE.width);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');

      // The toggle opens it over the page, inside the viewport.
      await toggle.click();
      await expect.poll(() => aside.isVisible(), EVENTUALLY).toBe(true);
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      const box = (await aside.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      await saveScreenshot(page, 'phone-sidebar-open');

      // Focus goes into it and stays there, forwards and backwards.
      const focusInSidebar = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="sidebar"]'));
      await expect.poll(focusInSidebar, EVENTUALLY).toBe(true);
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press('Tab');
        expect(await focusInSidebar(), `focus left the sidebar after ${i + 1} Tab`).toBe(true);
      }
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press('Shift+Tab');
        expect(await focusInSidebar(), `focus left the sidebar after ${i + 1} Shift+Tab`).toBe(true);
      }

      // Escape closes it and gives the focus back to the toggle.
      await page.keyboard.press('Escape');
      await expect.poll(() => aside.isVisible(), EVENTUALLY).toBe(false);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('sidebar-toggle');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');

      // Following a link closes it.
      await toggle.click();
      await expect.poll(() => aside.isVisible(), EVENTUALLY).toBe(true);
      await aside.getByRole('link', { name: 'Projects' }).click();
      await page.waitForURL('**/projects');
      await expect.poll(() => aside.isVisible(), EVENTUALLY).toBe(false);

      // In Arabic it is the same, mirrored: closed, nothing on either edge.
      await useLanguage(page, 'ar');
      await page.goto('/dashboard');
      await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('dir')), EVENTUALLY).toBe('rtl');
      await settle(page);
      expect(await aside.isVisible()).toBe(false);
      const mainAr = (await page.locator('.sw-main').boundingBox())!;
      expect(mainAr.x).toBe(0);
      expect(mainAr.width).toBe(PHONE.width);
      await toggle.click();
      await expect.poll(() => aside.isVisible(), EVENTUALLY).toBe(true);
      const boxAr = (await aside.boundingBox())!;
      expect(boxAr.x + boxAr.width).toBeLessThanOrEqual(PHONE.width + 0.5);
      expect(boxAr.x).toBeGreaterThan(0); // it comes in from the right
      await page.keyboard.press('Escape');
      await expect.poll(() => aside.isVisible(), EVENTUALLY).toBe(false);
    } finally {
      await context.close();
    }
  });

  test('from 768 px the sidebar is the usual column beside the page, and the toggle folds it to a rail', async ({ browser, baseUrl }) => {
    const { user, password } = await createUser();
    const { context, page } = await phoneContext(browser, baseUrl, { width: 800, height: 740 });
    try {
      await signIn(page, { username: user.username, password });
      await page.waitForURL('**/dashboard');
      await expectSignedInLayout(page);
      const aside = page.getByTestId('sidebar');
      expect(await aside.isVisible()).toBe(true);
      const side = (await aside.boundingBox())!;
      const main = (await page.locator('.sw-main').boundingBox())!;
      expect(side.x).toBe(0);
      expect(main.x).toBeGreaterThanOrEqual(side.x + side.width - 1);
      const wide = side.width;
      await page.getByTestId('sidebar-toggle').click();
      await expect.poll(async () => (await aside.boundingBox())!.width, EVENTUALLY).toBeLessThan(wide);
      expect(await aside.isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
