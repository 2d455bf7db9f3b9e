import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { effectiveRole } from '@sitewalk/proto';
import { ROUTES } from '../../routes/route-table';
import type { AppRoute } from '../../routes/route-types';
import { menuPath, sidebarMenu } from '../../lib/sidebar-menu';
import { useAuthStore } from '../../stores/auth.store';
import { useSettings } from '../../stores/settings.store';
import { useUiStore } from '../../stores/ui.store';

function MenuLink({ route, label }: { route: AppRoute; label: string }) {
  return (
    <li className="nav-item">
      <NavLink to={menuPath(route.path)} className="nav-link sw-menu-link" aria-label={label} title={label}>
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
  const narrow = useUiStore((s) => s.narrowScreen);
  const open = useUiStore((s) => s.sidebarDrawerOpen);
  const setOpen = useUiStore((s) => s.setSidebarDrawerOpen);
  const drawer = narrow && open;
  const ref = useRef<HTMLElement>(null);
  const role = effectiveRole(user);
  const label = (r: AppRoute) => t(r.menuLabel ?? r.title);
  const menu = useMemo(
    () => sidebarMenu(ROUTES, { role, label: (r) => t(r.menuLabel ?? r.title), locale: i18n.language }),
    [role, t, i18n.language],
  );

  // The drawer takes the focus when it opens and gives it back to the toggle when it closes.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (drawer) {
      wasOpen.current = true;
      ref.current?.querySelector<HTMLElement>('.sw-menu-link.active, .sw-menu-link')?.focus();
    } else if (wasOpen.current) {
      wasOpen.current = false;
      // Unless the user has already put the focus somewhere else.
      if (!document.activeElement || document.activeElement === document.body || ref.current?.contains(document.activeElement)) {
        document.querySelector<HTMLElement>('[data-testid="sidebar-toggle"]')?.focus();
      }
    }
  }, [drawer]);

  // Focus stays inside the open drawer; Escape closes it.
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (!drawer) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      setOpen(false); // the effect above gives the focus back to the toggle
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')];
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement;
    if (e.shiftKey && (active === first || !ref.current.contains(active))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || !ref.current.contains(active))) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <aside
      ref={ref}
      id="sw-sidebar"
      className={`sw-sidebar${collapsed && !narrow ? ' collapsed' : ''}${narrow ? ' sw-offcanvas' : ''}${drawer ? ' open' : ''}`}
      aria-label={t('Sidebar')}
      data-testid="sidebar"
      onKeyDown={onKeyDown}
    >
      {narrow && (
        <button type="button" className="btn sw-sidebar-close" aria-label={t('Close')} onClick={() => setOpen(false)} tabIndex={drawer ? 0 : -1}>
          <i className="bi bi-x-lg" aria-hidden="true" />
        </button>
      )}
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
