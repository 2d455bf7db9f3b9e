import fs from 'node:fs';
import { describe, expect } from 'vitest';
import nodePath from 'node:path';
import { ARTIFACTS_DIR, saveScreenshot, test } from './browser.js';
import { EVENTUALLY, expectSignedInLayout, settleScreen, signIn } from './support/ui.js';
import { concretePath, seed } from './support/route-sweep.js';
import { seriousViolations, useLook, type Violation } from './support/axe.js';
import { ROUTES } from '../client/src/routes/route-table.js';
import { createUser, withSettings } from './support/backend.js';
import { BILLING_SETTINGS, billingScreens } from './support/billing-fixtures.js';

/**
 * Issue 25 item 8: every screen of the route table, light and dark, English
 * and Arabic, checked by axe-core in the browser against WCAG 2.2 A and AA:
 * no serious or critical violation (text contrast among them). One page load
 * per route, the four looks taken in turn (AXE_ALL_LOOKS=1: every look of every route).
 */

/** Violations as lines a person reads in the failure: the rule, and where (at most three places each). */
const violationReport = (label: string, found: Violation[]) =>
  `${label}:\n${found.map((v) => `    [${v.impact}] ${v.id}: ${v.help}\n${v.nodes.map((n) => `      ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 160)}`).join('\n')}`).join('\n')}`;

describe('accessibility', () => {
  test(
    'axe-core finds no serious or critical WCAG 2.2 AA violation on any screen, light and dark, English and Arabic',
    async ({ page }) => {
      const seeded = await seed();
      const failures: string[] = [];
      // Each route in one of the four looks, in turn, so every route and every look is checked in one
      // page load per route (CI's time); AXE_ALL_LOOKS=1 checks every route in every look.
      const LOOKS = [['en', false], ['ar', true], ['en', true], ['ar', false]] as const;
      let turn = 0;
      const sweep = async (paths: string[]) => {
        for (const path of paths) {
          const looks = process.env.AXE_ALL_LOOKS ? LOOKS : [LOOKS[turn++ % LOOKS.length]];
          for (const [lang, dark] of looks) {
            await useLook(page, lang, dark);
            await page.goto(path);
            await expect.poll(() => page.evaluate(() => [document.documentElement.dir, document.documentElement.getAttribute('data-bs-theme')].join(' ')), EVENTUALLY).toBe(`${lang === 'ar' ? 'rtl' : 'ltr'} ${dark ? 'dark' : 'light'}`);
            await settleScreen(page);
            const found = await seriousViolations(page);
            // Written as it goes: a slow sweep on a busy machine still shows where it is.
            fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
            fs.appendFileSync(nodePath.join(ARTIFACTS_DIR, 'axe-sweep.log'), `${new Date().toISOString()} ${lang} ${dark ? 'dark' : 'light'} ${path} ${found.map((v) => `${v.id}@${v.nodes.map((n) => n.target.join(' ')).join(',')}`).join(' ')}\n`);
            if (found.length) {
              failures.push(violationReport(`${path} (${lang} ${dark ? 'dark' : 'light'})`, found));
              await saveScreenshot(page, `axe-${lang}-${dark ? 'dark' : 'light'}-${path}`);
            }
          }
        }
      };
      await page.goto('/login');
      await sweep(ROUTES.filter((r) => !r.requiresAuth).map((r) => concretePath(r.path, seeded)));
      await useLook(page, 'en', false);
      await page.goto('/login');
      await signIn(page, { username: seeded.owner.user.username, password: seeded.owner.password });
      await expectSignedInLayout(page);
      const paths = ROUTES.filter((r) => r.requiresAuth).map((r) => concretePath(r.path, seeded));
      expect(paths.length).toBeGreaterThan(20);
      await sweep(paths);
      expect(failures, `axe-core violations:\n${failures.join('\n')}`).toEqual([]);
    },
    900_000,
  );
});

describe('accessibility of the billing screens', () => {
  test(
    '/billing, /checkout, /invoices and /mycompany with their content have no serious or critical WCAG 2.2 AA violation, light and dark, English and Arabic',
    async ({ page }) => {
      const buyer = await createUser({ super_admin: true });
      await withSettings(BILLING_SETTINGS, async () => {
        const { screens } = await billingScreens(buyer);
        await signIn(page, { username: buyer.user.username, password: buyer.password });
        await expectSignedInLayout(page);
        const failures: string[] = [];
        // Four screens in four looks: sixteen loads, each of a screen with its invoices, prices and company.
        for (const [lang, dark] of [['en', false], ['ar', true], ['en', true], ['ar', false]] as const) {
          for (const { path, primary } of screens) {
            await useLook(page, lang, dark);
            await page.goto(path);
            await expect.poll(() => page.evaluate(() => [document.documentElement.dir, document.documentElement.getAttribute('data-bs-theme')].join(' ')), EVENTUALLY).toBe(`${lang === 'ar' ? 'rtl' : 'ltr'} ${dark ? 'dark' : 'light'}`);
            await settleScreen(page);
            await primary(page).waitFor();
            const found = await seriousViolations(page);
            if (found.length) {
              failures.push(violationReport(`${path} (${lang} ${dark ? 'dark' : 'light'})`, found));
              await saveScreenshot(page, `axe-billing-${lang}-${dark ? 'dark' : 'light'}-${path}`);
            }
          }
        }
        expect(failures, `axe-core violations:\n${failures.join('\n')}`).toEqual([]);
      });
    },
    300_000,
  );
});
