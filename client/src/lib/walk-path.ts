/**
 * The walk of a visit drawn on a sheet: placed rooms joined in walking order
 * (one line per visit on the compare screen), and the small geometry the
 * room dots need. Pure, so it is tested without Leaflet.
 */

export interface WalkRoom {
  id: number;
  x: number | null;
  y: number | null;
  /** 'a' / 'b' on the compare screen; rooms of one tone are one walk. */
  tone?: 'a' | 'b';
}

export interface WalkLine {
  tone: 'a' | 'b' | undefined;
  /** Sheet pixels, in walking order. */
  points: { x: number; y: number }[];
}

/**
 * One line per walk through its placed rooms, in the order given (the visit's
 * room order). Rooms not on the sheet are skipped, so the line joins the
 * rooms before and after them. A walk with fewer than two placed rooms has no line.
 */
export function walkLines(rooms: WalkRoom[]): WalkLine[] {
  const byTone = new Map<WalkRoom['tone'], { x: number; y: number }[]>();
  for (const r of rooms) {
    if (r.x === null || r.y === null || !Number.isFinite(r.x) || !Number.isFinite(r.y)) continue;
    const points = byTone.get(r.tone) ?? [];
    const last = points[points.length - 1];
    // Two rooms at one spot add nothing to the line.
    if (!last || last.x !== r.x || last.y !== r.y) points.push({ x: r.x, y: r.y });
    byTone.set(r.tone, points);
  }
  return [...byTone.entries()].filter(([, points]) => points.length >= 2).map(([tone, points]) => ({ tone, points }));
}

/** A room's heading (radians clockwise from the sheet's up) as CSS degrees, 0–359; null when it has none. */
export function headingDegrees(rad: number | null | undefined): number | null {
  if (rad === null || rad === undefined || !Number.isFinite(rad)) return null;
  return Math.round((((rad * 180) / Math.PI) % 360) + 360) % 360;
}

/** The accessible name of a room dot: its number in the visit (when shown) and its name. */
export const roomDotLabel = (name: string, mark?: string) => (mark ? `${mark} · ${name}` : name);
