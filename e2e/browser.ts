import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { test as base, inject } from 'vitest';
import { launchBrowser } from './support/chromium.js';
import { ACTION_TIMEOUT } from './support/ui.js';
import './support/provided.js';

export { launchBrowser };

export const ARTIFACTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');
const slug = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 90);

/** Writes a PNG of the page under e2e/artifacts/ and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${slug(name)}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** What the pages of a test printed as errors; shown when the test fails. */
function watchErrors(context: BrowserContext, into: string[]): void {
  const watch = (page: Page) => {
    page.on('pageerror', (err) => into.push(`[pageerror ${page.url()}] ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error') into.push(`[console ${page.url()}] ${msg.text()}`);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
}

/**
 * The e2e `test`: one Chromium per test file, a fresh context (no cookies,
 * no storage) per test with its first page, and on failure a screenshot of
 * every open page under e2e/artifacts/ plus the pages' errors in the log.
 */
export const test = base.extend<{
  $file: { browser: Browser };
  $test: { context: BrowserContext; page: Page; baseUrl: string };
}>({
  browser: [
    async ({}, use) => {
      const browser = await launchBrowser();
      await use(browser);
      await browser.close();
    },
    { scope: 'file' },
  ],
  baseUrl: async ({}, use) => {
    await use(inject('baseUrl'));
  },
  context: async ({ browser, baseUrl, task }, use) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const errors: string[] = [];
    watchErrors(context, errors);
    // The onboarding tour opens by itself on a new user's dashboard and covers the
    // screen; these tests are about other things, so every user has seen it.
    await context.addInitScript(() => {
      try {
        localStorage.setItem('onboardingCompleted', 'true');
      } catch {
        /* about:blank has no storage */
      }
    });
    await use(context);
    if (task.result?.state === 'fail') {
      const name = `${path.basename(task.file?.name ?? 'e2e', '.e2e.test.ts')}--${task.name}`;
      const pages = context.pages();
      for (const [i, page] of pages.entries()) {
        const file = await saveScreenshot(page, pages.length > 1 ? `FAILED--${name}--page${i + 1}` : `FAILED--${name}`).catch(() => null);
        if (file) console.error(`[e2e] screenshot of ${page.url()}: ${path.relative(process.cwd(), file)}`);
      }
      if (errors.length) console.error(`[e2e] browser errors during "${task.name}":\n${errors.join('\n')}`);
    }
    await context.close();
  },
  page: async ({ context }, use) => {
    const page = await context.newPage();
    // Slower than a desktop on a shared two-core machine, yet a missing element fails in seconds, not minutes.
    page.setDefaultTimeout(ACTION_TIMEOUT);
    await use(page);
  },
});
