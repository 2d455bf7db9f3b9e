import { describe, expect, it } from 'vitest';
import { menuPath, roleAllowed, sidebarMenu, type MenuRoute } from './sidebar-menu';

const routes: MenuRoute[] = [
  { path: '/visits', title: 'Visits', showInMenu: true },
  { path: '/users', title: 'Users', showInMenu: true, allowedRoles: ['super_admin'] },
  { path: '/dashboard', title: 'Dashboard', showInMenu: true },
  { path: '/snaglist', title: 'Snag list', showInMenu: true },
  { path: '/approvals', title: 'Approvals', showInMenu: true, allowedRoles: ['super_admin'] },
  { path: '/projects', title: 'Projects', showInMenu: true },
  { path: '/profile', title: 'My Profile' },
  { path: '/settings', title: 'Settings', showInMenu: true, allowedRoles: ['super_admin'] },
];

const arabic: Record<string, string> = {
  Dashboard: 'لوحة التحكم',
  Visits: 'الزيارات',
  Projects: 'المشاريع',
  'Snag list': 'قائمة الملاحظات',
  Users: 'المستخدمون',
  Approvals: 'الموافقات',
  Settings: 'الإعدادات',
};

describe('sidebarMenu', () => {
  it('puts the dashboard first, then the items alphabetically, and hides the admin group from others', () => {
    const menu = sidebarMenu(routes, { role: 'guest', label: (r) => r.title, locale: 'en' });
    expect(menu.main.map((r) => r.title)).toEqual(['Dashboard', 'Projects', 'Snag list', 'Visits']);
    expect(menu.admin).toEqual([]);
  });

  it('shows super admins the Settings group, alphabetically, after the ordinary items', () => {
    const menu = sidebarMenu(routes, { role: 'super_admin', label: (r) => r.title, locale: 'en' });
    expect(menu.main.map((r) => r.title)).toEqual(['Dashboard', 'Projects', 'Snag list', 'Visits']);
    expect(menu.admin.map((r) => r.title)).toEqual(['Approvals', 'Settings', 'Users']);
  });

  it('sorts by the translated label', () => {
    const menu = sidebarMenu(routes, { role: 'super_admin', label: (r) => arabic[r.title], locale: 'ar' });
    expect(menu.main.map((r) => arabic[r.title])).toEqual(['لوحة التحكم', 'الزيارات', 'المشاريع', 'قائمة الملاحظات']);
    expect(menu.admin.map((r) => arabic[r.title])).toEqual(['الإعدادات', 'المستخدمون', 'الموافقات']);
  });

  it('leaves out routes that are not in the menu', () => {
    const menu = sidebarMenu(routes, { role: 'super_admin', label: (r) => r.title, locale: 'en' });
    expect([...menu.main, ...menu.admin].map((r) => r.path)).not.toContain('/profile');
  });
});

describe('roleAllowed', () => {
  it('lets every signed-in role open a route without a list, and super admins everything', () => {
    expect(roleAllowed({}, 'guest')).toBe(true);
    expect(roleAllowed({ allowedRoles: ['super_admin'] }, 'guest')).toBe(false);
    expect(roleAllowed({ allowedRoles: ['editor'] }, 'super_admin')).toBe(true);
    expect(roleAllowed({ allowedRoles: ['editor', 'guest'] }, 'guest')).toBe(true);
  });
});

describe('menuPath', () => {
  it('leaves out optional parameters, so the address bar never shows a pattern', () => {
    expect(menuPath('/visits/:id?')).toBe('/visits');
    expect(menuPath('/dashboard')).toBe('/dashboard');
    expect(menuPath('/viewer/:code/:room?/:poi?')).toBe('/viewer/:code');
  });
});
