import { Suspense, type ComponentType } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { effectiveRole } from '@sitewalk/proto';
import { useAuthStore } from '../stores/auth.store';
import { useSettings } from '../stores/settings.store';
import { roleAllowed } from '../lib/sidebar-menu';
import { missingProfileFields, profileGuardRedirect } from '../lib/profile-completeness';
import { Spinner } from '../components/spinner';
import NotFoundPage from '../pages/not-found/not-found-page';
import { EntityGuard } from './entity-guard';
import type { AppRoute } from './route-types';

/** Signed-in screens: not logged in → /login, remembering where the user was going. */
export function RequireAuth() {
  const status = useAuthStore((s) => s.status);
  const endedByLogout = useAuthStore((s) => s.endedByLogout);
  const location = useLocation();
  if (status === 'checking') return <Spinner size="lg" fullPage />;
  if (status !== 'authenticated') {
    return <Navigate to="/login" replace state={endedByLogout ? undefined : { from: { pathname: location.pathname, search: location.search, hash: location.hash } }} />;
  }
  return <Outlet />;
}

/**
 * One screen with its guards: hidden by settings → 404; role not allowed →
 * /dashboard; profile lacking mandatory fields → /editprofile; edit routes
 * load their entity first.
 */
export function RouteScreen({ route, Component }: { route: AppRoute; Component: ComponentType }) {
  const user = useAuthStore((s) => s.user);
  const settings = useSettings();
  const location = useLocation();
  if (route.enabledWhen && !route.enabledWhen(settings)) return <NotFoundPage />;
  if (route.requiresAuth) {
    if (!roleAllowed(route, effectiveRole(user))) return <Navigate to="/dashboard" replace />;
    const missing = missingProfileFields(user, settings);
    const to = profileGuardRedirect(route, location.pathname, missing);
    if (to) return <Navigate to={to} replace state={{ missingFields: missing, from: location.pathname }} />;
  }
  const screen = (
    <Suspense fallback={<Spinner size="lg" />}>
      <Component />
    </Suspense>
  );
  return route.entity ? <EntityGuard kind={route.entity}>{screen}</EntityGuard> : screen;
}
