import type { JobProgressEvent, Room, RoomStatus, RoomTilesProgressDetail } from '@sitewalk/proto';

/**
 * Where the rooms of a visit stand while their 360 photos are cut into tiles
 * (job 'room.tiles', contract in proto visits.ts): merged from the visit's
 * answer and the live 'job:progress' events. Events carry the absolute
 * state, so one that arrives twice changes nothing, and a late event never
 * takes a finished room back. Pure, unit-tested.
 */

export const ROOM_TILES_JOB = 'room.tiles';

export interface TilingState {
  status: RoomStatus;
  /** 0..100 */
  percent: number;
  message: string;
}

export type TilingById = Readonly<Record<number, TilingState>>;

const STATUS_OF_STATE: Record<JobProgressEvent['state'], RoomStatus> = { queued: 'queued', active: 'processing', completed: 'ready', failed: 'failed' };
const FINISHED: ReadonlySet<RoomStatus> = new Set(['ready', 'failed']);

/** Whether an event reports the tiling of a room of this visit. */
export function isRoomEventFor(e: JobProgressEvent, visitId: number): boolean {
  const d = (e.detail ?? {}) as Partial<RoomTilesProgressDetail>;
  return e.job === ROOM_TILES_JOB && e.subject?.kind === 'room' && d.id_visit === visitId;
}

/** The state of each room from the visit's answer. */
export function tilingFrom(rooms: readonly Pick<Room, 'id' | 'status' | 'error'>[]): TilingById {
  return Object.fromEntries(rooms.map((r) => [r.id, { status: r.status, percent: r.status === 'ready' ? 100 : 0, message: r.error ?? '' }]));
}

/** The states after one event (the same object when it changes nothing). */
export function applyRoomEvent(states: TilingById, e: JobProgressEvent): TilingById {
  const id = e.subject.id;
  const before = states[id];
  const status = STATUS_OF_STATE[e.state];
  if (before && FINISHED.has(before.status) && !FINISHED.has(status)) return states;
  const percent = status === 'ready' ? 100 : Math.max(0, Math.min(100, Math.round(e.percent)));
  if (before && before.status === status && before.percent === percent && before.message === e.message) return states;
  return { ...states, [id]: { status, percent, message: e.message } };
}

/** Moves the item at `from` to `to` (indices), for reordering rooms. */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}
