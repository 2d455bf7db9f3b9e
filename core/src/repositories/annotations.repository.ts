import type { Knex } from 'knex';
import type { z } from 'zod';
import {
  ANNOTATION_PRIORITIES,
  ANNOTATION_STATUSES,
  type Annotation,
  type AnnotationFieldChange,
  type AnnotationFile,
  type AnnotationHistoryAction,
  type AnnotationStatus,
  type annotationListQuerySchema,
} from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';
import type { Actor } from '../services/actor.js';
import { whereVisible } from './projects.repository.js';
import { addDays } from '../services/plan-expiry-rules.js';

/**
 * Every query of the snag list's tables (annotations, annotation_files,
 * annotation_history) and the row types they return, derived from proto's
 * shapes. The services hold the rules and never write SQL.
 */

type ListQuery = z.output<typeof annotationListQuerySchema>;

/** A row of `annotations`: proto's fields of the snag itself, dates as the driver returns them. */
export type AnnotationRow = Pick<
  Annotation,
  'id' | 'id_project' | 'id_visit' | 'id_room' | 'yaw' | 'pitch' | 'zoom' | 'id_map' | 'x' | 'y' | 'title' | 'description' | 'status' | 'priority' | 'id_assignee' | 'id_author'
> & { due_date: Date | string | null; created_at: Date; updated_at: Date };

/** Where a snag is pinned: in a room of its visit (angles) and/or on a sheet (x/y). */
export type AnnotationPlace = Pick<AnnotationRow, 'id_room' | 'yaw' | 'pitch' | 'zoom' | 'id_map' | 'x' | 'y'>;

/** The columns a new snag is written with. */
export type NewAnnotationRow = Omit<AnnotationRow, 'id' | 'created_at' | 'updated_at' | 'due_date'> & { due_date: string | null };

/** A snag with what its DTO names: project, visit, room, sheet, assignee, author, and the asking user's membership. */
export type AnnotationJoinedRow = AnnotationRow &
  Pick<Annotation, 'project_name' | 'visit_name' | 'visit_code' | 'room_name' | 'map_name'> & {
    id_owner: number;
    member_role: string | null;
    member_permissions: unknown;
    room_status: string | null;
    room_folder: string | null;
    as_username: string | null;
    as_first: string | null;
    as_last: string | null;
    au_username: string | null;
    au_first: string | null;
    au_last: string | null;
  };

/** A row of `annotation_files`. */
export type AnnotationFileRow = Pick<AnnotationFile, 'filename' | 'id_visit' | 'mime'> & {
  id: number;
  id_annotation: number | null;
  file_key: string;
  original_name: string;
  size_bytes: number | string;
  created_at: Date;
};

/** The columns a new file is written with. */
export type NewAnnotationFileRow = Omit<AnnotationFileRow, 'id' | 'created_at'> & { id_user: number };

/** A history entry with its author's names. */
export interface AnnotationHistoryRow {
  id: number;
  id_annotation: number;
  id_user: number | null;
  action: AnnotationHistoryAction;
  changes: AnnotationFieldChange[] | null;
  comment: string | null;
  created_at: Date;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
}

/** A user as snags name them. */
export interface PersonRow {
  id: number;
  username: string;
  first_name: string | null;
  last_name: string | null;
}

/** One snag's row, locked for the transaction when `lock`. */
export async function findAnnotation(k: Db, id: number, lock = false): Promise<AnnotationRow | undefined> {
  const q = k<AnnotationRow>('annotations').where({ id }).first();
  if (lock) q.forUpdate();
  return (await q) as AnnotationRow | undefined;
}

/** The snags of these ids with everything their DTOs show, as `viewer` is a member (or not) of their projects. */
export function joinedAnnotations(k: Db, viewer: Actor, ids: number[]): Promise<AnnotationJoinedRow[]> {
  return k('annotations as a')
    .join('projects as p', 'p.id', 'a.id_project')
    .join('visits as v', 'v.id', 'a.id_visit')
    .leftJoin('rooms as r', 'r.id', 'a.id_room')
    .leftJoin('maps as m', 'm.id', 'a.id_map')
    .leftJoin('users as ua', 'ua.id', 'a.id_assignee')
    .leftJoin('users as uu', 'uu.id', 'a.id_author')
    .leftJoin('project_members as pm', (j) => j.on('pm.id_project', 'p.id').andOn('pm.id_user', k.raw('?', [viewer.id])))
    .whereIn('a.id', ids)
    .select(
      'a.*',
      'p.name as project_name',
      'p.id_owner',
      'pm.role as member_role',
      'pm.permissions as member_permissions',
      'v.name as visit_name',
      'v.code as visit_code',
      'r.name as room_name',
      'r.status as room_status',
      'r.folder as room_folder',
      'm.name as map_name',
      'ua.username as as_username',
      'ua.first_name as as_first',
      'ua.last_name as as_last',
      'uu.username as au_username',
      'uu.first_name as au_first',
      'uu.last_name as au_last',
    );
}

/** The files of these snags, oldest first. */
export function filesOfAnnotations(k: Db, ids: number[]): Promise<AnnotationFileRow[]> {
  return k('annotation_files').whereIn('id_annotation', ids).orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Every filter of the list but the status (the counts by status apply these); `today` is the site's today. */
function applyFilters(q: Knex.QueryBuilder, user: Actor, f: ListQuery, today: string) {
  whereVisible(q, user, { alias: 'p' });
  if (f.id_project) q.where('a.id_project', f.id_project);
  if (f.id_visit) q.where('a.id_visit', f.id_visit);
  if (f.id_room) q.where('a.id_room', f.id_room);
  if (f.id_map) q.where('a.id_map', f.id_map);
  if (f.assignee === 'me') q.where('a.id_assignee', user.id);
  else if (f.assignee === 'none') q.whereNull('a.id_assignee');
  else if (typeof f.assignee === 'number') q.where('a.id_assignee', f.assignee);
  if (f.priority) q.whereIn('a.priority', f.priority);
  if (f.due === 'overdue') q.where('a.due_date', '<', today).whereNot('a.status', 'closed');
  else if (f.due === 'today') q.where('a.due_date', today);
  else if (f.due === 'week') q.whereBetween('a.due_date', [today, addDays(today, 6)]);
  else if (f.due === 'none') q.whereNull('a.due_date');
  if (f.search) {
    const like = `%${escapeLike(f.search)}%`;
    q.where((w) => w.whereILike('a.title', like).orWhereILike('a.description', like));
  }
  return q;
}

const rankOf = (column: string, values: readonly string[]) => `case ${column} ${values.map((v, i) => `when '${v}' then ${i}`).join(' ')} end`;

/**
 * One page of the snags `user` may see under the filters: their ids in the
 * asked order, how many match, and how many there are of each status under
 * every filter but the status one.
 */
export async function annotationPage(
  k: Db,
  user: Actor,
  f: ListQuery,
  today: string,
): Promise<{ ids: number[]; total: number; byStatus: { status: AnnotationStatus; n: number }[] }> {
  const base = () => applyFilters(k('annotations as a').join('projects as p', 'p.id', 'a.id_project'), user, f, today);
  const filtered = () => {
    const q = base();
    if (f.status) q.whereIn('a.status', f.status);
    return q;
  };
  const order = f.order ?? (f.sort === 'title' || f.sort === 'status' ? 'asc' : 'desc');
  const page = filtered().select('a.id');
  if (f.sort === 'priority') page.orderByRaw(`${rankOf('a.priority', ANNOTATION_PRIORITIES)} ${order}`);
  else if (f.sort === 'status') page.orderByRaw(`${rankOf('a.status', ANNOTATION_STATUSES)} ${order}`);
  else if (f.sort === 'due_date') page.orderByRaw(`a.due_date ${order} nulls last`);
  else if (f.sort === 'title') page.orderByRaw(`lower(a.title) ${order}`);
  else page.orderBy(`a.${f.sort}`, order);
  page.orderBy('a.id', 'desc').limit(f.per_page).offset((f.page - 1) * f.per_page);

  const [ids, totalRow, countRows] = await Promise.all([
    page,
    filtered().count<{ n: number }[]>({ n: '*' }).first(),
    base().select('a.status').count<{ status: AnnotationStatus; n: number }[]>({ n: '*' }).groupBy('a.status'),
  ]);
  return {
    ids: (ids as { id: number }[]).map((r) => r.id),
    total: Number(totalRow?.n ?? 0),
    byStatus: (countRows as { status: AnnotationStatus; n: number | string }[]).map((c) => ({ status: c.status, n: Number(c.n) })),
  };
}

/** A snag's history with who wrote each entry, newest first. */
export function annotationHistory(k: Db, id: number): Promise<AnnotationHistoryRow[]> {
  return k('annotation_history as h')
    .leftJoin('users as u', 'u.id', 'h.id_user')
    .where('h.id_annotation', id)
    .orderBy([{ column: 'h.created_at', order: 'desc' }, { column: 'h.id', order: 'desc' }])
    .select('h.*', 'u.username', 'u.first_name', 'u.last_name');
}

export async function insertAnnotationHistory(
  k: Db,
  entry: { id_annotation: number; id_user: number; action: AnnotationHistoryAction; changes: AnnotationFieldChange[]; comment: string | null },
): Promise<void> {
  await k('annotation_history').insert({ ...entry, changes: JSON.stringify(entry.changes) });
}

/** These users by name, in username order. */
export function peopleByName(k: Db, ids: number[]): Promise<PersonRow[]> {
  return k('users as u').whereIn('u.id', ids).orderByRaw('lower(u.username)').select('u.id', 'u.username', 'u.first_name', 'u.last_name');
}

export function findPerson(k: Db, id: number): Promise<PersonRow | undefined> {
  return k('users').where({ id }).first('id', 'username', 'first_name', 'last_name');
}

/** The visit a snag is made in, with its project. */
export function findVisit(k: Db, id: number): Promise<{ id: number; id_project: number } | undefined> {
  return k('visits').where({ id }).first('id', 'id_project');
}

/** A room a snag may be pinned in, with its own place on a sheet. */
export function findRoom(k: Db, id: number): Promise<{ id: number; id_visit: number; id_map: number | null; x: number | null; y: number | null } | undefined> {
  return k('rooms').where({ id }).first('id', 'id_visit', 'id_map', 'x', 'y');
}

export function findSheet(k: Db, id: number): Promise<{ id: number; id_project: number } | undefined> {
  return k('maps').where({ id }).first('id', 'id_project');
}

export async function insertAnnotation(k: Db, row: NewAnnotationRow): Promise<number> {
  const [out] = await k('annotations').insert(row).returning('id');
  return out.id as number;
}

/** Changes a snag's columns (none: only its time of change), and its time of change. */
export async function updateAnnotationRow(k: Db, id: number, set: Partial<NewAnnotationRow> = {}): Promise<void> {
  await k('annotations').where({ id }).update({ ...set, updated_at: k.fn.now() });
}

export async function deleteAnnotationRow(k: Db, id: number): Promise<void> {
  await k('annotations').where({ id }).delete();
}

/** The files with these server names, locked for the transaction. */
export function lockFilesByName(k: Db, filenames: string[]): Promise<AnnotationFileRow[]> {
  return k('annotation_files').whereIn('filename', filenames).forUpdate();
}

export async function attachFiles(k: Db, filenames: string[], annotationId: number): Promise<void> {
  await k('annotation_files').whereIn('filename', filenames).update({ id_annotation: annotationId });
}

/** A snag's files in upload order, locked for the transaction. */
export function lockFilesOf(k: Db, annotationId: number): Promise<AnnotationFileRow[]> {
  return k('annotation_files').where({ id_annotation: annotationId }).orderBy('id').forUpdate();
}

export async function deleteFiles(k: Db, ids: number[]): Promise<void> {
  await k('annotation_files').whereIn('id', ids).delete();
}

export async function countFilesOf(k: Db, annotationId: number): Promise<number> {
  const n = await k('annotation_files').where({ id_annotation: annotationId }).count<{ n: number }[]>({ n: '*' }).first();
  return Number(n?.n ?? 0);
}

export async function insertFile(k: Db, row: NewAnnotationFileRow): Promise<AnnotationFileRow> {
  const [out] = await k('annotation_files').insert(row).returning('*');
  return out as AnnotationFileRow;
}

/** An uploaded file of the visit by its server name, locked for the transaction. */
export function lockFileOfVisit(k: Db, filename: string, visitId: number): Promise<AnnotationFileRow | undefined> {
  return k('annotation_files').where({ filename, id_visit: visitId }).forUpdate().first();
}

// ---- Overdue reminders ----

/** An overdue snag as a reminder names it (its due day as YYYY-MM-DD). */
export interface OverdueSnag {
  id: number;
  title: string;
  due_date: string;
  project_name: string;
}

/** Snags not closed and due before `day`, each with the person reminded (the assignee, else the author; active accounts only), oldest due first. */
export function overdueSnagRows(k: Db, day: string): Promise<(OverdueSnag & { id_user: number })[]> {
  return k('annotations as a')
    .join('projects as p', 'p.id', 'a.id_project')
    .join('users as u', 'u.id', k.raw('coalesce(a.id_assignee, a.id_author)'))
    .where('u.active', true)
    .whereNot('a.status', 'closed')
    .whereNotNull('a.due_date')
    .where('a.due_date', '<', day)
    .select('a.id', 'a.title', k.raw(`to_char(a.due_date, 'YYYY-MM-DD') as due_date`), 'p.name as project_name', 'u.id as id_user')
    .orderBy([
      { column: 'a.due_date', order: 'asc' },
      { column: 'a.id', order: 'asc' },
    ]);
}

/** Records that a person is reminded on `day`; false when they already were (another run, a retry). */
export async function claimOverdueReminder(k: Db, userId: number, day: string, snags: number): Promise<boolean> {
  const fresh = await k('annotation_reminders').insert({ id_user: userId, day, snags }).onConflict(['id_user', 'day']).ignore().returning('id_user');
  return fresh.length > 0;
}

/** The history of these snags with who wrote each entry, oldest first (a report reads it in order). */
export function historyOfAnnotations(
  k: Db,
  ids: number[],
): Promise<Pick<AnnotationHistoryRow, 'id_annotation' | 'action' | 'changes' | 'comment' | 'created_at' | 'username' | 'first_name' | 'last_name'>[]> {
  return k('annotation_history as h')
    .leftJoin('users as u', 'u.id', 'h.id_user')
    .whereIn('h.id_annotation', ids)
    .orderBy([{ column: 'h.created_at', order: 'asc' }, { column: 'h.id', order: 'asc' }])
    .select('h.id_annotation', 'h.action', 'h.changes', 'h.comment', 'h.created_at', 'u.username', 'u.first_name', 'u.last_name');
}
