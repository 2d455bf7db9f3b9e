import { expect } from 'vitest';
import { symbols as pinoSymbols } from 'pino';
import { config } from '../src/core/config.js';
import { logger } from '../src/core/logger.js';
import { startAdskStandIn, type AdskStandIn, type StandInHub } from '../../test/support/adsk-stand-in.js';
import { planPdf, PAPER } from '../../workers/test/pdf-fixtures.js';
import { api, type TestUser } from './helpers.js';
import type { SettingsLock } from './settings-lock.js';

export const ADSK_CLIENT = 'sitewalk-test-client';
export const ADSK_SECRET = 'sitewalk-test-secret';

/** Small real PDFs: `pages` A6 pages each. */
export const pdf = (pages = 1) => planPdf(Array.from({ length: pages }, () => ({ size: PAPER.A6 })));

/**
 * The Autodesk account the tests browse: three projects in the first hub
 * (more than one page of two), folders within folders, PDFs and a model
 * with two 2D views.
 */
export async function sampleHubs(): Promise<StandInHub[]> {
  return [
    {
      name: 'Acme Construction',
      projects: [
        {
          name: 'Tower A',
          sheets: [
            { number: 'A-101', title: 'Ground floor' },
            { number: 'A-102', title: 'First floor' },
            { number: 'A-103', title: 'Roof' },
          ],
          folders: [
            {
              name: 'Project Files',
              files: [{ name: 'A-101 Plans.pdf', kind: 'pdf', versions: [await pdf(2)] }],
              folders: [{ name: 'Models', files: [{ name: 'Tower.rvt', kind: 'rvt', versions: [{ 'A-201 Level 1': await pdf(1), 'A-202 Level 2': await pdf(1) }] }] }],
            },
          ],
        },
        {
          name: 'Tower B',
          folders: [
            {
              name: 'Project Files',
              files: [
                { name: 'B-1.pdf', kind: 'pdf', versions: [await pdf(1)] },
                { name: 'B-2.pdf', kind: 'pdf', versions: [await pdf(1)] },
                { name: 'B-3.pdf', kind: 'pdf', versions: [await pdf(1), await pdf(1)] },
              ],
            },
          ],
        },
        { name: 'Tower C', folders: [{ name: 'Project Files' }] },
      ],
    },
    { name: 'Beta Partners', projects: [{ name: 'Depot', folders: [{ name: 'Project Files' }] }] },
  ];
}

/** Starts the stand-in and points SiteWalk at it. */
export async function startStandIn(hubs?: StandInHub[]): Promise<AdskStandIn> {
  const standIn = await startAdskStandIn({ clientId: ADSK_CLIENT, clientSecret: ADSK_SECRET, hubs: hubs ?? (await sampleHubs()), pageSize: 2 });
  config.adskBaseUrl = standIn.url;
  return standIn;
}

export const enableAdsk = (lock: SettingsLock) => lock.set({ adsk_enable: true, adsk_client: ADSK_CLIENT, adsk_secret: ADSK_SECRET });

/** The first step of Connect: SiteWalk's authorize URL, and its state. */
export async function authUrl(user: TestUser): Promise<{ url: URL; state: string }> {
  const res = await api().get('/api/autodesk/auth-url').set(user.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const url = new URL(res.body.data.authUrl);
  return { url, state: url.searchParams.get('state')! };
}

/** What a person does at Autodesk: opens the page and clicks Allow (or Deny); returns where Autodesk sends the browser. */
export async function consent(url: URL, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const ticket = /name="ticket" value="([^"]+)"/.exec(await page.text())![1];
  const res = await fetch(new URL('/authentication/v2/authorize/decision', url), {
    method: 'POST',
    body: new URLSearchParams({ ticket, decision }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** Sends the browser's return from Autodesk to SiteWalk; returns the redirect and the toast it carries. */
export async function callback(back: URL, search = back.search) {
  const res = await api().get(`/api/autodesk/callback${search}`);
  expect(res.status).toBe(302);
  const location = new URL(res.headers.location, 'http://x');
  return { res, location, result: JSON.parse(location.searchParams.get('adsk_callback')!) as { status: string; message: string } };
}

/** The whole round trip: Connect, Allow, back to SiteWalk. */
export async function connect(user: TestUser) {
  const { url } = await authUrl(user);
  return callback(await consent(url));
}

/**
 * Everything the server logs, while `fn` runs, at debug level: for checking
 * that no token is ever written to a log line.
 */
export async function captureLogs<T>(fn: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const stream = (logger as unknown as Record<symbol, { write: (s: string) => unknown }>)[pinoSymbols.streamSym];
  const lines: string[] = [];
  const write = stream.write;
  const level = logger.level;
  stream.write = (s: string) => {
    lines.push(s);
    return true;
  };
  logger.level = 'debug';
  try {
    return { value: await fn(), lines };
  } finally {
    stream.write = write;
    logger.level = level;
  }
}

/** Every token the stand-in ever issued, none of which may show in `text`. */
export function expectNoTokenIn(standIn: AdskStandIn, text: string) {
  const leaked = standIn.allTokens().filter((t) => text.includes(t));
  expect(leaked, 'an Autodesk token leaked').toEqual([]);
}
