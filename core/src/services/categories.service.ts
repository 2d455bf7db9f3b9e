import type { Knex } from 'knex';
import type { Category as CategoryDto, CategoryRef, ProjectType as ProjectTypeDto } from '@sitewalk/proto';
import { Category, ProjectType, db } from '../db/index.js';
import { conflict, notFound } from '../errors.js';
import { requireProject } from './access.service.js';
import type { Actor } from './actor.js';
import { iso, type Db } from '../db/query-types.js';

const isUniqueViolation = (err: unknown) => (err as { code?: string; nativeError?: { code?: string } }).code === '23505' || (err as { nativeError?: { code?: string } }).nativeError?.code === '23505';

/** Runs a write that may hit a case-insensitive unique name, turning the clash into a 409 with words. */
async function uniqueName<T>(message: string, write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(message);
    throw err;
  }
}

// ---- Categories: each user's own labels for their projects ----

async function categoryRows(k: Db, where: (q: Knex.QueryBuilder) => void): Promise<CategoryDto[]> {
  const q = k('categories as c')
    .select('c.id', 'c.name', 'c.created_at', k.raw('(select count(*) from project_categories pc where pc.id_category = c.id)::int as projects_count'))
    .orderByRaw('lower(c.name)')
    .orderBy('c.id');
  where(q);
  const rows: { id: number; name: string; created_at: Date; projects_count: number }[] = await q;
  return rows.map((r) => ({ id: r.id, name: r.name, projects_count: Number(r.projects_count), created_at: iso(r.created_at) }));
}

/** GET /categories: the user's categories, or (with a project) the categories that project carries. */
export async function listCategories(user: Actor, projectId?: number): Promise<CategoryDto[]> {
  const k = db();
  if (projectId) {
    await requireProject(user, projectId, 'read');
    return categoryRows(k, (q) => q.whereExists((s) => s.select(k.raw('1')).from('project_categories as x').whereRaw('x.id_category = c.id').andWhere('x.id_project', projectId)));
  }
  return categoryRows(k, (q) => q.where('c.id_owner', user.id));
}

const ownCategory = async (user: Actor, id: number, k: Db = db()) => {
  const c = await Category.query(k).findOne({ id, id_owner: user.id });
  if (!c) throw notFound('Category not found.');
  return c;
};

async function categoryDto(id: number, k: Db = db()): Promise<CategoryDto> {
  const [dto] = await categoryRows(k, (q) => q.where('c.id', id));
  return dto;
}

const duplicateCategory = (name: string) => `You already have a category named "${name}".`;

export async function createCategory(user: Actor, name: string): Promise<CategoryDto> {
  const c = await uniqueName(duplicateCategory(name), () => Category.query().insertAndFetch({ id_owner: user.id, name }));
  return categoryDto(c.id);
}

export async function renameCategory(user: Actor, id: number, name: string): Promise<CategoryDto> {
  await ownCategory(user, id);
  await uniqueName(duplicateCategory(name), () => Category.query().patch({ name }).where({ id, id_owner: user.id }));
  return categoryDto(id);
}

/** Deletes a category; the projects that carried it simply lose it. */
export async function deleteCategory(user: Actor, id: number): Promise<{ id: number }> {
  await ownCategory(user, id);
  await Category.query().delete().where({ id, id_owner: user.id });
  return { id };
}

async function projectCategoryRefs(k: Db, projectId: number): Promise<CategoryRef[]> {
  return k('project_categories as pc')
    .join('categories as c', 'c.id', 'pc.id_category')
    .where('pc.id_project', projectId)
    .orderByRaw('lower(c.name)')
    .select('c.id', 'c.name');
}

/**
 * Puts one of the project owner's categories on the project, or takes it off.
 * Only those who may change the project may do it; a category of anyone but
 * the project's owner is not found.
 */
export async function assignCategory(user: Actor, idCategory: number, idProject: number, assigned: boolean): Promise<CategoryRef[]> {
  return db().transaction(async (trx) => {
    const { project } = await requireProject(user, idProject, 'manage', trx);
    const category = await Category.query(trx).findOne({ id: idCategory, id_owner: project.id_owner });
    if (!category) throw notFound('Category not found.');
    if (assigned) {
      await trx('project_categories').insert({ id_project: idProject, id_category: idCategory }).onConflict(['id_project', 'id_category']).ignore();
    } else {
      await trx('project_categories').where({ id_project: idProject, id_category: idCategory }).delete();
    }
    await trx('projects').where({ id: idProject }).update({ updated_at: trx.fn.now() });
    return projectCategoryRefs(trx, idProject);
  });
}

// ---- Project types: one list for everybody, managed by super admins ----

async function typeRows(k: Db, id?: number): Promise<ProjectTypeDto[]> {
  const q = k('project_types as t')
    .select('t.id', 't.name', 't.created_at', k.raw('(select count(*) from projects p where p.id_project_type = t.id)::int as projects_count'))
    .orderByRaw('lower(t.name)')
    .orderBy('t.id');
  if (id) q.where('t.id', id);
  const rows: { id: number; name: string; created_at: Date; projects_count: number }[] = await q;
  return rows.map((r) => ({ id: r.id, name: r.name, projects_count: Number(r.projects_count), created_at: iso(r.created_at) }));
}

export const listProjectTypes = () => typeRows(db());

const duplicateType = (name: string) => `A project type named "${name}" already exists.`;

export async function createProjectType(name: string): Promise<ProjectTypeDto> {
  const t = await uniqueName(duplicateType(name), () => ProjectType.query().insertAndFetch({ name }));
  return (await typeRows(db(), t.id))[0];
}

export async function renameProjectType(id: number, name: string): Promise<ProjectTypeDto> {
  const n = await uniqueName(duplicateType(name), () => ProjectType.query().patch({ name }).where({ id }));
  if (!n) throw notFound('Project type not found.');
  return (await typeRows(db(), id))[0];
}

/** Deletes a type; projects of that type keep no type (the foreign key sets it to null). */
export async function deleteProjectType(id: number): Promise<{ id: number }> {
  const n = await ProjectType.query().deleteById(id);
  if (!n) throw notFound('Project type not found.');
  return { id };
}
