/**
 * Sidebar order (SPEC §2): the dashboard first, then the ordinary menu items
 * alphabetical by their translated label, then a group headed Settings with
 * the super-admin items, shown to super admins only.
 */

export interface MenuRoute {
  path: string;
  title: string;
  menuLabel?: string;
  showInMenu?: boolean;
  allowedRoles?: readonly string[];
}

export interface SidebarMenu<R> {
  main: R[];
  admin: R[];
}

const DASHBOARD = '/dashboard';

/** A route reserved to super admins (it belongs in the Settings group). */
export const isAdminRoute = (r: MenuRoute) =>
  !!r.allowedRoles && r.allowedRoles.length > 0 && r.allowedRoles.every((role) => role === 'super_admin');

/** Whether a role may open a route (no list means every signed-in user). */
export const roleAllowed = (r: Pick<MenuRoute, 'allowedRoles'>, role: string) =>
  !r.allowedRoles || r.allowedRoles.length === 0 || r.allowedRoles.includes(role) || role === 'super_admin';

export function sidebarMenu<R extends MenuRoute>(
  routes: readonly R[],
  opts: { role: string; label: (r: R) => string; locale: string },
): SidebarMenu<R> {
  const collator = new Intl.Collator(opts.locale, { sensitivity: 'base', numeric: true });
  const byLabel = (a: R, b: R) => collator.compare(opts.label(a), opts.label(b));
  const visible = routes.filter((r) => r.showInMenu && roleAllowed(r, opts.role));
  const dashboard = visible.filter((r) => r.path === DASHBOARD);
  const ordinary = visible.filter((r) => r.path !== DASHBOARD && !isAdminRoute(r)).sort(byLabel);
  const admin = opts.role === 'super_admin' ? visible.filter((r) => r.path !== DASHBOARD && isAdminRoute(r)).sort(byLabel) : [];
  return { main: [...dashboard, ...ordinary], admin };
}

/**
 * Where a menu item leads: its path without the optional parameters
 * ('/visits/:id?' → '/visits'), which a menu link never has.
 */
export const menuPath = (path: string): string => path.replace(/\/:[^/]+\?/g, '') || '/';
