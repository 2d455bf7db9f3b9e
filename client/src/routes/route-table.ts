import type { AppRoute, RedirectRoute } from './route-types';

/**
 * Every screen of SiteWalk with its SPEC §2 metadata. A feature adds its
 * screens here, one entry each; the router, sidebar, top-bar title,
 * breadcrumbs and guards all read this table.
 */

const authPage = () => import('../pages/auth/auth-page');

export const ROUTES: AppRoute[] = [
  // Public screens
  { path: '/login', title: 'Sign in', requiresAuth: false, transition: 'fade', load: authPage },
  {
    path: '/register',
    title: 'Create an account',
    requiresAuth: false,
    transition: 'fade',
    enabledWhen: (s) => s.enable_registration === true,
    load: authPage,
  },
  {
    path: '/recover',
    title: 'Recover your password',
    requiresAuth: false,
    transition: 'fade',
    enabledWhen: (s) => s.smtp_valid === true,
    load: authPage,
  },
  { path: '/activate', title: 'Activate your account', requiresAuth: false, transition: 'fade', load: () => import('../pages/activate/activate-page') },
  {
    path: '/reset-password',
    title: 'Choose a new password',
    requiresAuth: false,
    transition: 'fade',
    load: () => import('../pages/reset-password/reset-password-page'),
  },

  // Signed-in screens
  {
    path: '/dashboard',
    title: 'Dashboard',
    description: 'Your projects, visits, sheets and snags at a glance.',
    requiresAuth: true,
    showInMenu: true,
    menuIcon: 'bi-speedometer2',
    menuLabel: 'Dashboard',
    transition: 'fade',
    load: () => import('../pages/dashboard/dashboard-page'),
  },
  {
    path: '/profile',
    title: 'My Profile',
    description: 'Your account, pictures, plan and activity.',
    requiresAuth: true,
    menuIcon: 'bi-person-circle',
    breadcrumb: 'Profile',
    transition: 'fade',
    preventWhenProfileIncomplete: false,
    load: () => import('../pages/profile/profile-page'),
  },
  {
    path: '/editprofile',
    title: 'Edit Profile',
    description: 'Your details, pictures, password and notification preferences.',
    requiresAuth: true,
    menuIcon: 'bi-pencil-square',
    parentPath: '/profile',
    transition: 'fade',
    preventWhenProfileIncomplete: false,
    load: () => import('../pages/edit-profile/edit-profile-page'),
  },
  {
    path: '/notifications',
    title: 'Notifications',
    description: 'Everything SiteWalk told you.',
    requiresAuth: true,
    menuIcon: 'bi-bell',
    transition: 'fade',
    load: () => import('../pages/notifications/notifications-page'),
  },

  // Projects and sheets
  {
    path: '/projects',
    title: 'Projects',
    description: 'Your projects: find, filter, star and create them.',
    requiresAuth: true,
    showInMenu: true,
    menuIcon: 'bi-building',
    menuLabel: 'Projects',
    transition: 'fade',
    load: () => import('../pages/projects/projects-page'),
  },
  {
    path: '/project/:id',
    title: 'Project',
    description: 'A project with its cover, details, categories and sheets.',
    requiresAuth: true,
    menuIcon: 'bi-building',
    parentPath: '/projects',
    transition: 'fade',
    load: () => import('../pages/project/project-page'),
  },
  {
    path: '/editproject/:id',
    title: 'Edit Project',
    description: 'Create or change a project.',
    requiresAuth: true,
    menuIcon: 'bi-pencil-square',
    parentPath: '/projects',
    transition: 'fade',
    entity: 'project',
    load: () => import('../pages/edit-project/edit-project-page'),
  },
  {
    path: '/editsheet/:id',
    title: 'Edit Sheet',
    description: 'Rename a sheet or add an empty one.',
    requiresAuth: true,
    menuIcon: 'bi-pencil-square',
    parentPath: '/projects',
    transition: 'fade',
    entity: 'sheet',
    load: () => import('../pages/edit-sheet/edit-sheet-page'),
  },
  {
    path: '/sheet/:id',
    title: 'Sheet',
    description: 'A floor plan to zoom into.',
    requiresAuth: true,
    menuIcon: 'bi-map',
    parentPath: '/projects',
    transition: 'fade',
    load: () => import('../pages/sheet/sheet-page'),
  },
  {
    path: '/categories',
    title: 'Categories',
    description: 'Your own labels for projects.',
    requiresAuth: true,
    menuIcon: 'bi-tags',
    parentPath: '/projects',
    transition: 'fade',
    load: () => import('../pages/categories/categories-page'),
  },
  {
    path: '/approvals',
    title: 'Approvals',
    description: 'Projects awaiting approval.',
    requiresAuth: true,
    allowedRoles: ['super_admin'],
    showInMenu: true,
    menuIcon: 'bi-patch-check',
    menuLabel: 'Approvals',
    transition: 'fade',
    load: () => import('../pages/approvals/approvals-page'),
  },
  {
    path: '/project-types',
    title: 'Project Types',
    description: 'The types users pick for their projects.',
    requiresAuth: true,
    allowedRoles: ['super_admin'],
    showInMenu: true,
    menuIcon: 'bi-collection',
    menuLabel: 'Project Types',
    transition: 'fade',
    load: () => import('../pages/project-types/project-types-page'),
  },
  { path: '/showcase', title: 'Project showcase', requiresAuth: false, transition: 'fade', load: () => import('../pages/showcase/showcase-page') },
];

export const REDIRECTS: RedirectRoute[] = [{ path: '/', redirectTo: '/login' }];

export const DASHBOARD_ROUTE = ROUTES.find((r) => r.path === '/dashboard') as AppRoute;
