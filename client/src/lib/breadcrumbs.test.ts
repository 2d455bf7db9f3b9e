import { describe, expect, it } from 'vitest';
import { breadcrumbsVisible, buildBreadcrumbs, type CrumbRoute } from './breadcrumbs';
import { ROUTES } from '../routes/route-table';

const routes: CrumbRoute[] = [
  { path: '/dashboard', title: 'Dashboard' },
  { path: '/projects', title: 'Projects' },
  { path: '/project/:id', title: 'Project', breadcrumb: 'Project {id}', parentPath: '/projects' },
  { path: '/editsheet/:id', title: 'Edit sheet', parentPath: '/project/:pid' },
  { path: '/project/:pid', title: 'Project' },
  { path: '/profile', title: 'My Profile', breadcrumb: 'Profile' },
  { path: '/editprofile', title: 'Edit Profile', parentPath: '/profile' },
];

describe('buildBreadcrumbs', () => {
  it('starts with Dashboard and follows the parent chain', () => {
    expect(buildBreadcrumbs(routes, '/editprofile')).toEqual([
      { label: 'Dashboard', to: '/dashboard' },
      { label: 'Profile', to: '/profile' },
      { label: 'Edit Profile', to: null },
    ]);
  });

  it('matches a numeric segment as :id and substitutes it in labels', () => {
    expect(buildBreadcrumbs(routes, '/project/42')).toEqual([
      { label: 'Dashboard', to: '/dashboard' },
      { label: 'Projects', to: '/projects' },
      { label: 'Project 42', to: null },
    ]);
  });

  it('does not link a parent whose parameters it does not know', () => {
    const crumbs = buildBreadcrumbs(routes, '/editsheet/3');
    expect(crumbs.map((c) => c.label)).toEqual(['Dashboard', 'Project', 'Edit sheet']);
    expect(crumbs[1].to).toBeNull();
  });

  it('is hidden on the dashboard itself (one item) and on unknown paths (none)', () => {
    expect(buildBreadcrumbs(routes, '/dashboard')).toHaveLength(1);
    expect(breadcrumbsVisible(buildBreadcrumbs(routes, '/dashboard'))).toBe(false);
    expect(buildBreadcrumbs(routes, '/unknown/place')).toEqual([]);
    expect(breadcrumbsVisible([])).toBe(false);
    expect(breadcrumbsVisible(buildBreadcrumbs(routes, '/profile'))).toBe(true);
  });

  it('takes the records the screen names: the sheet under its project, by their own names', () => {
    expect(
      buildBreadcrumbs(ROUTES, '/sheet/7', { parents: [{ label: 'Harbour Tower', to: '/project/3', raw: true }], current: 'Level 1' }),
    ).toEqual([
      { label: 'Dashboard', to: '/dashboard' },
      { label: 'Projects', to: '/projects' },
      { label: 'Harbour Tower', to: '/project/3', raw: true },
      { label: 'Level 1', to: null, raw: true },
    ]);
  });

  it('finds a parent whose route has an optional parameter, and links it without the child’s id', () => {
    expect(buildBreadcrumbs(ROUTES, '/editvisit/5')).toEqual([
      { label: 'Dashboard', to: '/dashboard' },
      { label: 'Visits', to: '/visits' },
      { label: 'Edit Visit', to: null },
    ]);
  });

  it('resolves the real route table: /editprofile sits under the profile', () => {
    expect(buildBreadcrumbs(ROUTES, '/editprofile').map((c) => c.label)).toEqual(['Dashboard', 'Profile', 'Edit Profile']);
    expect(buildBreadcrumbs(ROUTES, '/notifications').map((c) => c.label)).toEqual(['Dashboard', 'Notifications']);
  });
});
