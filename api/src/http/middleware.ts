import crypto from 'node:crypto';
import type { Context, Next } from 'koa';
import { HTTP_DEFAULTS } from '@sitewalk/proto';
import { logger } from '../core/logger.js';
import { HttpError } from '../core/errors.js';
import { safeEqual } from '../core/secrets.js';

/** A request id on every response and in every log line of the request. */
export async function requestContext(ctx: Context, next: Next): Promise<void> {
  const incoming = ctx.get('x-request-id');
  const id = /^[A-Za-z0-9._-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID();
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  ctx.state.log = logger.child({ req_id: id });
  const start = performance.now();
  try {
    await next();
  } finally {
    if (ctx.path.startsWith('/api')) {
      ctx.state.log.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - start) },
        'request',
      );
    }
  }
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
  await next();
}
