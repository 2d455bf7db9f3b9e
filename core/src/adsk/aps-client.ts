import { Readable } from 'node:stream';
import { config } from '../config.js';
import { HttpError } from '../errors.js';
import { logger } from '../logger.js';
import { retryAfterMs } from './retry-after.js';

/**
 * The one HTTP client of Autodesk Platform Services. It never logs or
 * returns a token: logs name the method and the path only (no query, no
 * headers, no bodies).
 */

/** Autodesk answered with an error; `status` is Autodesk's, `message` is for people. */
export class ApsError extends HttpError {
  constructor(
    public readonly apsStatus: number,
    message: string,
  ) {
    // What SiteWalk answers: Autodesk's 404/403 mean the same to the user; anything else is Autodesk's trouble (502).
    super(apsStatus === 404 ? 404 : apsStatus === 403 ? 403 : apsStatus === 401 ? 409 : apsStatus === 429 ? 503 : 502, message);
  }
}

/** Most 429s in a row one call waits out before giving up. */
export const MAX_THROTTLED_TRIES = 8;
const CALL_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An address at APS: a path under the base URL, or a full URL Autodesk gave (links.next). */
export function apsUrl(pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${config.adskBaseUrl}${pathOrUrl}`;
}

/** The path of a URL, for logs (never its query). */
const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return '?';
  }
};

export interface ApsRequest {
  method?: 'GET' | 'POST';
  /** Bearer token of the user. */
  token?: string;
  headers?: Record<string, string>;
  form?: Record<string, string>;
  /** Wait and retry on 429 (default true). */
  retryThrottled?: boolean;
}

/**
 * One call, waiting out 429s as Retry-After asks (up to MAX_THROTTLED_TRIES
 * times). Other error statuses come back as the Response for the caller to read.
 */
export async function apsRaw(pathOrUrl: string, req: ApsRequest = {}): Promise<Response> {
  const url = apsUrl(pathOrUrl);
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  let body: string | undefined;
  if (req.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(req.form).toString();
  }
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { method: req.method ?? 'GET', headers, body, redirect: 'follow', signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    } catch (err) {
      logger.warn({ method: req.method ?? 'GET', path: pathOf(url), err: (err as Error).message }, 'Autodesk did not answer');
      throw new ApsError(502, 'Autodesk did not answer. Please try again in a moment.');
    }
    if (res.status !== 429 || req.retryThrottled === false) return res;
    if (attempt + 1 >= MAX_THROTTLED_TRIES) {
      await res.body?.cancel();
      throw new ApsError(429, 'Autodesk is limiting requests right now. Please try again in a few minutes.');
    }
    const wait = retryAfterMs(res.headers.get('retry-after'), attempt);
    await res.body?.cancel();
    logger.info({ path: pathOf(url), wait_ms: wait, attempt: attempt + 1 }, 'Autodesk asked to slow down (429): waiting');
    await sleep(wait);
  }
}

/** A short, safe reason from an Autodesk error body (JSON:API errors, developerMessage, OAuth error_description). */
async function reasonOf(res: Response): Promise<string> {
  try {
    const j = (await res.json()) as Record<string, unknown>;
    const errors = j.errors as { detail?: string; title?: string }[] | undefined;
    const text = errors?.[0]?.detail ?? errors?.[0]?.title ?? j.developerMessage ?? j.error_description ?? j.diagnostic ?? j.reason ?? j.detail ?? '';
    return String(text).slice(0, 200).replace(/[.\s]+$/, '');
  } catch {
    return '';
  }
}

/** Reads an Autodesk answer as JSON, turning an error status into an ApsError with a readable message. */
export async function apsJson<T>(pathOrUrl: string, req: ApsRequest = {}): Promise<T> {
  const res = await apsRaw(pathOrUrl, req);
  if (res.ok) return (await res.json()) as T;
  const reason = await reasonOf(res);
  logger.warn({ method: req.method ?? 'GET', path: pathOf(apsUrl(pathOrUrl)), status: res.status }, 'Autodesk refused a call');
  throw new ApsError(res.status, messageFor(res.status, reason));
}

function messageFor(status: number, reason: string): string {
  if (status === 401) return 'Your Autodesk link has expired. Please connect again.';
  if (status === 403) return 'Your Autodesk account is not allowed to see this.';
  if (status === 404) return 'This was not found at Autodesk (it may have been moved or deleted).';
  return `Autodesk answered with an error (${status})${reason ? `: ${reason}` : ''}. Please try again in a moment.`;
}

/** A JSON:API answer of Data Management. */
export interface JsonApiPage<T = JsonApiResource> {
  data: T[] | T;
  included?: JsonApiResource[];
  links?: { next?: { href?: string } | string; self?: { href?: string } };
}
export interface JsonApiResource {
  type: string;
  id: string;
  attributes?: Record<string, unknown> & { name?: string; displayName?: string; extension?: { type?: string } };
  relationships?: Record<string, { data?: { type: string; id: string }; meta?: { link?: { href?: string } } }>;
}

const nextOf = (links: JsonApiPage['links']) => (typeof links?.next === 'string' ? links.next : links?.next?.href) ?? null;

/** Most pages one list follows: a guard against a server that links a page to itself. */
const MAX_PAGES = 500;

/**
 * Every resource of a paged Data Management list: asks for the biggest page
 * Autodesk allows and follows `links.next` to the end. `included` resources
 * (the tip versions of folder contents) are gathered too.
 */
export async function apsAllPages(path: string, token: () => Promise<string>): Promise<{ data: JsonApiResource[]; included: JsonApiResource[] }> {
  const data: JsonApiResource[] = [];
  const included: JsonApiResource[] = [];
  let url: string | null = apsUrl(path);
  const seen = new Set<string>();
  for (let n = 0; url && n < MAX_PAGES; n++) {
    if (seen.has(url)) break;
    seen.add(url);
    const page: JsonApiPage = await apsJson<JsonApiPage>(url, { token: await token() });
    data.push(...(Array.isArray(page.data) ? page.data : [page.data]));
    included.push(...(page.included ?? []));
    url = nextOf(page.links);
  }
  return { data, included };
}

/** A download as a stream (follows Autodesk's redirects); an error status is an ApsError. */
export async function apsDownload(pathOrUrl: string, token?: string): Promise<Readable> {
  const res = await apsRaw(pathOrUrl, { token, headers: { accept: '*/*' } });
  if (!res.ok || !res.body) {
    const reason = await reasonOf(res);
    throw new ApsError(res.status, messageFor(res.status, reason));
  }
  return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
}
