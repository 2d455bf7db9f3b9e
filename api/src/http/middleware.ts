import crypto from 'node:crypto';
import type { Context, Next } from 'koa';
import { HTTP_DEFAULTS } from '@sitewalk/proto';
import { logger, type Logger } from '@sitewalk/core/logger.js';
import { HttpError } from '@sitewalk/core/errors.js';
import { safeEqual } from '@sitewalk/core/secrets.js';

/**
 * The log of one request: every line carries the request id, and the user id
 * once the request is authenticated. pino's child logger with those fields is
 * made on first use only — most requests log nothing but their request line,
 * and a child per request (its fields serialised through the redaction) was a
 * fixed cost of every answer, even at a level that logs nothing.
 */
class RequestLog {
  #child: Logger | undefined;
  constructor(readonly fields: { req_id: string; user_id?: number }) {}
  get logger(): Logger {
    return (this.#child ??= logger.child({ ...this.fields }));
  }
  set(name: 'user_id', value: number): void {
    this.fields[name] = value;
    this.#child = undefined;
  }
}

/**
 * What the request context middleware puts in ctx.state: the request id and
 * its log, as an accessor of the class rather than one defined per request.
 */
class RequestState {
  [key: string]: unknown;
  constructor(
    readonly requestId: string,
    readonly requestLog: RequestLog,
  ) {}
  get log(): Logger {
    return this.requestLog.logger;
  }
  set log(v: Logger) {
    Object.defineProperty(this, 'log', { value: v, writable: true, configurable: true, enumerable: true });
  }
}

/** A request id on every response and in every log line of the request (ctx.state.log). */
export async function requestContext(ctx: Context, next: Next): Promise<void> {
  const incoming = ctx.get('x-request-id');
  const id = incoming && /^[A-Za-z0-9._-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID();
  const log = new RequestLog({ req_id: id });
  // The first middleware: ctx.state is still the empty object Koa made; anything set on it before is kept.
  ctx.state = Object.assign(new RequestState(id, log), ctx.state);
  ctx.set('X-Request-Id', id);
  const start = performance.now();
  try {
    await next();
  } finally {
    // The request line, with the fields a child would add, without making one.
    if (logger.isLevelEnabled('info') && ctx.path.startsWith('/api')) {
      logger.info({ ...log.fields, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - start) }, 'request');
    }
  }
}

/** Adds the user id to every later log line of the request. */
export function setLogUser(ctx: Context, userId: number): void {
  (ctx.state.requestLog as RequestLog | undefined)?.set('user_id', userId);
}

/**
 * Ends a request that runs longer than the limit with 503; uploads are exempt
 * because a large file on a slow line takes as long as it takes.
 */
export function requestTimeout(ms: number, isUpload: (ctx: Context) => boolean) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (isUpload(ctx)) return next();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new HttpError(503, 'The server took too long to answer. Please try again.')), ms);
    });
    try {
      await Promise.race([next(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}

export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Double-submit CSRF check: a state-changing request that carries cookies
 * must echo the XSRF-TOKEN cookie in X-XSRF-TOKEN. Bearer-only clients
 * (no cookies) cannot be forged by another site and pass.
 */
export async function csrfProtection(ctx: Context, next: Next): Promise<void> {
  if (SAFE_METHODS.has(ctx.method) || !ctx.get('cookie')) return next();
  const cookie = ctx.cookies.get(CSRF_COOKIE);
  const header = ctx.get(CSRF_HEADER);
  if (!cookie || !header || !safeEqual(decodeURIComponent(cookie), header)) {
    throw new HttpError(419, HTTP_DEFAULTS[419]);
  }
  return next();
}

/**
 * Turns an object answer into its JSON text, once. Registered just inside
 * compression: koa-compress asks the answer's length (for its threshold),
 * which for an object makes koa JSON.stringify it, and koa stringified it
 * again to send it. The Content-Type stays application/json.
 */
export async function serializeJsonOnce(ctx: Context, next: Next): Promise<void> {
  await next();
  const body: unknown = ctx.body;
  if (isJsonBody(body)) ctx.body = JSON.stringify(body);
}

/** What koa sends as JSON: an object that is none of the bodies it sends as they are. */
function isJsonBody(body: unknown): boolean {
  return (
    body !== null &&
    typeof body === 'object' &&
    !Buffer.isBuffer(body) &&
    typeof (body as { pipe?: unknown }).pipe !== 'function' &&
    !(body instanceof ReadableStream) &&
    !(body instanceof Blob) &&
    !(body instanceof Response)
  );
}
