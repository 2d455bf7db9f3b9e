import type Router from '@koa/router';

type Layer = Router['stack'][number];
type Matched = { path: Layer[]; pathAndMethod: Layer[]; route: boolean };

/**
 * The first segment after the router's prefix of a route path ('/api/notifications/mark-read'
 * → 'notifications'), lower-cased as routes match regardless of case; null when it is not
 * plain text (a parameter, a pattern), so the route may match any first segment.
 */
export function firstSegment(path: string, prefix: string): string | null {
  if (path.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return null;
  const rest = path.slice(prefix.length);
  if (rest[0] !== '/') return null;
  const end = rest.indexOf('/', 1);
  const seg = rest.slice(1, end < 0 ? undefined : end);
  return /^[A-Za-z0-9._~-]+$/.test(seg) ? seg.toLowerCase() : null;
}

/**
 * Makes a router look only at the routes that can match a request: its
 * routes grouped by their first path segment. @koa/router otherwise tests
 * every route's pattern on every request (and logs each test through
 * `debug`, whose arguments are built even when it prints nothing): with
 * the API's hundred-odd routes that was about 20 KB of garbage and a
 * hundred regular expressions per request. Same answers, same order of
 * precedence: a route whose first segment is a parameter stays in every
 * group. Call it once every route is registered.
 */
export function indexRoutesByFirstSegment(router: Router): Router {
  const prefix = (router.opts.prefix ?? '').replace(/\/$/, '');
  const layers = [...router.stack];
  const keyOf = (l: Layer) => (typeof l.path === 'string' ? firstSegment(l.path, prefix) : null);
  const anywhere = layers.filter((l) => keyOf(l) === null);
  const groups = new Map<string, Layer[]>();
  for (const l of layers) {
    const key = keyOf(l);
    if (key !== null && !groups.has(key)) groups.set(key, layers.filter((m) => keyOf(m) === key || keyOf(m) === null));
  }
  // router.match is what the router's middleware calls per request; the result is the one @koa/router builds.
  (router as unknown as { match: (path: string, method: string) => Matched }).match = (path, method) => {
    const matched: Matched = { path: [], pathAndMethod: [], route: false };
    const candidates = groups.get(requestSegment(path, prefix)) ?? anywhere;
    for (let i = 0; i < candidates.length; i++) {
      const layer = candidates[i];
      if (!layer.match(path)) continue;
      matched.path.push(layer);
      if (layer.methods.length === 0 || layer.methods.includes(method)) {
        matched.pathAndMethod.push(layer);
        if (layer.methods.length > 0) matched.route = true;
      }
    }
    return matched;
  };
  return router;
}

/** The request path's first segment after the prefix, lower-cased ('' when there is none). */
function requestSegment(path: string, prefix: string): string {
  if (prefix && path.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return '';
  const start = prefix.length + 1;
  const end = path.indexOf('/', start);
  return path.slice(start, end < 0 ? undefined : end).toLowerCase();
}
