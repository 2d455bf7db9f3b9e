import { fillPattern, findRoute, type RouteParams } from './route-match';

/** What the breadcrumb trail needs to know of a route. */
export interface CrumbRoute {
  path: string;
  title: string;
  breadcrumb?: string;
  parentPath?: string;
}

export interface Crumb {
  /** Untranslated label (a translation key), parameters already substituted. */
  label: string;
  /** Where the crumb links to; null for the current page or an unreachable parent. */
  to: string | null;
}

const DASHBOARD = '/dashboard';

const substitute = (text: string, params: RouteParams) =>
  text.replace(/\{(\w+)\}/g, (m, name: string) => params[name] ?? m);

/**
 * The breadcrumb trail of a path (SPEC §2): it starts with Dashboard, follows
 * the route's parent chain and substitutes route parameters. The trail is
 * meant to be hidden when it has one item or none.
 */
export function buildBreadcrumbs(routes: readonly CrumbRoute[], pathname: string): Crumb[] {
  // Any ':param' segment matches a value, so '/project/12' finds '/project/:id'.
  const found = findRoute(routes, pathname);
  if (!found) return [];
  const params = found.params;
  const chain: CrumbRoute[] = [found.route];
  const seen = new Set([found.route.path]);
  let parent = found.route.parentPath;
  while (parent && !seen.has(parent)) {
    seen.add(parent);
    const p = routes.find((r) => r.path === parent);
    if (!p) break;
    chain.unshift(p);
    parent = p.parentPath;
  }
  if (chain[0].path !== DASHBOARD) {
    const dash = routes.find((r) => r.path === DASHBOARD);
    chain.unshift(dash ?? { path: DASHBOARD, title: 'Dashboard' });
  }
  return chain.map((r, i) => ({
    label: substitute(r.breadcrumb ?? r.title, params),
    to: i === chain.length - 1 ? null : fillPattern(r.path, params),
  }));
}

/** SPEC §2: the trail is hidden when it has one item or none. */
export const breadcrumbsVisible = (crumbs: readonly Crumb[]) => crumbs.length > 1;
