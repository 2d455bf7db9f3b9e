import type { z } from 'zod';
import {
  normaliseYaw,
  type bindHotspotSchema,
  type Hotspot,
  type SheetDetail,
  type Room as RoomDto,
  type VisitDetail,
  type VisitList,
  type VisitSummary,
  type visitCreateSchema,
  type visitListQuerySchema,
  type visitUpdateSchema,
  notice,
} from '@sitewalk/proto';
import { type Poi, type Room, type Sheet, type Visit, db } from '../db/index.js';
import { touchProject } from '../repositories/projects.repository.js';
import {
  deleteHotspots,
  failUnfinishedRoom,
  lockRoomIdsOfVisit,
  patchRoom,
  poiById,
  quietUnfinishedRooms,
  roomById,
  roomsOfVisitAmong,
  upsertHotspot,
} from '../repositories/rooms.repository.js';
import { sheetById, sheetsOfProjectAmong } from '../repositories/sheets.repository.js';
import { teamUserIds } from '../repositories/team.repository.js';
import { userColumns } from '../repositories/users.repository.js';
import {
  deleteVisitRow,
  insertVisit,
  patchVisit,
  setVisitStar,
  touchVisit,
  visitById,
  visitCodeTaken,
  visitPage,
  visitRowById,
  type VisitRow,
} from '../repositories/visits.repository.js';
import { localDate } from '../db/models/project.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { logger } from '../logger.js';
import { queue } from '../queue/index.js';
import { remove, signedUrl } from '../storage/index.js';
import { accessFor, canEditSheets, requireProject, type ProjectAccess, type ProjectNeed } from './access.service.js';
import { randomCode } from './project-code.service.js';
import { notify, notifySuperAdmins, type NotifyInput } from './notifications.service.js';
import { getSettings } from './settings.service.js';
import { ROOM_FILES, hotspotsOf, roomDtos, visitFolder, visitRooms } from './rooms-dto.js';
import { toSheetDetail } from './sheets.service.js';
import type { Actor } from './actor.js';
import { iso, type Db } from '../db/query-types.js';

type ListQuery = z.output<typeof visitListQuerySchema>;
type VisitCreate = z.output<typeof visitCreateSchema>;
type VisitUpdate = z.output<typeof visitUpdateSchema>;
type BindHotspot = z.output<typeof bindHotspotSchema>;

const READ_ONLY = 'You can view this visit but not change it.';

/**
 * The project's access for `need`, with "not found" named after the thing
 * asked for: a visit, room or point of interest of a project the user cannot
 * see does not exist for them.
 */
async function projectFor(user: Actor, projectId: number, need: ProjectNeed, what: string, k: Db): Promise<ProjectAccess> {
  try {
    return await requireProject(user, projectId, need, k);
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 404) throw notFound(`${what} not found.`);
    if (status === 403) throw forbidden(READ_ONLY);
    throw err;
  }
}

/** A visit and the access to its project (404 when the user may not see it, 403 when they may only read it). */
export async function requireVisit(user: Actor, visitId: number, need: ProjectNeed, k: Db = db()): Promise<{ visit: Visit; access: ProjectAccess }> {
  const visit = await visitById(k, visitId);
  if (!visit) throw notFound('Visit not found.');
  return { visit, access: await projectFor(user, visit.id_project, need, 'Visit', k) };
}

/** A room of a visit, its visit and the access to its project. */
export async function requireRoom(user: Actor, roomId: number, need: ProjectNeed, k: Db = db()): Promise<{ room: Room; visit: Visit; access: ProjectAccess }> {
  const room = await roomById(k, roomId);
  const visit = room?.id_visit ? await visitById(k, room.id_visit) : undefined;
  if (!room || !visit) throw notFound('Room not found.');
  return { room, visit, access: await projectFor(user, visit.id_project, need, 'Room', k) };
}

/** A point of interest, its room and visit, and the access to its project. */
export async function requirePoi(user: Actor, poiId: number, need: ProjectNeed, k: Db = db()): Promise<{ poi: Poi; room: Room; visit: Visit }> {
  const poi = await poiById(k, poiId);
  if (!poi) throw notFound('Point of interest not found.');
  try {
    const { room, visit } = await requireRoom(user, poi.id_room, need, k);
    return { poi, room, visit };
  } catch (err) {
    if ((err as { status?: number }).status === 404) throw notFound('Point of interest not found.');
    throw err;
  }
}

/** A sheet of the project, or a 400 naming the problem. */
async function sheetOfProject(mapId: number, projectId: number, k: Db): Promise<Sheet> {
  const map = await sheetById(k, mapId);
  if (!map || map.id_project !== projectId) throw badRequest('This sheet is not in the visit\'s project.');
  return map;
}

function toSummary(r: VisitRow, user: Actor): VisitSummary {
  const access = accessFor(user, r.id_owner, r.member_role == null ? null : { role: r.member_role, permissions: r.member_permissions });
  return {
    id: r.id,
    id_project: r.id_project,
    project_name: r.project_name,
    id_map: r.id_map,
    map_name: r.map_name ?? null,
    name: r.name,
    description: r.description,
    date: localDate(r.date)!,
    code: r.code,
    starred: !!r.starred,
    rooms_count: Number(r.rooms_count),
    rooms_ready: Number(r.rooms_ready),
    thumbnail_url: r.thumb_folder ? signedUrl(`${r.thumb_folder}/${ROOM_FILES.thumbnail}`) : null,
    can_edit: access ? canEditSheets(access) : false,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** GET /visits: one page of the visits the user may see (of one project, or of all theirs). */
export async function listVisits(user: Actor, q: ListQuery): Promise<VisitList> {
  const k = db();
  if (q.id_project) await projectFor(user, q.id_project, 'read', 'Project', k);
  const { rows, total } = await visitPage(k, user, q);
  return { items: rows.map((r) => toSummary(r, user)), total, page: q.page, per_page: q.per_page };
}

/** The visit as GET /visits/{id} shows it (access already checked). */
export async function visitDetail(user: Actor, visitId: number, k: Db = db()): Promise<VisitDetail> {
  const row = await visitRowById(k, user, visitId);
  if (!row) throw notFound('Visit not found.');
  const rooms = await visitRooms(visitId, k);
  const mapIds = new Set<number>();
  if (row.id_map) mapIds.add(row.id_map);
  for (const r of rooms) if (r.id_map) mapIds.add(r.id_map);
  const maps = mapIds.size ? await sheetsOfProjectAmong(k, row.id_project, [...mapIds]) : [];
  // The visit's own sheet first, then the others.
  maps.sort((a, b) => Number(b.id === row.id_map) - Number(a.id === row.id_map));
  return { ...toSummary(row, user), rooms: await roomDtos(rooms, k), maps: maps.map((m): SheetDetail => toSheetDetail(m)) };
}

export async function getVisit(user: Actor, visitId: number): Promise<VisitDetail> {
  await requireVisit(user, visitId, 'read');
  await settleLostRooms({ id_visit: visitId });
  return visitDetail(user, visitId);
}

/** The BullMQ job id of a room's tiling: enqueueing it twice keeps one job. */
export const roomJobId = (roomId: number) => `room-tiles-${roomId}`;
/** How long a room may go without news before its job is looked up (covers the gap between the row and the enqueue). */
const QUIET_MS = 60_000;
export const LOST_ROOM_MESSAGE = 'Preparing this photo stopped unexpectedly. Delete the room and upload the photo again.';

/**
 * A room still queued or processing whose job is gone or failed (its worker
 * was killed more often than BullMQ retries, or Redis lost the queue) would
 * show a progress bar for ever: it is marked failed, as the worker does when
 * it gives up. Best effort: with Redis away the rooms show as last recorded.
 */
export async function settleLostRooms(where: { id_visit?: number; id?: number }): Promise<void> {
  try {
    const stale = await quietUnfinishedRooms(db(), where, new Date(Date.now() - QUIET_MS));
    for (const room of stale) {
      const job = await queue('rooms').getJob(roomJobId(room.id));
      const state = job ? await job.getState() : 'missing';
      if (state !== 'failed' && state !== 'missing' && state !== 'unknown') continue;
      await failUnfinishedRoom(db(), room.id, LOST_ROOM_MESSAGE);
      logger.warn({ room_id: room.id, job_state: state }, 'room settled as failed: its job ended without the worker recording it');
    }
  } catch (err) {
    logger.warn({ err, ...where }, 'could not check room jobs');
  }
}

/** A fresh visit code: random, URL-safe, not used by another visit. */
async function newVisitCode(k: Db): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const code = randomCode(12);
    if (!(await visitCodeTaken(k, code))) return code;
  }
  throw new Error('could not find a free visit code');
}

const today = () => localDate(new Date())!;

/** POST /visits: a new, empty visit of the project. */
export async function createVisit(user: Actor, input: VisitCreate): Promise<VisitDetail> {
  const detail = await db().transaction(async (trx) => {
    await projectFor(user, input.id_project, 'edit-sheets', 'Project', trx);
    if (input.id_map != null) await sheetOfProject(input.id_map, input.id_project, trx);
    const visit = await insertVisit(trx, {
      id_project: input.id_project,
      id_map: input.id_map ?? null,
      id_user: user.id,
      name: input.name,
      description: input.description ?? '',
      date: input.date ?? today(),
      code: await newVisitCode(trx),
    });
    await touchProject(trx, input.id_project);
    return visitDetail(user, visit.id, trx);
  });
  await tellAboutNewVisit(user, detail);
  return detail;
}

/**
 * A new visit is news for the project's team (their "New visits" preference)
 * and, when notify_vt_create is on, for super admins. Best effort: the visit
 * exists either way.
 */
async function tellAboutNewVisit(user: Actor, visit: VisitDetail): Promise<void> {
  try {
    const k = db();
    const everyone = await teamUserIds(k, visit.id_project);
    const who = (await userColumns(k, user.id, 'username'))?.username ?? 'Someone';
    const input: NotifyInput = {
      kind: 'visit_created',
      ...notice('visitCreated', { by: who, visit: visit.name, date: { day: visit.date }, project: visit.project_name }),
      link: `/visits/${visit.id}`,
    };
    const team = new Set(everyone.filter((id) => id !== user.id));
    for (const id of team) await notify(id, input, { key: `visit-created-${visit.id}-u${id}` });
    if ((await getSettings()).notify_vt_create) await notifySuperAdmins(input, { key: `visit-created-admin-${visit.id}` });
  } catch (err) {
    logger.error({ err, visit_id: visit.id }, 'could not tell about a new visit');
  }
}

/** PUT /visits/{id}: the changed fields. */
export async function updateVisit(user: Actor, visitId: number, patch: VisitUpdate): Promise<VisitDetail> {
  return db().transaction(async (trx) => {
    const { visit } = await requireVisit(user, visitId, 'edit-sheets', trx);
    if (patch.id_map != null) await sheetOfProject(patch.id_map, visit.id_project, trx);
    await patchVisit(trx, visitId, patch as Partial<Visit>);
    return visitDetail(user, visitId, trx);
  });
}

/** DELETE /visits/{id}: the visit, its rooms, hotspots and points of interest; then its files leave storage. */
export async function deleteVisit(user: Actor, visitId: number): Promise<{ id: number; id_project: number }> {
  const { projectId } = await db().transaction(async (trx) => {
    const { visit } = await requireVisit(user, visitId, 'edit-sheets', trx);
    await deleteVisitRow(trx, visit.id);
    await touchProject(trx, visit.id_project);
    return { projectId: visit.id_project };
  });
  await remove(visitFolder(projectId, visitId));
  return { id: visitId, id_project: projectId };
}

/** POST /visits/star: stars are per user; starring twice is starring once. */
export async function starVisit(user: Actor, visitId: number, starred: boolean): Promise<{ id_visit: number; starred: boolean }> {
  await requireVisit(user, visitId, 'read');
  await setVisitStar(db(), user.id, visitId, starred);
  return { id_visit: visitId, starred };
}

/** PUT /visits/{id}/room-order: every room of the visit, once, in the new order. */
export async function setRoomOrder(user: Actor, visitId: number, ids: number[]): Promise<RoomDto[]> {
  return db().transaction(async (trx) => {
    await requireVisit(user, visitId, 'edit-sheets', trx);
    const have = new Set(await lockRoomIdsOfVisit(trx, visitId));
    const foreign = ids.filter((id) => !have.has(id));
    if (foreign.length) throw badRequest(`Room ${foreign[0]} is not in this visit.`);
    if (ids.length !== have.size) throw badRequest(`Give every room of the visit once: it has ${have.size} ${have.size === 1 ? 'room' : 'rooms'}, the order names ${ids.length}.`);
    for (const [i, id] of ids.entries()) await patchRoom(trx, id, { position: i });
    await touchVisit(trx, visitId);
    return roomDtos(await visitRooms(visitId, trx), trx);
  });
}

/** Rooms of the visit among `ids`, or a 400 naming the first that is not. */
async function roomsOfVisit(visitId: number, ids: number[], k: Db): Promise<Room[]> {
  const rooms = await roomsOfVisitAmong(k, visitId, ids);
  const missing = ids.find((id) => !rooms.some((r) => r.id === id));
  if (missing) throw badRequest(`Room ${missing} is not in this visit.`);
  return rooms;
}

/** POST /visits/{id}/bind-hotspot: links id_room to id_room_target at yaw/pitch; binding the pair again moves the link. */
export async function bindHotspot(user: Actor, visitId: number, input: BindHotspot): Promise<Hotspot> {
  return db().transaction(async (trx) => {
    await requireVisit(user, visitId, 'edit-sheets', trx);
    await roomsOfVisit(visitId, [input.id_room, input.id_room_target], trx);
    const spot = { yaw: normaliseYaw(input.yaw), pitch: input.pitch };
    await upsertHotspot(trx, { id_room: input.id_room, id_room_target: input.id_room_target, ...spot });
    const all = await hotspotsOf([input.id_room], trx);
    return all.get(input.id_room)!.find((h) => h.id_room_target === input.id_room_target)!;
  });
}

/** POST /visits/{id}/unbind-hotspot: the link to one target, or every link leaving the room. */
export async function unbindHotspot(user: Actor, visitId: number, input: { id_room: number; id_room_target?: number }): Promise<{ removed: number }> {
  return db().transaction(async (trx) => {
    await requireVisit(user, visitId, 'edit-sheets', trx);
    await roomsOfVisit(visitId, [input.id_room], trx);
    return { removed: await deleteHotspots(trx, input.id_room, input.id_room_target) };
  });
}

/** Logs and swallows: a file left behind is tidied later, the user's action succeeded. */
export async function removeQuietly(keys: (string | null | undefined)[]): Promise<void> {
  for (const key of keys) await remove(key).catch((err) => logger.warn({ err, key }, 'could not remove a stored file'));
}
