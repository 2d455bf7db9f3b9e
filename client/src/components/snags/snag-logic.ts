import {
  ANNOTATION_STATUSES,
  nextStatuses,
  type Annotation,
  type AnnotationChangedEvent,
  type AnnotationPriority,
  type AnnotationStatus,
  type AnnotationStatusCounts,
} from '@sitewalk/proto';
import { tk } from '../../lib/i18n-keys';

/**
 * The snag list's pure rules on the client: labels, colours, deep links, and
 * how a live 'annotation:changed' event changes what a screen shows. Kept
 * free of React so it is unit-tested on its own.
 */

export const STATUS_LABELS: Record<AnnotationStatus, string> = {
  open: tk('Open'),
  in_progress: tk('In progress'),
  ready_for_review: tk('Ready for review'),
  closed: tk('Closed'),
  rejected: tk('Rejected'),
};

/**
 * A status in words. Asked with the context 'snag' so a language can tell the
 * state "Open" from the verb "Open" (Arabic does: key 'Open_snag').
 */
export const statusLabel = (t: (key: string, opts?: { context?: string }) => string, s: AnnotationStatus) => t(STATUS_LABELS[s], { context: 'snag' });

export const PRIORITY_LABELS: Record<AnnotationPriority, string> = {
  low: tk('Low'),
  medium: tk('Medium'),
  high: tk('High'),
  critical: tk('Critical'),
};

/** One colour per status, the same on pins, badges and chips (CSS classes sw-snag-{status}). */
export const STATUS_COLOURS: Record<AnnotationStatus, string> = {
  open: '#dc3545',
  in_progress: '#fd7e14',
  ready_for_review: '#0d6efd',
  closed: '#198754',
  rejected: '#6f42c1',
};

/** The statuses the status picker offers: the current one first, then where it may go. */
export const statusChoices = (current: AnnotationStatus): AnnotationStatus[] => [current, ...nextStatuses(current)];

/** The statuses every one of the chosen snags may move to (for the bulk change). */
export function commonNextStatuses(current: AnnotationStatus[]): AnnotationStatus[] {
  if (!current.length) return [];
  return ANNOTATION_STATUSES.filter((s) => current.every((c) => c !== s && nextStatuses(c).includes(s)));
}

/** The viewer address that opens the snag: its room, turned towards it, with its panel open. */
export function snagViewerPath(a: Pick<Annotation, 'id' | 'visit_code' | 'id_room'>): string {
  const base = `/viewer/${encodeURIComponent(a.visit_code)}`;
  return `${a.id_room ? `${base}/${a.id_room}` : base}?snag=${a.id}`;
}

/** The snag asked for by the viewer address (?snag=12), or null. */
export function snagFromSearch(search: string): number | null {
  const v = new URLSearchParams(search).get('snag');
  return v && /^[1-9]\d{0,9}$/.test(v) ? Number(v) : null;
}

/** A marker id in the 360 view for a snag, and back. */
export const snagMarkerId = (id: number) => `snag-${id}`;
export const snagIdOfMarker = (markerId: string): number | null => (/^snag-(\d+)$/.test(markerId) ? Number(markerId.slice(5)) : null);

/**
 * A list after a live event: a changed snag replaces its row in place
 * (keeping what only this user knows, such as can_edit), a deleted one goes,
 * a new one is added when `accept` says it belongs (the viewer's room); the
 * paged list refetches instead (see `needsRefetch`).
 */
export function applySnagEvent<T extends Annotation>(list: T[], e: AnnotationChangedEvent, accept?: (a: Annotation) => boolean): T[] {
  const i = list.findIndex((a) => a.id === e.annotation.id);
  if (e.action === 'deleted') return i === -1 ? list : list.filter((a) => a.id !== e.annotation.id);
  const keep = accept ? accept(e.annotation) : true;
  if (i === -1) return keep && (e.action === 'created' || accept) ? [...list, { ...e.annotation } as T] : list;
  if (!keep) return list.filter((a) => a.id !== e.annotation.id);
  const next = list.slice();
  next[i] = { ...list[i], ...e.annotation };
  return next;
}

/** The counts by status after a live event on a snag that was `before` (undefined: not in view before). */
export function recount(counts: AnnotationStatusCounts, before: AnnotationStatus | undefined, e: AnnotationChangedEvent): AnnotationStatusCounts {
  const out = { ...counts };
  if (before !== undefined) out[before] = Math.max(0, out[before] - 1);
  if (e.action !== 'deleted') out[e.annotation.status] += 1;
  return out;
}

/**
 * A page of the snag list after a change of one of its rows: the row changes
 * in place (it stays even when it left the status filter, so it does not
 * vanish under the user's hand) and the counts by status follow. A snag not on
 * the page changes nothing; new and deleted ones need a read (`needsRefetch`).
 */
export function applyEventToPage<L extends { items: Annotation[]; counts: AnnotationStatusCounts }>(list: L, e: AnnotationChangedEvent): L {
  const before = list.items.find((a) => a.id === e.annotation.id);
  if (!before) return list;
  return { ...list, items: applySnagEvent(list.items, e), counts: recount(list.counts, before.status, e) };
}

/** A page of the list shows a new or deleted snag only after it is read again. */
export const needsRefetch = (e: AnnotationChangedEvent) => e.action !== 'updated';

/**
 * Where a snag's snapshot (the room's equirectangular thumbnail, shown
 * `zoom` times its box's width) must be placed so the pin is in the middle
 * of the box: CSS background-size and background-position, and the pin's
 * place in the box (percent). Yaw 0 is the panorama's left edge growing to
 * the right, pitch +π/2 its top. Near the left or right edge the picture
 * stops at its border, so the pin moves off-centre instead of showing a gap.
 */
export function snapshotView(yaw: number, pitch: number, zoom = 3): { size: string; position: string; pin: { left: number; top: number } } {
  const u = (((yaw / (2 * Math.PI)) % 1) + 1) % 1;
  const v = Math.min(1, Math.max(0, 0.5 - pitch / Math.PI));
  // The box shows 1/zoom of the width and (box is 2:1 like the panorama) 1/zoom of the height.
  const span = 1 / zoom;
  const left = Math.min(1 - span, Math.max(0, u - span / 2));
  const top = Math.min(1 - span, Math.max(0, v - span / 2));
  const pct = (start: number) => (span >= 1 ? 0 : (start / (1 - span)) * 100);
  return {
    size: `${zoom * 100}% ${zoom * 100}%`,
    position: `${pct(left).toFixed(2)}% ${pct(top).toFixed(2)}%`,
    pin: { left: ((u - left) / span) * 100, top: ((v - top) / span) * 100 },
  };
}
