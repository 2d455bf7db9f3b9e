import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { ROUTES, REDIRECTS } from './route-table';
import { RequireAuth, RouteScreen } from './guards';
import { RootShell } from '../components/root-shell';
import { PublicLayout } from '../components/public-layout';
import { RouteError } from '../components/route-error';
import { Spinner } from '../components/spinner';
import NotFoundPage from '../pages/not-found/not-found-page';
import { setNavigator } from '../lib/app-navigation';

// The signed-in layout (sidebar, top bar, dropdowns, modals) loads after sign-in,
// keeping it out of the sign-in screen's JavaScript.
const AppLayout = lazy(() => import('../components/layout/app-layout'));

/** Builds the data router from the route table. */
export function createAppRouter() {
  const screens = ROUTES.map((route) => ({ route, Component: lazy(route.load) }));
  const toRoute = (s: (typeof screens)[number]): RouteObject => ({
    path: s.route.path,
    element: <RouteScreen route={s.route} Component={s.Component} />,
  });
  const router = createBrowserRouter([
    {
      element: <RootShell />,
      errorElement: <RouteError />,
      children: [
        ...REDIRECTS.map((r) => ({ path: r.path, element: <Navigate to={r.redirectTo} replace /> })),
        {
          element: <PublicLayout />,
          errorElement: <RouteError />,
          children: screens.filter((s) => !s.route.requiresAuth).map(toRoute),
        },
        {
          element: <RequireAuth />,
          children: [
            {
              element: (
                <Suspense fallback={<Spinner size="lg" fullPage />}>
                  <AppLayout />
                </Suspense>
              ),
              // Errors inside a screen show in the layout, so the menu still works.
              children: [{ errorElement: <RouteError />, children: screens.filter((s) => s.route.requiresAuth).map(toRoute) }],
            },
          ],
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
  setNavigator((to, opts) => void router.navigate(to, opts));
  return router;
}
