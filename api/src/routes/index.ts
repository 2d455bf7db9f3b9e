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
import sheetsRoutes from './sheets.routes.js';
import visitsRoutes from './visits.routes.js';
import videosRoutes from './videos.routes.js';
import adminQueuesRoutes from './admin-queues.routes.js';
import annotationsRoutes from './annotations.routes.js';
import annotationExportsRoutes from './annotation-exports.routes.js';
import plansRoutes from './plans.routes.js';
import tiersRoutes from './tiers.routes.js';
import autodeskRoutes from './autodesk.routes.js';
import billingRoutes from './billing.routes.js';
import sessionsRoutes from './sessions.routes.js';
import videoUploadsRoutes from './video-uploads.routes.js';
import twoFactorRoutes from './two-factor.routes.js';
import socialRoutes from './social.routes.js';
import apiKeysRoutes from './api-keys.routes.js';
import docsRoutes from '../openapi/docs.routes.js';
import type { RouteModule } from './types.js';

/** Every feature's routes, mounted under /api. Add a feature by adding its module here. */
const modules: RouteModule[] = [healthRoutes, authRoutes, filesRoutes, notificationsRoutes, accountRoutes, teamsRoutes, usersRoutes, settingsRoutes, translationsRoutes, projectsRoutes, categoriesRoutes, sheetsRoutes, visitsRoutes, videosRoutes, adminQueuesRoutes, plansRoutes, tiersRoutes, annotationsRoutes, annotationExportsRoutes, autodeskRoutes, billingRoutes, sessionsRoutes, videoUploadsRoutes, twoFactorRoutes, socialRoutes, apiKeysRoutes, docsRoutes];

export function apiRouter(): Router {
  const router = new Router({ prefix: '/api' });
  for (const m of modules) m(router);
  return router;
}
