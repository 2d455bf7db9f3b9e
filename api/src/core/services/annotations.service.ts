import type { Knex } from 'knex';
import type { z } from 'zod';
import {
  ANNOTATION_PRIORITIES,
  ANNOTATION_STATUSES,
  canChangeStatus,
  isOverdue,
  normaliseYaw,
  statusChangeMessage,
  type Annotation,
  type AnnotationChangedEvent,
  type AnnotationDetail,
  type AnnotationFieldChange,
  type AnnotationFile,
  type AnnotationHistoryAction,
  type AnnotationHistoryEntry,
  type AnnotationList,
  type AnnotationPerson,
  type AnnotationPriority,
  type AnnotationStatus,
  type AnnotationStatusCounts,
  type annotationCreateSchema,
  type annotationListQuerySchema,
  type annotationUpdateSchema,
} from '@sitewalk/proto';
import { db } from '../db/index.js';
import { localDate } from '../db/models/project.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { signedUrl } from '../storage/index.js';
import { accessFor, canManageSnagsOf, projectAccess, projectPeopleWith, whereVisible, type ProjectAccess } from './access.service.js';
import { annotationChanged } from './annotations-events.js';
import { ROOM_FILES } from './rooms-dto.js';
import { removeQuietly } from './visits.service.js';

type Actor = { id: number; super_admin: boolean };
type Db = Knex | Knex.Transaction;
type ListQuery = z.output<typeof annotationListQuerySchema>;
type CreateInput = z.output<typeof annotationCreateSchema>;
type UpdateInput = z.output<typeof annotationUpdateSchema>;
const iso = (d: Date | string) => new Date(d).toISOString();

export const SNAG_NOT_FOUND = 'Snag not found.';
export const SNAG_READ_ONLY = 'You can view the snags of this project but not change them.';

/**
 * Who may create, change and delete a project's snags: the one rule every
 * snag call asks. The owner, super admins, project admins and members whose
 * permissions include 'manage snags' (editors by default); the rest only read.
 */
export function canManageSnags(access: Pick<ProjectAccess, 'permissions'> | null): boolean {
  return access !== null && canManageSnagsOf(access);
}

/** The project's access, with a missing project named as what was asked for; 403 when the user may only read. */
export async function snagProjectAccess(user: Actor, projectId: number, manage: boolean, what: string, k: Db = db()): Promise<ProjectAccess> {
  const access = await projectAccess(user, projectId, k);
  if (!access) throw notFound(what);
  if (manage && !canManageSnags(access)) throw forbidden(SNAG_READ_ONLY);
  return access;
}

export interface AnnotationRow {
  id: number;
  id_project: number;
  id_visit: number;
  id_room: number | null;
  yaw: number | null;
  pitch: number | null;
  zoom: number | null;
  id_map: number | null;
  x: number | null;
  y: number | null;
  title: string;
  description: string;
  status: AnnotationStatus;
  priority: AnnotationPriority;
  id_assignee: number | null;
  due_date: Date | string | null;
  id_author: number | null;
  created_at: Date;
  updated_at: Date;
}

/** A snag and the user's access to its project: 404 when they may not see it, 403 when they may only read and `manage` is asked. */
export async function requireAnnotation(user: Actor, id: number, manage: boolean, k: Db = db(), lock = false): Promise<{ row: AnnotationRow; access: ProjectAccess }> {
  const q = k<AnnotationRow>('annotations').where({ id }).first();
  if (lock) q.forUpdate();
  const row = (await q) as AnnotationRow | undefined;
  if (!row) throw notFound(SNAG_NOT_FOUND);
  return { row, access: await snagProjectAccess(user, row.id_project, manage, SNAG_NOT_FOUND, k) };
}

interface JoinedRow extends AnnotationRow {
  project_name: string;
  id_owner: number;
  member_role: string | null;
  member_permissions: unknown;
  visit_name: string;
  visit_code: string;
  room_name: string | null;
  room_status: string | null;
  room_folder: string | null;
  map_name: string | null;
  as_username: string | null;
  as_first: string | null;
  as_last: string | null;
  au_username: string | null;
  au_first: string | null;
  au_last: string | null;
}

/** Snags with what their DTO names: project, visit, room, sheet, assignee, author, and the user's membership. */
function joinedRows(k: Db, user: Actor) {
  return k('annotations as a')
    .join('projects as p', 'p.id', 'a.id_project')
    .join('visits as v', 'v.id', 'a.id_visit')
    .leftJoin('rooms as r', 'r.id', 'a.id_room')
    .leftJoin('maps as m', 'm.id', 'a.id_map')
    .leftJoin('users as ua', 'ua.id', 'a.id_assignee')
    .leftJoin('users as uu', 'uu.id', 'a.id_author')
    .leftJoin('project_members as pm', (j) => j.on('pm.id_project', 'p.id').andOn('pm.id_user', k.raw('?', [user.id])))
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

/** A person by name: first and last name when known, else the username. */
export function person(id: number | null, username: string | null | undefined, first?: string | null, last?: string | null): AnnotationPerson | null {
  if (id == null || !username) return null;
  const name = `${first ?? ''} ${last ?? ''}`.trim();
  return { id, username, name: name || username };
}

interface FileRow {
  id: number;
  id_visit: number;
  id_annotation: number | null;
  filename: string;
  file_key: string;
  original_name: string;
  mime: string;
  size_bytes: number | string;
  created_at: Date;
}

export function toFileDto(f: FileRow): AnnotationFile {
  return {
    filename: f.filename,
    id_visit: f.id_visit,
    name: f.original_name,
    mime: f.mime,
    size_bytes: Number(f.size_bytes),
    kind: f.mime.startsWith('image/') ? 'image' : 'document',
    url: signedUrl(f.file_key)!,
    created_at: iso(f.created_at),
  };
}

const today = () => localDate(new Date())!;

function toDto(r: JoinedRow, files: AnnotationFile[], now = today()): Annotation {
  const due = localDate(r.due_date);
  return {
    id: r.id,
    id_project: r.id_project,
    project_name: r.project_name,
    id_visit: r.id_visit,
    visit_name: r.visit_name,
    visit_code: r.visit_code,
    id_room: r.id_room,
    room_name: r.room_name ?? null,
    yaw: r.yaw,
    pitch: r.pitch,
    zoom: r.zoom,
    id_map: r.id_map,
    map_name: r.map_name ?? null,
    x: r.x,
    y: r.y,
    title: r.title,
    description: r.description,
    status: r.status,
    priority: r.priority,
    id_assignee: r.id_assignee,
    assignee: person(r.id_assignee, r.as_username, r.as_first, r.as_last),
    due_date: due,
    overdue: isOverdue({ status: r.status, due_date: due }, now),
    files,
    id_author: r.id_author,
    author: person(r.id_author, r.au_username, r.au_first, r.au_last),
    snapshot_url: r.room_status === 'ready' && r.room_folder ? signedUrl(`${r.room_folder}/${ROOM_FILES.thumbnail}`) : null,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

async function filesOf(ids: number[], k: Db): Promise<Map<number, AnnotationFile[]>> {
  const out = new Map<number, AnnotationFile[]>();
  if (!ids.length) return out;
  const rows: FileRow[] = await k('annotation_files').whereIn('id_annotation', ids).orderBy([{ column: 'created_at' }, { column: 'id' }]);
  for (const f of rows) {
    const list = out.get(f.id_annotation!) ?? [];
    list.push(toFileDto(f));
    out.set(f.id_annotation!, list);
  }
  return out;
}

/**
 * The snags with these ids as their DTOs, in the order given, with
 * `can_edit` for the user. Also what exports and notifications read.
 */
export async function annotationDtos(user: Actor, ids: number[], k: Db = db()): Promise<(Annotation & { can_edit: boolean })[]> {
  if (!ids.length) return [];
  const rows: JoinedRow[] = await joinedRows(k, user).whereIn('a.id', ids);
  const files = await filesOf(ids, k);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const now = today();
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is JoinedRow => !!r)
    .map((r) => ({
      ...toDto(r, files.get(r.id) ?? [], now),
      can_edit: canManageSnags(accessFor(user, r.id_owner, { role: r.member_role, permissions: r.member_permissions })),
    }));
}

/** One snag as everybody in its project sees it (for live events: no per-user fields). */
export async function annotationDto(id: number, k: Db = db()): Promise<Annotation> {
  // The actor does not matter for the shared fields; can_edit is dropped.
  const [dto] = await annotationDtos({ id: 0, super_admin: false }, [id], k);
  if (!dto) throw notFound(SNAG_NOT_FOUND);
  const { can_edit: _drop, ...shared } = dto;
  return shared;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const addDays = (isoDay: string, n: number) => {
  const d = new Date(`${isoDay}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** Every filter of the list but the status (the counts by status apply these). */
function applyFilters(q: Knex.QueryBuilder, user: Actor, f: ListQuery) {
  whereVisible(q, user, { alias: 'p' });
  if (f.id_project) q.where('a.id_project', f.id_project);
  if (f.id_visit) q.where('a.id_visit', f.id_visit);
  if (f.id_room) q.where('a.id_room', f.id_room);
  if (f.id_map) q.where('a.id_map', f.id_map);
  if (f.assignee === 'me') q.where('a.id_assignee', user.id);
  else if (f.assignee === 'none') q.whereNull('a.id_assignee');
  else if (typeof f.assignee === 'number') q.where('a.id_assignee', f.assignee);
  if (f.priority) q.whereIn('a.priority', f.priority);
  const now = today();
  if (f.due === 'overdue') q.where('a.due_date', '<', now).whereNot('a.status', 'closed');
  else if (f.due === 'today') q.where('a.due_date', now);
  else if (f.due === 'week') q.whereBetween('a.due_date', [now, addDays(now, 6)]);
  else if (f.due === 'none') q.whereNull('a.due_date');
  if (f.search) {
    const like = `%${escapeLike(f.search)}%`;
    q.where((w) => w.whereILike('a.title', like).orWhereILike('a.description', like));
  }
  return q;
}

const rankOf = (column: string, values: readonly string[]) =>
  `case ${column} ${values.map((v, i) => `when '${v}' then ${i}`).join(' ')} end`;

/** GET /annotations: one page of the user's snags, and the counts by status under the same filters. */
export async function listAnnotations(user: Actor, f: ListQuery): Promise<AnnotationList> {
  const k = db();
  const base = () => applyFilters(k('annotations as a').join('projects as p', 'p.id', 'a.id_project'), user, f);
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
  const counts = Object.fromEntries(ANNOTATION_STATUSES.map((s) => [s, 0])) as AnnotationStatusCounts;
  for (const c of countRows as { status: AnnotationStatus; n: number | string }[]) counts[c.status] = Number(c.n);
  return {
    items: await annotationDtos(user, (ids as { id: number }[]).map((r) => r.id), k),
    total: Number(totalRow?.n ?? 0),
    page: f.page,
    per_page: f.per_page,
    counts,
  };
}

async function historyOf(id: number, k: Db): Promise<AnnotationHistoryEntry[]> {
  const rows = await k('annotation_history as h')
    .leftJoin('users as u', 'u.id', 'h.id_user')
    .where('h.id_annotation', id)
    .orderBy([{ column: 'h.created_at', order: 'desc' }, { column: 'h.id', order: 'desc' }])
    .select('h.*', 'u.username', 'u.first_name', 'u.last_name');
  return rows.map((h) => ({
    id: h.id,
    id_annotation: h.id_annotation,
    action: h.action,
    user: person(h.id_user, h.username, h.first_name, h.last_name),
    changes: h.changes ?? [],
    comment: h.comment,
    created_at: iso(h.created_at),
  }));
}

async function detail(user: Actor, id: number, k: Db = db()): Promise<AnnotationDetail> {
  const [dto] = await annotationDtos(user, [id], k);
  if (!dto) throw notFound(SNAG_NOT_FOUND);
  return { ...dto, history: await historyOf(id, k) };
}

/** GET /annotations/{id}. */
export async function getAnnotation(user: Actor, id: number): Promise<AnnotationDetail> {
  await requireAnnotation(user, id, false);
  return detail(user, id);
}

/**
 * GET /annotations/people: who snags may be assigned to — the owner and the
 * members who may handle snags, so an assignee can always move theirs along.
 */
export async function projectPeople(user: Actor, projectId: number, k: Db = db()): Promise<AnnotationPerson[]> {
  await snagProjectAccess(user, projectId, false, 'Project not found.', k);
  const rows = await k('users as u')
    .whereIn('u.id', await projectPeopleWith(projectId, 'manage_snags', k))
    .orderByRaw('lower(u.username)')
    .select('u.id', 'u.username', 'u.first_name', 'u.last_name');
  return rows.map((u) => person(u.id, u.username, u.first_name, u.last_name)!);
}

export async function recordHistory(
  k: Db,
  id: number,
  userId: number,
  action: AnnotationHistoryAction,
  changes: AnnotationFieldChange[],
  comment: string | null = null,
): Promise<void> {
  await k('annotation_history').insert({ id_annotation: id, id_user: userId, action, changes: JSON.stringify(changes), comment });
}

/** The actor as events name them. */
export async function actorPerson(user: Actor, k: Db = db()): Promise<AnnotationPerson> {
  const u = await k('users').where({ id: user.id }).first('id', 'username', 'first_name', 'last_name');
  return person(user.id, u?.username ?? `#${user.id}`, u?.first_name, u?.last_name)!;
}

/** Tells everyone concerned (live, and the notification triggers) after the change is committed. */
export async function announce(
  user: Actor,
  action: AnnotationChangedEvent['action'],
  annotation: Annotation,
  changes: AnnotationFieldChange[],
  comment: string | null,
): Promise<void> {
  await annotationChanged({
    action,
    id_project: annotation.id_project,
    annotation,
    actor: await actorPerson(user),
    changes,
    comment,
    at: new Date().toISOString(),
  });
}

type Place = Pick<AnnotationRow, 'id_room' | 'yaw' | 'pitch' | 'zoom' | 'id_map' | 'x' | 'y'>;

/**
 * Checks the pin's room (of the visit) and sheet (of the project), and puts a
 * snag made in a room placed on a sheet at the room's place when no x/y is given.
 */
async function checkPlace(place: Place, visit: { id: number; id_project: number }, k: Db): Promise<Place> {
  const out = { ...place };
  if (out.id_room != null) {
    const room = await k('rooms').where({ id: out.id_room }).first('id', 'id_visit', 'id_map', 'x', 'y');
    if (!room || room.id_visit !== visit.id) throw badRequest('This room is not in the snag\'s visit.');
    if (out.yaw != null) out.yaw = normaliseYaw(out.yaw);
    if (out.x == null && room.id_map != null && room.x != null && (out.id_map == null || out.id_map === room.id_map)) {
      out.id_map = room.id_map;
      out.x = room.x;
      out.y = room.y;
    }
  } else {
    out.yaw = null;
    out.pitch = null;
    out.zoom = null;
  }
  if (out.id_map != null) {
    const map = await k('maps').where({ id: out.id_map }).first('id', 'id_project');
    if (!map || map.id_project !== visit.id_project) throw badRequest('This sheet is not in the snag\'s project.');
  } else {
    out.x = null;
    out.y = null;
  }
  return out;
}

async function checkAssignee(projectId: number, assignee: number | null | undefined, k: Db) {
  if (assignee != null && !(await projectPeopleWith(projectId, 'manage_snags', k)).includes(assignee)) {
    throw badRequest('The assignee must be one of the project\'s people who may handle snags.');
  }
}

/** The uploaded files named by a snag: each uploaded to the visit, and free or already this snag's. */
async function claimFiles(k: Db, visitId: number, annotationId: number, filenames: string[]): Promise<void> {
  if (!filenames.length) return;
  const rows: FileRow[] = await k('annotation_files').whereIn('filename', filenames).forUpdate();
  for (const name of filenames) {
    const f = rows.find((r) => r.filename === name);
    if (!f || f.id_visit !== visitId || (f.id_annotation != null && f.id_annotation !== annotationId)) {
      throw badRequest(`The file ${name} was not uploaded for this visit. Upload it again.`);
    }
  }
  await k('annotation_files').whereIn('filename', filenames).update({ id_annotation: annotationId });
}

/** POST /annotations. */
export async function createAnnotation(user: Actor, input: CreateInput): Promise<AnnotationDetail> {
  const id = await db().transaction(async (trx) => {
    const visit = await trx('visits').where({ id: input.id_visit }).first('id', 'id_project');
    if (!visit) throw notFound('Visit not found.');
    await snagProjectAccess(user, visit.id_project, true, 'Visit not found.', trx);
    const place = await checkPlace(
      {
        id_room: input.id_room ?? null,
        yaw: input.yaw ?? null,
        pitch: input.pitch ?? null,
        zoom: input.zoom ?? null,
        id_map: input.id_map ?? null,
        x: input.x ?? null,
        y: input.y ?? null,
      },
      visit,
      trx,
    );
    await checkAssignee(visit.id_project, input.id_assignee, trx);
    const [row] = await trx('annotations')
      .insert({
        id_project: visit.id_project,
        id_visit: visit.id,
        ...place,
        title: input.title,
        description: input.description ?? '',
        status: input.status ?? 'open',
        priority: input.priority ?? 'medium',
        id_assignee: input.id_assignee ?? null,
        due_date: input.due_date ?? null,
        id_author: user.id,
      })
      .returning('id');
    await claimFiles(trx, visit.id, row.id, input.files ?? []);
    await recordHistory(trx, row.id, user.id, 'created', []);
    return row.id as number;
  });
  const out = await detail(user, id);
  await announce(user, 'created', strip(out), [], null);
  return out;
}

const strip = ({ can_edit: _c, history: _h, ...a }: AnnotationDetail): Annotation => a;

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/** PUT /annotations/{id}: the changed fields, recorded in the history. */
export async function updateAnnotation(user: Actor, id: number, patch: UpdateInput): Promise<AnnotationDetail> {
  const { changes, comment, removedKeys } = await db().transaction(async (trx) => {
    const { row } = await requireAnnotation(user, id, true, trx, true);
    const changes: AnnotationFieldChange[] = [];
    const set: Record<string, unknown> = {};
    const change = (field: string, from: unknown, to: unknown) => {
      if (to === undefined || same(from, to)) return;
      changes.push({ field, from: from ?? null, to: to ?? null });
      set[field] = to;
    };

    if (patch.status !== undefined && !canChangeStatus(row.status, patch.status)) throw conflict(statusChangeMessage(row.status, patch.status));
    const placeAsked = (['id_room', 'yaw', 'pitch', 'zoom', 'id_map', 'x', 'y'] as const).some((f) => patch[f] !== undefined);
    if (placeAsked) {
      const merged: Place = {
        id_room: patch.id_room !== undefined ? patch.id_room : row.id_room,
        yaw: patch.yaw !== undefined ? patch.yaw : row.yaw,
        pitch: patch.pitch !== undefined ? patch.pitch : row.pitch,
        zoom: patch.zoom !== undefined ? patch.zoom : row.zoom,
        id_map: patch.id_map !== undefined ? patch.id_map : row.id_map,
        x: patch.x !== undefined ? patch.x : row.x,
        y: patch.y !== undefined ? patch.y : row.y,
      };
      if (merged.id_room != null && (merged.yaw == null || merged.pitch == null)) throw badRequest('A snag in a room needs yaw and pitch.');
      if ((merged.x == null) !== (merged.y == null)) throw badRequest('Give x and y together.');
      const place = await checkPlace(merged, { id: row.id_visit, id_project: row.id_project }, trx);
      for (const f of ['id_room', 'yaw', 'pitch', 'zoom', 'id_map', 'x', 'y'] as const) change(f, row[f], place[f]);
    }
    if (patch.id_assignee !== undefined) await checkAssignee(row.id_project, patch.id_assignee, trx);
    change('title', row.title, patch.title);
    change('description', row.description, patch.description);
    change('status', row.status, patch.status);
    change('priority', row.priority, patch.priority);
    change('id_assignee', row.id_assignee, patch.id_assignee);
    change('due_date', localDate(row.due_date), patch.due_date);

    let removedKeys: string[] = [];
    if (patch.files !== undefined) {
      const current: FileRow[] = await trx('annotation_files').where({ id_annotation: id }).orderBy('id').forUpdate();
      const before = current.map((f) => f.filename);
      const removed = current.filter((f) => !patch.files!.includes(f.filename));
      await claimFiles(trx, row.id_visit, id, patch.files);
      if (removed.length) {
        // A file taken off its snag is deleted: nothing else may show it.
        await trx('annotation_files').whereIn('id', removed.map((f) => f.id)).delete();
        removedKeys = removed.map((f) => f.file_key);
      }
      const after = [...before.filter((n) => patch.files!.includes(n)), ...patch.files.filter((n) => !before.includes(n))];
      if (before.length !== after.length || before.some((n, i) => n !== after[i])) changes.push({ field: 'files', from: before, to: patch.files });
    }

    const comment = patch.comment ?? null;
    if (!changes.length && !comment) return { changes, comment, removedKeys };
    if (Object.keys(set).length) await trx('annotations').where({ id }).update({ ...set, updated_at: trx.fn.now() });
    else await trx('annotations').where({ id }).update({ updated_at: trx.fn.now() });
    await recordHistory(trx, id, user.id, changes.length ? 'updated' : 'comment', changes, comment);
    return { changes, comment, removedKeys };
  });
  await removeQuietly(removedKeys);
  const out = await detail(user, id);
  if (changes.length || comment) await announce(user, 'updated', strip(out), changes, comment);
  return out;
}

/** DELETE /annotations/{id}: the snag, its history and its files. */
export async function deleteAnnotation(user: Actor, id: number): Promise<{ id: number; id_project: number }> {
  const { last, keys } = await db().transaction(async (trx) => {
    const { row } = await requireAnnotation(user, id, true, trx, true);
    const last = await annotationDto(id, trx);
    const files: FileRow[] = await trx('annotation_files').where({ id_annotation: id }).select('file_key', 'id');
    await trx('annotation_files').where({ id_annotation: id }).delete();
    await trx('annotations').where({ id: row.id }).delete();
    return { last, keys: files.map((f) => f.file_key) };
  });
  await removeQuietly(keys);
  await announce(user, 'deleted', last, [], null);
  return { id, id_project: last.id_project };
}
