import { expect } from 'vitest';
import { symbols as pinoSymbols } from 'pino';
import { config } from '@sitewalk/core/config.js';
import { logger } from '@sitewalk/core/logger.js';
import { startAdskStandIn, type AdskStandIn, type StandInHub } from '../../test/support/adsk-stand-in.js';
import { ADSK_CLIENT, ADSK_SECRET, pdf, sampleHubs } from '../../test/support/adsk-sample.js';
import { api, type TestUser } from './helpers.js';
import type { SettingsLock } from './settings-lock.js';

export { ADSK_CLIENT, ADSK_SECRET, pdf, sampleHubs };

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
