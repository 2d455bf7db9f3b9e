import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's Chromium, headless. Without the background-networking flags it
 * keeps trying to reach Google's services, which this sandbox refuses.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}
