import type { z } from 'zod';
import {
  ANNOTATION_STATUSES,
  isOverdue,
  type Annotation,
  type AnnotationDetail,
  type AnnotationFile,
  type AnnotationHistoryEntry,
  type AnnotationList,
  type AnnotationPerson,
  type AnnotationStatusCounts,
  type annotationListQuerySchema,
} from '@sitewalk/proto';
import { db } from '../db/index.js';
import { localDate } from '../db/models/project.js';
import { iso, type Db } from '../db/query-types.js';
import { notFound } from '../errors.js';
import { signedUrl } from '../storage/index.js';
import {
  annotationHistory,
  annotationPage,
  filesOfAnnotations,
  joinedAnnotations,
  peopleByName,
  type AnnotationFileRow,
  type AnnotationJoinedRow,
} from '../repositories/annotations.repository.js';
import { accessFor, projectPeopleWith } from './access.service.js';
import { SNAG_NOT_FOUND, canManageSnags, requireAnnotation, snagProjectAccess } from './annotations.access.js';
import { ROOM_FILES } from './rooms-dto.js';
import { siteToday } from './site-today.js';
import type { Actor } from './actor.js';

/** The snag list's reads: the list, one snag with its history, the people a snag may be given to, and the DTOs others reuse. */

type ListQuery = z.output<typeof annotationListQuerySchema>;

/** A person by name: first and last name when known, else the username. */
export function person(id: number | null, username: string | null | undefined, first?: string | null, last?: string | null): AnnotationPerson | null {
  if (id == null || !username) return null;
  const name = `${first ?? ''} ${last ?? ''}`.trim();
  return { id, username, name: name || username };
}

export function toFileDto(f: AnnotationFileRow): AnnotationFile {
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

/** `today`: the site's today (siteToday), which decides `overdue`. */
function toDto(r: AnnotationJoinedRow, files: AnnotationFile[], today: string): Annotation {
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
    overdue: isOverdue({ status: r.status, due_date: due }, today),
    files,
    id_author: r.id_author,
    author: person(r.id_author, r.au_username, r.au_first, r.au_last),
    snapshot_url: r.room_status === 'ready' && r.room_folder ? signedUrl(`${r.room_folder}/${ROOM_FILES.thumbnail}`) : null,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

async function filesOf(k: Db, ids: number[]): Promise<Map<number, AnnotationFile[]>> {
  const out = new Map<number, AnnotationFile[]>();
  if (!ids.length) return out;
  for (const f of await filesOfAnnotations(k, ids)) {
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
  const rows = await joinedAnnotations(k, user, ids);
  const files = await filesOf(k, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const today = await siteToday(k);
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is AnnotationJoinedRow => !!r)
    .map((r) => ({
      ...toDto(r, files.get(r.id) ?? [], today),
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

/** GET /annotations: one page of the user's snags, and the counts by status under the same filters. */
export async function listAnnotations(user: Actor, f: ListQuery): Promise<AnnotationList> {
  const k = db();
  const { ids, total, byStatus } = await annotationPage(k, user, f, await siteToday(k));
  const counts = Object.fromEntries(ANNOTATION_STATUSES.map((s) => [s, 0])) as AnnotationStatusCounts;
  for (const c of byStatus) counts[c.status] = c.n;
  return { items: await annotationDtos(user, ids, k), total, page: f.page, per_page: f.per_page, counts };
}

async function historyOf(k: Db, id: number): Promise<AnnotationHistoryEntry[]> {
  return (await annotationHistory(k, id)).map((h) => ({
    id: h.id,
    id_annotation: h.id_annotation,
    action: h.action,
    user: person(h.id_user, h.username, h.first_name, h.last_name),
    changes: h.changes ?? [],
    comment: h.comment,
    created_at: iso(h.created_at),
  }));
}

/** One snag with its history, as `user` sees it (no access check: callers have made it). */
export async function annotationDetail(user: Actor, id: number, k: Db = db()): Promise<AnnotationDetail> {
  const [dto] = await annotationDtos(user, [id], k);
  if (!dto) throw notFound(SNAG_NOT_FOUND);
  return { ...dto, history: await historyOf(k, id) };
}

/** GET /annotations/{id}. */
export async function getAnnotation(user: Actor, id: number): Promise<AnnotationDetail> {
  await requireAnnotation(user, id, false);
  return annotationDetail(user, id);
}

/**
 * GET /annotations/people: who snags may be assigned to — the owner and the
 * members who may handle snags, so an assignee can always move theirs along.
 */
export async function projectPeople(user: Actor, projectId: number, k: Db = db()): Promise<AnnotationPerson[]> {
  await snagProjectAccess(user, projectId, false, 'Project not found.', k);
  const rows = await peopleByName(k, await projectPeopleWith(projectId, 'manage_snags', k));
  return rows.map((u) => person(u.id, u.username, u.first_name, u.last_name)!);
}
