/**
 * The pure logic of "compare two dates": which room of the other visit
 * stands nearest the same place on the sheet, which visit of a sheet is
 * nearest a chosen date, and how a view turns into the matching view of the
 * other room. Positions are sheet pixels (origin top-left, contract of
 * proto sheets.ts); angles are radians. Framework-free, unit-tested.
 */

export interface PlacedRoom {
  id: number;
  x: number | null;
  y: number | null;
  /** Where yaw 0 of the panorama points on the sheet, radians clockwise from the sheet's up; 0 when unknown. */
  heading?: number | null;
}

export interface DatedVisit {
  id: number;
  /** ISO date or date-time of the visit. */
  date: string;
}

export interface ViewAngles {
  yaw: number;
  pitch: number;
  /** 0..100, Photo Sphere Viewer's zoom level. */
  zoom: number;
}

const placed = <R extends PlacedRoom>(r: R): r is R & { x: number; y: number } =>
  typeof r.x === 'number' && typeof r.y === 'number' && Number.isFinite(r.x) && Number.isFinite(r.y);

/** The placed room nearest to (x, y), ties to the lower id; null when none is placed. */
export function nearestRoom<R extends PlacedRoom>(rooms: readonly R[], x: number, y: number): (R & { distance: number }) | null {
  let best: (R & { distance: number }) | null = null;
  for (const r of rooms) {
    if (!placed(r)) continue;
    const distance = Math.hypot(r.x - x, r.y - y);
    if (!best || distance < best.distance || (distance === best.distance && r.id < best.id)) best = { ...r, distance };
  }
  return best;
}

/** The room of `others` at the same place on the sheet as `room` (null when either is not placed). */
export function counterpart<R extends PlacedRoom>(room: PlacedRoom | null | undefined, others: readonly R[]): (R & { distance: number }) | null {
  if (!room || !placed(room)) return null;
  return nearestRoom(others, room.x, room.y);
}

const dayOf = (iso: string) => {
  const t = Date.parse(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  return Number.isNaN(t) ? null : t;
};

/** The visit whose date is nearest `date` (ties to the earlier visit); null when there is none. */
export function visitNearestDate<V extends DatedVisit>(visits: readonly V[], date: string): V | null {
  const target = dayOf(date);
  if (target === null) return null;
  let best: V | null = null;
  let bestGap = Infinity;
  let bestAt = Infinity;
  for (const v of visits) {
    const at = dayOf(v.date);
    if (at === null) continue;
    const gap = Math.abs(at - target);
    if (gap < bestGap || (gap === bestGap && at < bestAt)) {
      best = v;
      bestGap = gap;
      bestAt = at;
    }
  }
  return best;
}

/** Visits sorted oldest first; the default pair of a comparison is the two newest (older left). */
export function defaultPair<V extends DatedVisit>(visits: readonly V[]): [V, V] | null {
  const sorted = [...visits].filter((v) => dayOf(v.date) !== null).sort((a, b) => dayOf(a.date)! - dayOf(b.date)! || a.id - b.id);
  if (sorted.length < 2) return null;
  return [sorted[sorted.length - 2], sorted[sorted.length - 1]];
}

const TAU = Math.PI * 2;
/** An angle brought into [0, 2π). */
export const normalizeYaw = (yaw: number) => ((yaw % TAU) + TAU) % TAU;

/**
 * The view of room `to` that looks the same way on the sheet as `view` of
 * room `from`: the direction on the sheet (heading + yaw) is kept, so the
 * yaw turns by the difference of the rooms' headings; pitch and zoom are kept.
 */
export function matchingView(view: ViewAngles, from: PlacedRoom, to: PlacedRoom): ViewAngles {
  const yaw = normalizeYaw(view.yaw + (from.heading ?? 0) - (to.heading ?? 0));
  return { yaw, pitch: view.pitch, zoom: view.zoom };
}

/** Whether two views differ by more than a hair (stops two synced viewers from echoing each other for ever). */
export function viewsDiffer(a: ViewAngles, b: ViewAngles, epsilon = 1e-3): boolean {
  const dy = Math.abs(normalizeYaw(a.yaw) - normalizeYaw(b.yaw));
  return Math.min(dy, TAU - dy) > epsilon || Math.abs(a.pitch - b.pitch) > epsilon || Math.abs(a.zoom - b.zoom) > 0.05;
}
