import { useMemo } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { effectiveRole } from '@sitewalk/proto';
import { ROUTES } from '../../routes/route-table';
import type { AppRoute } from '../../routes/route-types';
import { sidebarMenu } from '../../lib/sidebar-menu';
import { useAuthStore } from '../../stores/auth.store';
import { useSettings } from '../../stores/settings.store';
import { useUiStore } from '../../stores/ui.store';

function MenuLink({ route, label }: { route: AppRoute; label: string }) {
  return (
    <li className="nav-item">
      <NavLink to={route.path} className="nav-link sw-menu-link" aria-label={label} title={label}>
        <i className={`bi ${route.menuIcon ?? 'bi-circle'}`} aria-hidden="true" />
        <span className="sw-menu-label">{label}</span>
      </NavLink>
    </li>
  );
}

/**
 * The sidebar of SPEC §2: brand, the dashboard first, ordinary items
 * alphabetical by translated label, then the Settings group for super admins.
 */
export function Sidebar() {
  const { t, i18n } = useTranslation();
  const settings = useSettings();
  const user = useAuthStore((s) => s.user);
  const collapsed = useUiStore((s) => s.sidebarCollapsed);
  const role = effectiveRole(user);
  const label = (r: AppRoute) => t(r.menuLabel ?? r.title);
  const menu = useMemo(
    () => sidebarMenu(ROUTES, { role, label: (r) => t(r.menuLabel ?? r.title), locale: i18n.language }),
    [role, t, i18n.language],
  );

  return (
    <aside className={`sw-sidebar${collapsed ? ' collapsed' : ''}`} aria-label={t('Sidebar')} data-testid="sidebar">
      <Link to="/dashboard" className="sw-brand" aria-label={settings.name}>
        {settings.small_logo ? (
          <img src={settings.small_logo} alt={settings.name} className="sw-brand-logo" />
        ) : (
          <>
            <i className="bi bi-buildings" aria-hidden="true" />
            <span className="sw-brand-name">{settings.name}</span>
          </>
        )}
      </Link>
      <nav aria-label={t('Main menu')}>
        <ul className="nav flex-column">
          {menu.main.map((r) => (
            <MenuLink key={r.path} route={r} label={label(r)} />
          ))}
        </ul>
        {menu.admin.length > 0 && (
          <div role="group" aria-labelledby="sw-admin-menu-heading" className="sw-admin-menu">
            <div id="sw-admin-menu-heading" className="sw-sidebar-heading">
              {t('Settings')}
            </div>
            <ul className="nav flex-column">
              {menu.admin.map((r) => (
                <MenuLink key={r.path} route={r} label={label(r)} />
              ))}
            </ul>
          </div>
        )}
      </nav>
    </aside>
  );
}
