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
  /** The label is a record's own name (a project, a sheet), shown as is rather than translated. */
  raw?: boolean;
}

/** What the screen itself knows of its place: the records above it (its project) and its own name. */
export interface PageCrumbs {
  parents?: Crumb[];
  current?: string | null;
}

const DASHBOARD = '/dashboard';

const substitute = (text: string, params: RouteParams) =>
  text.replace(/\{(\w+)\}/g, (m, name: string) => params[name] ?? m);

/**
 * The breadcrumb trail of a path (SPEC §2): it starts with Dashboard, follows
 * the route's parent chain and substitutes route parameters. The trail is
 * meant to be hidden when it has one item or none.
 */
export function buildBreadcrumbs(routes: readonly CrumbRoute[], pathname: string, page: PageCrumbs = {}): Crumb[] {
  // Any ':param' segment matches a value, so '/project/12' finds '/project/:id'.
  const found = findRoute(routes, pathname);
  if (!found) return [];
  const params = found.params;
  // Each link is the path the child names as its parent ('/visits'), not the parent's pattern
  // ('/visits/:id?'), whose parameters would be filled with the child's own.
  const chain: { route: CrumbRoute; link: string }[] = [{ route: found.route, link: found.route.path }];
  const seen = new Set([found.route.path]);
  let parent = found.route.parentPath;
  while (parent && !seen.has(parent)) {
    seen.add(parent);
    const wanted = parent;
    // A parent is named by its pattern, or by a path its pattern matches (an optional parameter left out).
    const p = routes.find((r) => r.path === wanted) ?? findRoute(routes, wanted)?.route;
    if (!p) break;
    chain.unshift({ route: p, link: wanted });
    parent = p.parentPath;
  }
  if (chain[0].route.path !== DASHBOARD) {
    const dash = routes.find((r) => r.path === DASHBOARD);
    chain.unshift({ route: dash ?? { path: DASHBOARD, title: 'Dashboard' }, link: DASHBOARD });
  }
  const crumbs: Crumb[] = chain.map(({ route, link }, i) => ({
    label: substitute(route.breadcrumb ?? route.title, params),
    to: i === chain.length - 1 ? null : fillPattern(link, params),
  }));
  const last = crumbs.pop()!;
  return [...crumbs, ...(page.parents ?? []), page.current ? { label: page.current, to: null, raw: true } : last];
}

/** SPEC §2: the trail is hidden when it has one item or none. */
export const breadcrumbsVisible = (crumbs: readonly Crumb[]) => crumbs.length > 1;
