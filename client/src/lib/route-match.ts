/**
 * Route patterns such as '/project/:id' or '/visits/:id?' matched against a
 * pathname segment by segment (SPEC §2: ':param' segments match any value,
 * numeric segments match ':id'). Pure: used by the top bar title, the
 * breadcrumb trail and the guards, and unit-tested without a browser.
 */

export type RouteParams = Record<string, string>;

const segments = (path: string): string[] => path.split('/').filter((s) => s.length > 0);

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The parameters when `pathname` matches `pattern`, otherwise null. */
export function matchPattern(pattern: string, pathname: string): RouteParams | null {
  const want = segments(pattern);
  const have = segments(pathname.split(/[?#]/)[0]);
  const params: RouteParams = {};
  if (want.length === 0) return have.length === 0 ? params : null;
  for (let i = 0; i < want.length; i++) {
    const w = want[i];
    const h = have[i];
    if (w === '*') {
      params['*'] = have.slice(i).map(safeDecode).join('/');
      return params;
    }
    if (w.startsWith(':')) {
      const optional = w.endsWith('?');
      const name = w.slice(1, optional ? -1 : undefined);
      if (h === undefined) {
        if (optional) continue;
        return null;
      }
      params[name] = safeDecode(h);
      continue;
    }
    if (h === undefined || w.toLowerCase() !== h.toLowerCase()) return null;
  }
  return have.length <= want.length ? params : null;
}

/** How specific a pattern is: literal segments weigh more than parameters. */
const specificity = (pattern: string): number =>
  segments(pattern).reduce((n, s) => n + (s === '*' ? 0 : s.startsWith(':') ? 1 : 3), 0);

/** The most specific route whose path matches, with its parameters. */
export function findRoute<R extends { path: string }>(
  routes: readonly R[],
  pathname: string,
): { route: R; params: RouteParams } | null {
  let best: { route: R; params: RouteParams; score: number } | null = null;
  for (const route of routes) {
    const params = matchPattern(route.path, pathname);
    if (!params) continue;
    const score = specificity(route.path);
    if (!best || score > best.score) best = { route, params, score };
  }
  return best && { route: best.route, params: best.params };
}

/**
 * What identifies the screen at `pathname`: the layout rebuilds the page (and
 * plays its transition) only when this changes. It is the matched route with
 * its parameters, except those the route says its screen follows by itself;
 * an unknown path is its own screen.
 */
export function screenKey<R extends { path: string; sameScreenParams?: readonly string[] }>(routes: readonly R[], pathname: string): string {
  const found = findRoute(routes, pathname);
  if (!found) return pathname;
  const followed = new Set(found.route.sameScreenParams ?? []);
  const kept = Object.entries(found.params)
    .filter(([name]) => !followed.has(name))
    .sort(([a], [b]) => a.localeCompare(b));
  return `${found.route.path}?${new URLSearchParams(kept).toString()}`;
}

/**
 * The pattern form of a concrete path, numeric segments replaced by ':id'
 * ('/project/12' → '/project/:id'), as SPEC §2 asks of the breadcrumb trail.
 */
export const numericToIdPattern = (pathname: string): string =>
  '/' + segments(pathname).map((s) => (/^\d+$/.test(s) ? ':id' : s)).join('/');

/** A pattern with its parameters filled in; null when one is missing. */
export function fillPattern(pattern: string, params: RouteParams): string | null {
  const out: string[] = [];
  for (const s of segments(pattern)) {
    if (!s.startsWith(':')) {
      out.push(s);
      continue;
    }
    const optional = s.endsWith('?');
    const name = s.slice(1, optional ? -1 : undefined);
    const v = params[name];
    if (v === undefined || v === '') {
      if (optional) continue;
      return null;
    }
    out.push(encodeURIComponent(v));
  }
  return '/' + out.join('/');
}
