import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { settledTransitions } from './ui.js';

/** axe-core in the browser against WCAG 2.2 A and AA, for the accessibility sweep and the screens other tests open. */

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** axe's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol: the app's Content Security Policy (rightly) refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${AXE_SOURCE};0`);
  await settledTransitions(page);
  const violations = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Violation[] }> } }).axe
        .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
        .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }))),
    WCAG_TAGS,
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The language and theme the next page load shows (read from storage as the app keeps them). */
export async function useLook(page: Page, lang: 'en' | 'ar', dark: boolean) {
  await page.evaluate(
    ([l, d]) => {
      sessionStorage.setItem('language', l as string);
      localStorage.setItem('ls_language', l as string);
      localStorage.setItem('darkMode', String(d));
    },
    [lang, dark] as const,
  );
}
