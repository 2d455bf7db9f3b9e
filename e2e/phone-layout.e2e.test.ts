import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { saveScreenshot, test } from './browser.js';
import { createUser, uniqueName } from './support/backend.js';
import { ACTION_TIMEOUT, EVENTUALLY, expectSignedInLayout, settleScreen, signIn } from './support/ui.js';
import { concretePath, seed } from './support/route-sweep.js';
import { ROUTES } from '../client/src/routes/route-table.js';
import { api } from '../api/test/helpers.js';
import { notifyUser, withSettings } from './support/backend.js';
import { BILLING_SETTINGS, billingScreens } from './support/billing-fixtures.js';

/**
 * Issue 11 item 5: SiteWalk on a phone. Every screen of the route table fits
 * 360 px without sideways scrolling, in English and in Arabic, and under
 * 768 px the sidebar is off-canvas (no rail) instead of a collapsed column.
 */

const PHONE = { width: 360, height: 740 } as const;

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
  page.setDefaultTimeout(ACTION_TIMEOUT);
  return { context, page };
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
            await settleScreen(page);
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

  test(
    'every menu and dropdown opens inside the 360 px screen, in English and in Arabic, and the primary actions stay in view',
    async ({ browser, baseUrl }) => {
      const seeded = await seed();
      // A long notification, a tier (so /tiers shows its table) and the snag of seed(): every dropdown has its widest content.
      await notifyUser(seeded.owner.user.id, {
        kind: 'account',
        title: 'Roof plan A-105 is ready for the walk of Amman, Jordan',
        message: 'The sheet "Roof plan" (A-105) of the project "Phone site" has 86 rooms placed on it.',
        type: 'info',
        email: false,
      });
      const tier = await api().post('/api/project-tiers').set(seeded.owner.auth).send({ name: `Phone tier ${uniqueName('t')}`, price: 1250000, min_area: 0, max_area: 1000000, min_buildings: 1, max_buildings: 999, min_floors: 1, max_floors: 999 });
      if (tier.status !== 201) throw new Error(`tier not created: ${tier.status} ${JSON.stringify(tier.body)}`);
      const { context, page } = await phoneContext(browser, baseUrl);
      const failures: string[] = [];
      /** Fails when the page scrolls sideways or `what` (if given) is not wholly inside the viewport. */
      const check = async (label: string, what?: ReturnType<Page['locator']>) => {
        const problems = await overflow(page);
        if (what) {
          const box = await what.boundingBox();
          if (!box) problems.push(`${label}: not shown`);
          else if (box.x < -0.5 || box.x + box.width > PHONE.width + 0.5 || box.y < -0.5 || box.y + box.height > PHONE.height + 0.5)
            problems.push(`${label}: at ${Math.round(box.x)},${Math.round(box.y)} size ${Math.round(box.width)}×${Math.round(box.height)}, outside 360×740`);
        }
        if (problems.length) {
          failures.push(`${label}:\n    ${problems.join('\n    ')}`);
          await saveScreenshot(page, `phone-menu-${label}`);
        }
      };
      const openMenu = async (label: string, toggle: ReturnType<Page['locator']>, menu: ReturnType<Page['locator']>) => {
        await toggle.click();
        await expect.poll(() => menu.isVisible(), EVENTUALLY).toBe(true);
        // Popper places the menu a frame after it shows.
        await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
        await check(label, menu);
        await page.keyboard.press('Escape');
        await expect.poll(() => menu.isVisible(), EVENTUALLY).toBe(false);
      };
      try {
        await page.goto('/login');
        await signIn(page, { username: seeded.owner.user.username, password: seeded.owner.password });
        await expectSignedInLayout(page);
        for (const lang of ['en', 'ar'] as const) {
          await useLanguage(page, lang);
          await page.goto('/dashboard');
          await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('dir')), EVENTUALLY).toBe(lang === 'ar' ? 'rtl' : 'ltr');
          await settleScreen(page);
          await openMenu(`${lang}-notifications`, page.getByTestId('notifications-toggle'), page.locator('.sw-notifications-menu'));
          await openMenu(`${lang}-user-menu`, page.getByTestId('user-menu-toggle'), page.getByTestId('user-menu-toggle').locator('xpath=..').locator('.dropdown-menu'));
          await page.getByTestId('sidebar-toggle').click();
          await expect.poll(() => page.getByTestId('sidebar').isVisible(), EVENTUALLY).toBe(true);
          await check(`${lang}-sidebar`, page.getByTestId('sidebar'));
          await page.keyboard.press('Escape');
          await expect.poll(() => page.getByTestId('sidebar').isVisible(), EVENTUALLY).toBe(false);

          // The snag list: its export menu, and each row's action button in sight.
          await page.goto('/snaglist');
          await settleScreen(page);
          await page.getByTestId('snag-row').first().waitFor();
          await check(`${lang}-snaglist-row-action`, page.getByTestId('snag-row').first().locator('td').last().locator('a'));
          // The snag's form (taller than the phone) keeps its Save button on screen.
          await page.getByTestId('snag-quick').first().click();
          await page.getByTestId('snag-save').waitFor();
          await check(`${lang}-snag-form-save`, page.getByTestId('snag-save'));
          await page.keyboard.press('Escape');
          await expect.poll(() => page.getByTestId('snag-save').count(), EVENTUALLY).toBe(0);
          await openMenu(`${lang}-snag-export`, page.getByTestId('snag-export-toggle'), page.getByTestId('snag-export-toggle').locator('xpath=..').locator('.dropdown-menu'));

          // The tiers table scrolls in its own box; the page does not widen.
          await page.goto('/tiers');
          await settleScreen(page);
          await page.getByTestId('tiers-table').waitFor();
          await check(`${lang}-tiers`);

          // The 360 viewer: its share menu, and the snag form keeps its primary action on screen.
          await page.goto(`/viewer/${seeded.visit.code}`);
          await settleScreen(page);
          await openMenu(`${lang}-viewer-share`, page.getByTestId('viewer-share'), page.getByTestId('viewer-share').locator('xpath=..').locator('.dropdown-menu'));
        }
        expect(failures, `outside the 360 px screen:\n${failures.join('\n')}`).toEqual([]);
      } finally {
        await context.close();
      }
    },
    300_000,
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
      await settleScreen(page);
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
      await settleScreen(page);
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

describe('the billing screens on a phone', () => {
  test(
    '/billing, /checkout, /invoices and /mycompany with their content fit 360 px in English and Arabic, and their primary action fits the screen',
    async ({ browser, baseUrl }) => {
      const buyer = await createUser({ super_admin: true });
      await withSettings(BILLING_SETTINGS, async () => {
        const { screens } = await billingScreens(buyer);
        const { context, page } = await phoneContext(browser, baseUrl);
        const failures: string[] = [];
        try {
          await signIn(page, { username: buyer.user.username, password: buyer.password });
          await expectSignedInLayout(page);
          for (const lang of ['en', 'ar'] as const) {
            await useLanguage(page, lang);
            for (const { path, primary } of screens) {
              await page.goto(path);
              await expect.poll(() => page.evaluate(() => document.documentElement.getAttribute('dir')), EVENTUALLY).toBe(lang === 'ar' ? 'rtl' : 'ltr');
              await settleScreen(page);
              const action = primary(page);
              await action.waitFor();
              await action.scrollIntoViewIfNeeded();
              const problems = await overflow(page);
              const box = await action.boundingBox();
              if (!box || box.x < -0.5 || box.x + box.width > PHONE.width + 0.5 || box.y < -0.5 || box.y + box.height > PHONE.height + 0.5) {
                problems.push(`primary action ${box ? `at ${Math.round(box.x)},${Math.round(box.y)} size ${Math.round(box.width)}×${Math.round(box.height)}` : 'not shown'}, outside 360×740`);
              }
              if (problems.length) {
                failures.push(`${path} (${lang}):\n    ${problems.join('\n    ')}`);
                await saveScreenshot(page, `phone-billing-${lang}-${path}`);
              }
            }
          }
          expect(failures, `billing screens on a 360 px phone:\n${failures.join('\n')}`).toEqual([]);
        } finally {
          await context.close();
        }
      });
    },
    300_000,
  );
});
