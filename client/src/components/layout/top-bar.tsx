import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { findRoute } from '../../lib/route-match';
import { DASHBOARD_ROUTE, ROUTES } from '../../routes/route-table';
import { useSettings } from '../../stores/settings.store';
import { useUiStore } from '../../stores/ui.store';
import { useStartTour } from '../../tour/use-tour';
import { LanguageSwitcher } from './language-switcher';
import { NotificationsDropdown } from './notifications-dropdown';
import { UserMenu } from './user-menu';

/**
 * SPEC §2 top bar: sidebar toggle, page title and icon (matched by segment,
 * falling back to /dashboard's), language, tour, dark mode, notifications,
 * user menu.
 */
export function TopBar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const settings = useSettings();
  const collapsed = useUiStore((s) => s.sidebarCollapsed);
  const narrow = useUiStore((s) => s.narrowScreen);
  const drawerOpen = useUiStore((s) => s.sidebarDrawerOpen);
  const toggleSidebar = useUiStore((s) => s.toggleSidebar);
  const dark = useUiStore((s) => s.darkMode);
  const setDark = useUiStore((s) => s.setDarkMode);
  const tourActive = useUiStore((s) => s.tourActive);
  const startTour = useStartTour();
  const route = findRoute(ROUTES, pathname)?.route ?? DASHBOARD_ROUTE;

  return (
    <header className="sw-topbar d-flex flex-nowrap align-items-center gap-2 px-2 px-md-3 border-bottom shadow-sm">
      <button
        type="button"
        className="btn sw-topbar-btn"
        onClick={toggleSidebar}
        aria-label={t('Toggle sidebar')}
        aria-expanded={narrow ? drawerOpen : !collapsed}
        aria-controls="sw-sidebar"
        data-testid="sidebar-toggle"
      >
        <i className="bi bi-list fs-4" aria-hidden="true" />
      </button>
      <h1 className="sw-page-title h5 mb-0 text-truncate">
        <i className={`bi ${route.menuIcon ?? DASHBOARD_ROUTE.menuIcon} me-2`} aria-hidden="true" />
        {t(route.title)}
      </h1>
      {/* Under 768 px the language, tour and dark-mode controls move into the user menu. */}
      <div className="ms-auto d-flex align-items-center gap-1 flex-shrink-0">
        {settings.languages_enabled && <LanguageSwitcher className="d-none d-md-block" />}
        {settings.enable_wizard && (
          <button
            type="button"
            className={`btn sw-topbar-btn d-none d-md-inline-block${tourActive ? ' sw-pulse' : ''}`}
            onClick={() => void startTour()}
            disabled={tourActive}
            aria-label={t('Start the tour')}
            title={t('Start the tour')}
            data-testid="tour-button"
          >
            <i className="bi bi-signpost-split" aria-hidden="true" />
          </button>
        )}
        {settings.dark_mode && (
          <button
            type="button"
            className="btn sw-topbar-btn d-none d-md-inline-block"
            onClick={() => setDark(!dark)}
            aria-pressed={dark}
            aria-label={t('Dark mode')}
            title={t('Dark mode')}
            data-testid="dark-mode-toggle"
          >
            <i className={`bi ${dark ? 'bi-sun' : 'bi-moon-stars'}`} aria-hidden="true" />
          </button>
        )}
        <NotificationsDropdown />
        <UserMenu />
      </div>
    </header>
  );
}
