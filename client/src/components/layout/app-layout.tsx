import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { CONSTANTS } from '@sitewalk/proto';
import { findRoute, screenKey } from '../../lib/route-match';
import { ROUTES } from '../../routes/route-table';
import { rememberedSidebarCollapsed, useUiStore } from '../../stores/ui.store';
import { Sidebar } from './sidebar';
import { TopBar } from './top-bar';
import { AnnouncementBar } from './announcement-bar';
import { BreadcrumbTrail } from './breadcrumb-trail';
import { AppFooter } from './app-footer';

/** The signed-in layout of SPEC §2. */
export default function AppLayout() {
  const { pathname } = useLocation();
  const collapsed = useUiStore((s) => s.sidebarCollapsed);
  const narrow = useUiStore((s) => s.narrowScreen);
  const drawerOpen = useUiStore((s) => s.sidebarDrawerOpen);
  const transition = findRoute(ROUTES, pathname)?.route.transition ?? 'fade';
  const screen = screenKey(ROUTES, pathname);

  // The off-canvas sidebar closes once the user has gone somewhere.
  useEffect(() => {
    useUiStore.getState().setSidebarDrawerOpen(false);
  }, [pathname]);

  // SPEC §2: the sidebar collapses by itself under 768 px (without overriding the remembered choice);
  // on such narrow screens it leaves the page entirely and opens over it from the toggle.
  useEffect(() => {
    const query = window.matchMedia(`(max-width: ${CONSTANTS.sidebarCollapseWidthPx - 0.02}px)`);
    const apply = () => {
      // Narrow: collapse. Wide again: back to what the user chose this session.
      const ui = useUiStore.getState();
      if (ui.narrowScreen !== query.matches) ui.setNarrowScreen(query.matches);
      if (query.matches) ui.setSidebarCollapsed(true, false);
      else ui.setSidebarCollapsed(rememberedSidebarCollapsed() ?? false, false);
    };
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, []);

  return (
    <div className={`sw-app${collapsed && !narrow ? ' sidebar-collapsed' : ''}${narrow ? ' sw-narrow' : ''}${drawerOpen ? ' sidebar-open' : ''}`}>
      <Sidebar />
      {narrow && drawerOpen && <div className="sw-sidebar-backdrop" aria-hidden="true" onClick={() => useUiStore.getState().setSidebarDrawerOpen(false)} />}
      {/* While the drawer is open the page behind it is out of reach (focus and screen readers). */}
      <div className="sw-main" inert={narrow && drawerOpen}>
        <TopBar />
        <AnnouncementBar />
        <main id="main-content" className="sw-content container-fluid py-3 px-3 px-md-4">
          <BreadcrumbTrail />
          <div key={screen} className={`sw-page sw-page-${transition}`}>
            <Outlet />
          </div>
        </main>
        <AppFooter />
      </div>
    </div>
  );
}
