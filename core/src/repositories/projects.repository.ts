import type { Knex } from 'knex';
import type { Model } from 'objection';
import type { z } from 'zod';
import type { projectListQuerySchema } from '@sitewalk/proto';
import { Project, db } from '../db/index.js';
import type { Db } from '../db/query-types.js';
import type { Actor } from '../services/actor.js';

/**
 * Every query of projects: the list and detail rows with what the asking
 * user sees of them (type, owner, star, membership, sheet count), their
 * categories, stars and the public showcase. The services hold the rules.
 */

type ListQuery = z.output<typeof projectListQuerySchema>;

/** A project as the list and detail queries return it: the model's columns (dates as the driver gives them) and what the user sees of it. */
export type ProjectRow = Omit<Project, 'start_date' | 'end_date' | keyof Model> & {
  start_date: Date | string | null;
  end_date: Date | string | null;
  type_name: string | null;
  owner_username: string;
  owner_first_name: string;
  owner_last_name: string;
  member_role: string | null;
  member_permissions: unknown;
  starred: boolean;
  sheets_count: number;
};

/**
 * Narrows a query on `projects` (aliased `alias`) to those the user may see:
 * owned or joined; every project for a super admin when `all` is asked.
 */
export function whereVisible<Q extends Knex.QueryBuilder>(q: Q, user: Actor, opts: { all?: boolean; alias?: string } = {}): Q {
  if (opts.all && user.super_admin) return q;
  const a = opts.alias ?? 'projects';
  return q.where((w) =>
    w
      .where(`${a}.id_owner`, user.id)
      .orWhereExists((m) => m.select(db().raw('1')).from('project_members as vm').whereRaw(`vm.id_project = ${a}.id`).andWhere('vm.id_user', user.id)),
  ) as Q;
}

/** Projects with their type, owner, the user's star and membership, and sheet count. */
function projectRows(k: Db, user: Actor) {
  return k('projects as p')
    .join('users as u', 'u.id', 'p.id_owner')
    .leftJoin('project_types as pt', 'pt.id', 'p.id_project_type')
    .leftJoin('project_members as pm', (j) => j.on('pm.id_project', 'p.id').andOn('pm.id_user', k.raw('?', [user.id])))
    .select(
      'p.*',
      'pt.name as type_name',
      'u.username as owner_username',
      'u.first_name as owner_first_name',
      'u.last_name as owner_last_name',
      'pm.role as member_role',
      'pm.permissions as member_permissions',
      k.raw('exists (select 1 from project_stars s where s.id_project = p.id and s.id_user = ?) as starred', [user.id]),
      k.raw('(select count(*) from maps m where m.id_project = p.id)::int as sheets_count'),
    );
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of the projects the user may see, filtered and sorted, and how many match. */
export async function projectPage(k: Db, user: Actor, q: ListQuery): Promise<{ rows: ProjectRow[]; total: number }> {
  const filtered = whereVisible(k('projects as p'), user, { all: q.scope === 'all', alias: 'p' });
  if (q.search) {
    const like = `%${escapeLike(q.search)}%`;
    filtered.where((w) =>
      w
        .whereILike('p.name', like)
        .orWhereILike('p.description', like)
        .orWhereILike('p.project_code', like)
        .orWhereILike('p.client_name', like)
        .orWhereILike('p.city', like),
    );
  }
  if (q.id_project_type) filtered.where('p.id_project_type', q.id_project_type);
  if (q.id_category) {
    filtered.whereExists((s) => s.select(k.raw('1')).from('project_categories as fc').whereRaw('fc.id_project = p.id').andWhere('fc.id_category', q.id_category!));
  }
  if (q.starred !== undefined) {
    const starred = (s: Knex.QueryBuilder) => s.select(k.raw('1')).from('project_stars as fs').whereRaw('fs.id_project = p.id').andWhere('fs.id_user', user.id);
    if (q.starred) filtered.whereExists(starred);
    else filtered.whereNotExists(starred);
  }
  if (q.active !== undefined) filtered.where('p.active', q.active);
  if (q.validated !== undefined) filtered.where('p.validated', q.validated);

  const order = q.order ?? (q.sort === 'name' ? 'asc' : 'desc');
  const [countRow, rows] = await Promise.all([
    filtered.clone().count<{ n: number }[]>({ n: '*' }).first(),
    projectRows(k, user)
      .whereIn('p.id', filtered.clone().select('p.id'))
      .orderByRaw(q.sort === 'name' ? `lower(p.name) ${order}` : `p.${q.sort} ${order}`)
      .orderBy('p.id', 'desc')
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page) as Promise<ProjectRow[]>,
  ]);
  return { rows, total: Number(countRow?.n ?? 0) };
}

/** The user's most recently changed projects. */
export async function recentProjectRows(k: Db, user: Actor, limit: number): Promise<ProjectRow[]> {
  return (await whereVisible(projectRows(k, user), user, { alias: 'p' }).orderBy('p.updated_at', 'desc').orderBy('p.id', 'desc').limit(limit)) as ProjectRow[];
}

/** One project as the user sees it (access is checked by the caller). */
export async function projectRowById(k: Db, user: Actor, projectId: number): Promise<ProjectRow | undefined> {
  return (await projectRows(k, user).where('p.id', projectId).first()) as ProjectRow | undefined;
}

/** The categories of these projects, by name. */
export function categoryRowsOf(k: Db, projectIds: number[]): Promise<{ id_project: number; id: number; name: string }[]> {
  return k('project_categories as pc').join('categories as c', 'c.id', 'pc.id_category').whereIn('pc.id_project', projectIds).orderByRaw('lower(c.name)').select('pc.id_project', 'c.id', 'c.name');
}

/** How many of these categories belong to the owner. */
export async function countOwnCategories(k: Db, ownerId: number, ids: number[]): Promise<number> {
  const own: { id: number }[] = await k('categories').whereIn('id', ids).where({ id_owner: ownerId }).select('id');
  return own.length;
}

/** Replaces the set of a project's categories. */
export async function replaceCategories(k: Db, projectId: number, categoryIds: number[]): Promise<void> {
  await k('project_categories').where({ id_project: projectId }).delete();
  if (categoryIds.length) await k('project_categories').insert(categoryIds.map((id) => ({ id_project: projectId, id_category: id })));
}

export async function insertProject(k: Db, row: Partial<Project>): Promise<Project> {
  return await Project.query(k).insertAndFetch(row);
}

export async function patchProject(k: Db, id: number, patch: Partial<Project>): Promise<void> {
  await Project.query(k).patch({ ...patch, updated_at: new Date() }).where({ id });
}

/** Deletes a project; its sheets, visits, uploads and team go by the foreign keys. */
export async function deleteProjectRow(k: Db, id: number): Promise<void> {
  await Project.query(k).deleteById(id);
}

/** Reads and locks a project for the rest of the transaction. */
export async function lockProjectRow(k: Db, id: number): Promise<Project | undefined> {
  return await Project.query(k).findById(id).forUpdate();
}

/** Stars or unstars a project for a user; starring twice is starring once. */
export async function setStar(k: Db, userId: number, projectId: number, starred: boolean): Promise<void> {
  if (starred) await k('project_stars').insert({ id_user: userId, id_project: projectId }).onConflict(['id_user', 'id_project']).ignore();
  else await k('project_stars').where({ id_user: userId, id_project: projectId }).delete();
}

/** What the public showcase shows of an active, validated project with this code. */
export function showcaseRow(
  k: Db,
  projectCode: string,
): Promise<(Pick<Project, 'project_code' | 'name' | 'description' | 'city' | 'country' | 'cover' | 'created_at'> & { type_name: string | null; sheets_count: number }) | undefined> {
  return k('projects as p')
    .leftJoin('project_types as pt', 'pt.id', 'p.id_project_type')
    .where({ 'p.project_code': projectCode.toLowerCase(), 'p.active': true, 'p.validated': true })
    .first(
      'p.project_code',
      'p.name',
      'p.description',
      'p.city',
      'p.country',
      'p.cover',
      'p.created_at',
      'pt.name as type_name',
      k.raw('(select count(*) from maps m where m.id_project = p.id)::int as sheets_count'),
    );
}

/** Marks the project changed now (its "last updated" in lists), e.g. when one of its sheets is added or deleted. */
export async function touchProject(k: Db, projectId: number): Promise<void> {
  await k('projects').where({ id: projectId }).update({ updated_at: k.fn.now() });
}

/** The owner of a project, or undefined when there is no such project. */
export async function ownerOfProject(k: Db, projectId: number): Promise<number | undefined> {
  return ((await k('projects').where({ id: projectId }).first('id_owner')) as { id_owner: number } | undefined)?.id_owner;
}

export async function projectById(k: Db, id: number): Promise<Project | undefined> {
  return await Project.query(k).findById(id);
}

/** Whether a project already has this code. */
export async function projectCodeTaken(k: Db, code: string): Promise<boolean> {
  return !!(await k('projects').where({ project_code: code }).first('id'));
}

/** Whether the project is still there. */
export async function projectExists(k: Db, id: number): Promise<boolean> {
  return !!(await Project.query(k).findById(id).select('id'));
}
