import type { Knex } from 'knex';
import type { Model } from 'objection';
import type { z } from 'zod';
import type { visitListQuerySchema } from '@sitewalk/proto';
import { Visit } from '../db/index.js';
import type { Db } from '../db/query-types.js';
import type { Actor } from '../services/actor.js';
import { whereVisible } from './projects.repository.js';

/**
 * Every query of visits (the dated 360 tours of a project): the list and
 * detail rows with what the asking user sees of them, codes, stars and the
 * writes. Rows are the Objection model `Visit`. The services hold the rules.
 */

type ListQuery = z.output<typeof visitListQuerySchema>;

/** A visit as the list and detail queries return it: the model's columns and its project, sheet, star and room counts. */
export type VisitRow = Omit<Visit, 'date' | keyof Model> & {
  date: Date | string;
  project_name: string;
  id_owner: number;
  member_role: string | null;
  member_permissions: unknown;
  map_name: string | null;
  starred: boolean;
  rooms_count: number;
  rooms_ready: number;
  thumb_folder: string | null;
};

/** Visits with their project, sheet, the user's star, room counts and first ready room. */
function visitRows(k: Db, user: Actor) {
  return k('visits as v')
    .join('projects as p', 'p.id', 'v.id_project')
    .leftJoin('maps as m', 'm.id', 'v.id_map')
    .leftJoin('project_members as pm', (j) => j.on('pm.id_project', 'p.id').andOn('pm.id_user', k.raw('?', [user.id])))
    .select(
      'v.*',
      'p.name as project_name',
      'p.id_owner',
      'pm.role as member_role',
      'pm.permissions as member_permissions',
      'm.name as map_name',
      k.raw('exists (select 1 from visit_stars s where s.id_visit = v.id and s.id_user = ?) as starred', [user.id]),
      k.raw('(select count(*) from rooms r where r.id_visit = v.id)::int as rooms_count'),
      k.raw("(select count(*) from rooms r where r.id_visit = v.id and r.status = 'ready')::int as rooms_ready"),
      k.raw("(select r.folder from rooms r where r.id_visit = v.id and r.status = 'ready' order by r.position, r.id limit 1) as thumb_folder"),
    );
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of the visits the user may see (of one project, or of all theirs), filtered and sorted, and how many match. */
export async function visitPage(k: Db, user: Actor, q: ListQuery): Promise<{ rows: VisitRow[]; total: number }> {
  const filtered = whereVisible(k('visits as v').join('projects as p', 'p.id', 'v.id_project'), user, { all: true, alias: 'p' });
  if (q.id_project) filtered.where('v.id_project', q.id_project);
  if (q.id_map) filtered.where('v.id_map', q.id_map);
  if (q.search) {
    const like = `%${escapeLike(q.search)}%`;
    filtered.where((w) => w.whereILike('v.name', like).orWhereILike('v.description', like).orWhereILike('v.code', like));
  }
  if (q.starred !== undefined) {
    const starred = (s: Knex.QueryBuilder) => s.select(k.raw('1')).from('visit_stars as fs').whereRaw('fs.id_visit = v.id').andWhere('fs.id_user', user.id);
    if (q.starred) filtered.whereExists(starred);
    else filtered.whereNotExists(starred);
  }
  const order = q.order ?? (q.sort === 'name' ? 'asc' : 'desc');
  const [countRow, rows] = await Promise.all([
    filtered.clone().count<{ n: number }[]>({ n: '*' }).first(),
    visitRows(k, user)
      .whereIn('v.id', filtered.clone().select('v.id'))
      .orderByRaw(q.sort === 'name' ? `lower(v.name) ${order}` : `v.${q.sort} ${order}`)
      .orderBy('v.id', 'desc')
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page) as Promise<VisitRow[]>,
  ]);
  return { rows, total: Number(countRow?.n ?? 0) };
}

/** One visit as the user sees it (access is checked by the caller). */
export async function visitRowById(k: Db, user: Actor, visitId: number): Promise<VisitRow | undefined> {
  return (await visitRows(k, user).where('v.id', visitId).first()) as VisitRow | undefined;
}

export async function visitById(k: Db, id: number): Promise<Visit | undefined> {
  return await Visit.query(k).findById(id);
}

/** Whether a visit already has this code. */
export async function visitCodeTaken(k: Db, code: string): Promise<boolean> {
  return !!(await k('visits').where({ code }).first('id'));
}

export async function insertVisit(k: Db, row: Partial<Visit>): Promise<Visit> {
  return await Visit.query(k).insertAndFetch(row);
}

/** Changes a visit's fields and marks it changed now. */
export async function patchVisit(k: Db, id: number, patch: Partial<Visit>): Promise<void> {
  await Visit.query(k).patch({ ...patch, updated_at: new Date() }).where({ id });
}

/** Deletes a visit; its rooms, hotspots and points of interest go by the foreign keys. */
export async function deleteVisitRow(k: Db, id: number): Promise<void> {
  await Visit.query(k).deleteById(id);
}

/** Reads and locks a visit for the rest of the transaction (orders concurrent uploads into it); undefined once it is gone. */
export async function lockVisit(k: Db, id: number): Promise<Visit | undefined> {
  return await Visit.query(k).findById(id).forUpdate();
}

/** Marks the visit changed now (its "last updated"), e.g. when a room is added or deleted. */
export const touchVisit = (k: Db, id: number): Promise<void> => patchVisit(k, id, {});

/** Stars or unstars a visit for a user; starring twice is starring once. */
export async function setVisitStar(k: Db, userId: number, visitId: number, starred: boolean): Promise<void> {
  if (starred) await k('visit_stars').insert({ id_user: userId, id_visit: visitId }).onConflict(['id_user', 'id_visit']).ignore();
  else await k('visit_stars').where({ id_user: userId, id_visit: visitId }).delete();
}

/** The visit with this code (as written, lower-cased) if its project is active: what the public viewer may show. */
export async function visitOfActiveProjectByCode(k: Db, code: string): Promise<Visit | undefined> {
  return await Visit.query(k)
    .findOne({ code })
    .whereExists(k('projects').select(k.raw('1')).whereRaw('projects.id = visits.id_project').andWhere('projects.active', true));
}

/** The dates of these visits as written (YYYY-MM-DD, no time zone). */
export function visitDatesOf(k: Db, ids: number[]): Promise<{ id: number; date: string }[]> {
  return k('visits').whereIn('id', ids).select('id', k.raw(`to_char(date, 'YYYY-MM-DD') as date`));
}
