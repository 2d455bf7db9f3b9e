import type { Knex } from 'knex';
import type { Category as CategoryDto } from '@sitewalk/proto';
import { Category } from '../db/index.js';
import type { Db } from '../db/query-types.js';

/**
 * Every query of categories (each user's own labels for their projects) and
 * of which projects carry them. The projects' side of the link (the
 * categories of a list of projects) is in projects.repository. The service
 * holds the rules.
 */

/** A category with the number of projects carrying it; the date as the driver gives it. */
export type CategoryRow = Omit<CategoryDto, 'created_at'> & { created_at: Date };

function categoryRows(k: Db, where: (q: Knex.QueryBuilder) => void): Promise<CategoryRow[]> {
  const q = k('categories as c')
    .select('c.id', 'c.name', 'c.created_at', k.raw('(select count(*) from project_categories pc where pc.id_category = c.id)::int as projects_count'))
    .orderByRaw('lower(c.name)')
    .orderBy('c.id');
  where(q);
  return q;
}

/** The owner's categories, by name. */
export const categoryRowsOfOwner = (k: Db, ownerId: number) => categoryRows(k, (q) => q.where('c.id_owner', ownerId));

/** The categories a project carries, by name. */
export const categoryRowsOfProject = (k: Db, projectId: number) =>
  categoryRows(k, (q) => q.whereExists((s) => s.select(k.raw('1')).from('project_categories as x').whereRaw('x.id_category = c.id').andWhere('x.id_project', projectId)));

export async function categoryRowById(k: Db, id: number): Promise<CategoryRow | undefined> {
  const [row] = await categoryRows(k, (q) => q.where('c.id', id));
  return row;
}

/** The category with this id if it belongs to this owner. */
export async function categoryOfOwner(k: Db, id: number, ownerId: number): Promise<Category | undefined> {
  return await Category.query(k).findOne({ id, id_owner: ownerId });
}

/** Writes a new category; a name the owner already has (whatever the case) fails with a unique violation. */
export async function insertCategory(k: Db, ownerId: number, name: string): Promise<Category> {
  return await Category.query(k).insertAndFetch({ id_owner: ownerId, name });
}

/** Renames one of the owner's categories; a taken name fails with a unique violation. */
export async function renameCategoryRow(k: Db, id: number, ownerId: number, name: string): Promise<void> {
  await Category.query(k).patch({ name }).where({ id, id_owner: ownerId });
}

/** Deletes one of the owner's categories; the projects that carried it lose it (foreign key). */
export async function deleteCategoryRow(k: Db, id: number, ownerId: number): Promise<void> {
  await Category.query(k).delete().where({ id, id_owner: ownerId });
}

/** Puts a category on a project or takes it off; putting it twice is putting it once. */
export async function setProjectCategory(k: Db, projectId: number, categoryId: number, assigned: boolean): Promise<void> {
  if (assigned) await k('project_categories').insert({ id_project: projectId, id_category: categoryId }).onConflict(['id_project', 'id_category']).ignore();
  else await k('project_categories').where({ id_project: projectId, id_category: categoryId }).delete();
}
