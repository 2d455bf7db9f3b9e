import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { CONSTANTS } from '@sitewalk/proto';
import { findRoute } from '../../lib/route-match';
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
  const transition = findRoute(ROUTES, pathname)?.route.transition ?? 'fade';

  // SPEC §2: the sidebar collapses by itself under 768 px (without overriding the remembered choice).
  useEffect(() => {
    const query = window.matchMedia(`(max-width: ${CONSTANTS.sidebarCollapseWidthPx - 0.02}px)`);
    const apply = () => {
      // Narrow: collapse. Wide again: back to what the user chose this session.
      const ui = useUiStore.getState();
      if (query.matches) ui.setSidebarCollapsed(true, false);
      else ui.setSidebarCollapsed(rememberedSidebarCollapsed() ?? false, false);
    };
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, []);

  return (
    <div className={`sw-app${collapsed ? ' sidebar-collapsed' : ''}`}>
      <Sidebar />
      <div className="sw-main">
        <TopBar />
        <AnnouncementBar />
        <main id="main-content" className="sw-content container-fluid py-3 px-3 px-md-4">
          <BreadcrumbTrail />
          <div key={pathname} className={`sw-page sw-page-${transition}`}>
            <Outlet />
          </div>
        </main>
        <AppFooter />
      </div>
    </div>
  );
}
