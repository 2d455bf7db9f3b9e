import {
  categoryAssignSchema,
  categoryBodySchema,
  categoryListQuerySchema,
  projectTypeBodySchema,
  type Category,
  type CategoryRef,
  type ProjectType,
} from '@sitewalk/proto';
import { currentUser, requireAuth, requireSuperAdmin } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { body, idParam, query } from '../http/validate.js';
import {
  assignCategory,
  createCategory,
  createProjectType,
  deleteCategory,
  deleteProjectType,
  listCategories,
  listProjectTypes,
  renameCategory,
  renameProjectType,
} from '@sitewalk/core/services/categories.service.js';
import type { RouteModule } from './types.js';

const categoriesRoutes: RouteModule = (r) => {
  r.get('/categories', requireAuth, async (ctx) => {
    const { id_project } = query(ctx, categoryListQuerySchema);
    ok<Category[]>(ctx, await listCategories(currentUser(ctx), id_project));
  });
  r.post('/categories', requireAuth, async (ctx) => {
    const { name } = body(ctx, categoryBodySchema);
    created<Category>(ctx, await createCategory(currentUser(ctx), name), 'Category created successfully!');
  });
  // Before /categories/:id so "assign" and "remove" are never taken for ids.
  r.post('/categories/assign', requireAuth, async (ctx) => {
    const { id_category, id_project } = body(ctx, categoryAssignSchema);
    ok<CategoryRef[]>(ctx, await assignCategory(currentUser(ctx), id_category, id_project, true), 'Category assigned.');
  });
  r.post('/categories/remove', requireAuth, async (ctx) => {
    const { id_category, id_project } = body(ctx, categoryAssignSchema);
    ok<CategoryRef[]>(ctx, await assignCategory(currentUser(ctx), id_category, id_project, false), 'Category removed from the project.');
  });
  r.put('/categories/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const { name } = body(ctx, categoryBodySchema);
    ok<Category>(ctx, await renameCategory(currentUser(ctx), id, name), 'Category updated successfully!');
  });
  r.delete('/categories/:id', requireAuth, async (ctx) => {
    ok(ctx, await deleteCategory(currentUser(ctx), idParam(ctx)), 'Category deleted successfully!');
  });

  r.get('/project-types', requireAuth, async (ctx) => {
    ok<ProjectType[]>(ctx, await listProjectTypes());
  });
  r.post('/project-types', requireAuth, requireSuperAdmin, async (ctx) => {
    const { name } = body(ctx, projectTypeBodySchema);
    created<ProjectType>(ctx, await createProjectType(name), 'Project type created successfully!');
  });
  r.put('/project-types/:id', requireAuth, requireSuperAdmin, async (ctx) => {
    const id = idParam(ctx);
    const { name } = body(ctx, projectTypeBodySchema);
    ok<ProjectType>(ctx, await renameProjectType(id, name), 'Project type updated successfully!');
  });
  r.delete('/project-types/:id', requireAuth, requireSuperAdmin, async (ctx) => {
    ok(ctx, await deleteProjectType(idParam(ctx)), 'Project type deleted successfully!');
  });
};

export default categoriesRoutes;
