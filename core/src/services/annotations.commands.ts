import type { z } from 'zod';
import {
  canChangeStatus,
  normaliseYaw,
  statusChangeMessage,
  type Annotation,
  type AnnotationBulkStatusResult,
  type AnnotationDetail,
  type AnnotationFieldChange,
  type AnnotationStatus,
  type annotationCreateSchema,
  type annotationUpdateSchema,
} from '@sitewalk/proto';
import { db } from '../db/index.js';
import { localDate } from '../db/models/project.js';
import type { Db } from '../db/query-types.js';
import { badRequest, conflict, notFound } from '../errors.js';
import {
  attachFiles,
  deleteAnnotationRow,
  deleteFiles,
  findRoom,
  findSheet,
  findVisit,
  insertAnnotation,
  lockFilesByName,
  lockFilesOf,
  updateAnnotationRow,
  type AnnotationPlace,
  type NewAnnotationRow,
} from '../repositories/annotations.repository.js';
import { projectPeopleWith } from './access.service.js';
import { requireAnnotation, snagProjectAccess } from './annotations.access.js';
import { annotationDetail, annotationDto, annotationDtos } from './annotations.queries.js';
import { announce, recordHistory } from './annotations.history.js';
import { removeQuietly } from './visits.service.js';
import type { Actor } from './actor.js';

/** The snag list's changes: create, change, move several at once, delete — each in one transaction, announced once committed. */

type CreateInput = z.output<typeof annotationCreateSchema>;
type UpdateInput = z.output<typeof annotationUpdateSchema>;

/**
 * Checks the pin's room (of the visit) and sheet (of the project), and puts a
 * snag made in a room placed on a sheet at the room's place when no x/y is given.
 */
async function checkPlace(place: AnnotationPlace, visit: { id: number; id_project: number }, k: Db): Promise<AnnotationPlace> {
  const out = { ...place };
  if (out.id_room != null) {
    const room = await findRoom(k, out.id_room);
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
    const map = await findSheet(k, out.id_map);
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
  const rows = await lockFilesByName(k, filenames);
  for (const name of filenames) {
    const f = rows.find((r) => r.filename === name);
    if (!f || f.id_visit !== visitId || (f.id_annotation != null && f.id_annotation !== annotationId)) {
      throw badRequest(`The file ${name} was not uploaded for this visit. Upload it again.`);
    }
  }
  await attachFiles(k, filenames, annotationId);
}

/** POST /annotations. */
export async function createAnnotation(user: Actor, input: CreateInput): Promise<AnnotationDetail> {
  const id = await db().transaction(async (trx) => {
    const visit = await findVisit(trx, input.id_visit);
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
    const id = await insertAnnotation(trx, {
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
    });
    await claimFiles(trx, visit.id, id, input.files ?? []);
    await recordHistory(trx, id, user.id, 'created', []);
    return id;
  });
  const out = await annotationDetail(user, id);
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
    const set: Partial<NewAnnotationRow> = {};
    const change = <F extends keyof NewAnnotationRow>(field: F, from: unknown, to: NewAnnotationRow[F] | undefined) => {
      if (to === undefined || same(from, to)) return;
      changes.push({ field, from: from ?? null, to: to ?? null });
      set[field] = to;
    };

    if (patch.status !== undefined && !canChangeStatus(row.status, patch.status)) throw conflict(statusChangeMessage(row.status, patch.status));
    const placeAsked = (['id_room', 'yaw', 'pitch', 'zoom', 'id_map', 'x', 'y'] as const).some((f) => patch[f] !== undefined);
    if (placeAsked) {
      const merged: AnnotationPlace = {
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
      const current = await lockFilesOf(trx, id);
      const before = current.map((f) => f.filename);
      const removed = current.filter((f) => !patch.files!.includes(f.filename));
      await claimFiles(trx, row.id_visit, id, patch.files);
      if (removed.length) {
        // A file taken off its snag is deleted: nothing else may show it.
        await deleteFiles(trx, removed.map((f) => f.id));
        removedKeys = removed.map((f) => f.file_key);
      }
      const after = [...before.filter((n) => patch.files!.includes(n)), ...patch.files.filter((n) => !before.includes(n))];
      if (before.length !== after.length || before.some((n, i) => n !== after[i])) changes.push({ field: 'files', from: before, to: patch.files });
    }

    const comment = patch.comment ?? null;
    if (!changes.length && !comment) return { changes, comment, removedKeys };
    await updateAnnotationRow(trx, id, set);
    await recordHistory(trx, id, user.id, changes.length ? 'updated' : 'comment', changes, comment);
    return { changes, comment, removedKeys };
  });
  await removeQuietly(removedKeys);
  const out = await annotationDetail(user, id);
  if (changes.length || comment) await announce(user, 'updated', strip(out), changes, comment);
  return out;
}

/**
 * PUT /annotations/status: several snags moved to one status in one
 * transaction — all of them or none. Every id is checked as a single change
 * would be (404 unseen, 403 read-only, 409 a move the rules refuse), so one
 * bad id leaves every snag as it was. Snags already there are left alone.
 */
export async function updateAnnotationStatuses(user: Actor, ids: number[], status: AnnotationStatus): Promise<AnnotationBulkStatusResult> {
  const moved = await db().transaction(async (trx) => {
    const moved: { id: number; change: AnnotationFieldChange }[] = [];
    // In id order, so two bulk changes over the same snags lock them in the same order (no deadlock).
    for (const id of [...ids].sort((a, b) => a - b)) {
      const { row } = await requireAnnotation(user, id, true, trx, true);
      if (row.status === status) continue;
      if (!canChangeStatus(row.status, status)) throw conflict(`${statusChangeMessage(row.status, status)} (${row.title})`);
      const change: AnnotationFieldChange = { field: 'status', from: row.status, to: status };
      await updateAnnotationRow(trx, id, { status });
      await recordHistory(trx, id, user.id, 'updated', [change]);
      moved.push({ id, change });
    }
    return moved;
  });
  const items = await annotationDtos(user, ids);
  for (const { id, change } of moved) {
    const { can_edit: _c, ...shared } = items.find((a) => a.id === id)!;
    await announce(user, 'updated', shared, [change], null);
  }
  return { items };
}

/** DELETE /annotations/{id}: the snag, its history and its files. */
export async function deleteAnnotation(user: Actor, id: number): Promise<{ id: number; id_project: number }> {
  const { last, keys } = await db().transaction(async (trx) => {
    const { row } = await requireAnnotation(user, id, true, trx, true);
    const last = await annotationDto(id, trx);
    const files = await lockFilesOf(trx, id);
    await deleteFiles(trx, files.map((f) => f.id));
    await deleteAnnotationRow(trx, row.id);
    return { last, keys: files.map((f) => f.file_key) };
  });
  await removeQuietly(keys);
  await announce(user, 'deleted', last, [], null);
  return { id, id_project: last.id_project };
}
