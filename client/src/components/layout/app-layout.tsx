import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { CONSTANTS } from '@sitewalk/proto';
import { findRoute } from '../../lib/route-match';
import { ROUTES } from '../../routes/route-table';
import { useUiStore } from '../../stores/ui.store';
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
      if (query.matches) useUiStore.getState().setSidebarCollapsed(true, false);
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
