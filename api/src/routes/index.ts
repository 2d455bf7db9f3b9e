import Router from '@koa/router';
import authRoutes from './auth.routes.js';
import filesRoutes from './files.routes.js';
import healthRoutes from './health.routes.js';
import notificationsRoutes from './notifications.routes.js';
import accountRoutes from './account.routes.js';
import usersRoutes from './users.routes.js';
import teamsRoutes from './teams.routes.js';
import settingsRoutes from './settings.routes.js';
import translationsRoutes from './translations.routes.js';
import projectsRoutes from './projects.routes.js';
import categoriesRoutes from './categories.routes.js';
import mapsRoutes from './maps.routes.js';
import visitsRoutes from './visits.routes.js';
import videosRoutes from './videos.routes.js';
import adminQueuesRoutes from './admin-queues.routes.js';
import annotationsRoutes from './annotations.routes.js';
import annotationExportsRoutes from './annotation-exports.routes.js';
import plansRoutes from './plans.routes.js';
import tiersRoutes from './tiers.routes.js';
import autodeskRoutes from './autodesk.routes.js';
import type { RouteModule } from './types.js';

/** Every feature's routes, mounted under /api. Add a feature by adding its module here. */
const modules: RouteModule[] = [healthRoutes, authRoutes, filesRoutes, notificationsRoutes, accountRoutes, teamsRoutes, usersRoutes, settingsRoutes, translationsRoutes, projectsRoutes, categoriesRoutes, mapsRoutes, visitsRoutes, videosRoutes, adminQueuesRoutes, plansRoutes, tiersRoutes, annotationsRoutes, annotationExportsRoutes, autodeskRoutes];

export function apiRouter(): Router {
  const router = new Router({ prefix: '/api' });
  for (const m of modules) m(router);
  return router;
}
