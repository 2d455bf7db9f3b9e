import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Next } from 'koa';
import helmet from 'koa-helmet';

type HelmetOptions = Parameters<typeof helmet>[0];

/**
 * helmet's security headers (CSP, HSTS, X-Content-Type-Options, …), worked
 * out once at start-up instead of on every request. koa-helmet runs helmet's
 * dozen sub-middlewares through a promise on each request to set the very
 * same values; with static options (no per-request CSP nonce: no function
 * among the directives) the result never changes, so it is recorded once
 * here and each answer only gets the recorded headers.
 */
export function securityHeaders(options: HelmetOptions): (ctx: Context, next: Next) => Promise<void> {
  const set: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void set.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
    getHeader: () => undefined,
    hasHeader: () => false,
  } as unknown as ServerResponse;
  const req = { method: 'GET', url: '/', headers: {} } as IncomingMessage;
  // helmet sets every header synchronously, before the promise koa-helmet wraps it in settles.
  void helmet(options)({ req, res: recorder } as unknown as Context, async () => undefined).catch(() => undefined);
  if (!set.length) throw new Error('helmet set no headers synchronously: the security headers could not be worked out.');
  // Not async: nothing is left to do after the route, so no frame of this middleware waits through every answer.
  return (ctx, next) => {
    const res = ctx.res;
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    return next();
  };
}
