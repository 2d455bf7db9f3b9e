import crypto from 'node:crypto';

/**
 * One snag as the export generators read it: plain values, already joined
 * (names instead of ids) and already formatted where a person reads them.
 * The generators (csv.ts, bcf.ts, pdf-report.ts) are pure: they take these
 * records and the pictures made for them, and never touch the database.
 */
export interface SnagRecord {
  id: number;
  title: string;
  description: string;
  /** One of ANNOTATION_STATUSES. */
  status: string;
  /** One of ANNOTATION_PRIORITIES. */
  priority: string;
  project_name: string;
  visit_name: string;
  /** YYYY-MM-DD, or null. */
  visit_date: string | null;
  room_name: string | null;
  map_name: string | null;
  /** Radians inside the room, as Photo Sphere Viewer; null when not pinned in a 360 view. */
  yaw: number | null;
  pitch: number | null;
  /** Photo Sphere Viewer zoom 0..100. */
  zoom: number | null;
  /** Sheet pixels of the pin. */
  x: number | null;
  y: number | null;
  /** Where the room stands on the sheet (sheet pixels) and where its yaw 0 points, clockwise from the sheet's up (radians). */
  room_place: { x: number; y: number; heading: number | null } | null;
  assignee: string | null;
  author: string | null;
  /** YYYY-MM-DD, or null. */
  due_date: string | null;
  overdue: boolean;
  /** ISO times. */
  created_at: string;
  updated_at: string;
  /** Names the files were uploaded with. */
  files: string[];
  /** Oldest first. */
  history: SnagHistoryLine[];
  /** Absolute address of the snag in the 360 viewer. */
  link: string;
}

export interface SnagHistoryLine {
  /** ISO time. */
  at: string;
  who: string | null;
  /** What happened, in words ('Status: open → in progress'). */
  text: string;
  /** A remark given with the change, if any. */
  comment: string | null;
}

/** The pictures of one snag, made by adapters/snag-images.ts (JPEG). */
export interface SnagPictures {
  /** The 360 view at the pin, the pin in the middle. */
  snapshot?: Buffer;
  /** The sheet around the pin, with the pin marked. */
  sheet?: Buffer;
}

/**
 * Gives a snag's pictures when the generator reaches it, so a long report
 * holds one snag's pictures in memory at a time, not all of them.
 */
export type PictureSource = (snag: SnagRecord) => Promise<SnagPictures>;

/** A picture source over pictures made beforehand (tests, small lists). */
export const picturesFrom = (byId: ReadonlyMap<number, SnagPictures>): PictureSource => async (s) => byId.get(s.id) ?? {};

export const noPictures: PictureSource = async () => ({});

/** English words for statuses and priorities, as the app shows them. */
export const STATUS_LABEL: Record<string, string> = {
  open: 'Open',
  in_progress: 'In progress',
  ready_for_review: 'Ready for review',
  closed: 'Closed',
  rejected: 'Rejected',
};
export const PRIORITY_LABEL: Record<string, string> = { low: 'Low', medium: 'Medium', high: 'High', critical: 'Critical' };

/**
 * The words of a report in the requester's language: the key is the English
 * text (as in proto/translations), `{name}` placeholders are filled in.
 */
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

export const interpolate = (text: string, vars?: Record<string, string | number>) =>
  vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : text;

/** The English words, as written. */
export const english: Translate = (key, vars) => interpolate(key, vars);

export const statusLabel = (s: string, t: Translate = english) => (STATUS_LABEL[s] ? t(STATUS_LABEL[s]) : s);
export const priorityLabel = (p: string, t: Translate = english) => (PRIORITY_LABEL[p] ? t(PRIORITY_LABEL[p]) : p);

/**
 * A name-based (version 5) UUID. BCF tools match topics by GUID, so the same
 * snag must get the same GUID in every export of the same server: the name
 * is the server's address and the snag id.
 */
export function stableGuid(name: string): string {
  // The RFC 4122 URL namespace (6ba7b811-9dad-11d1-80b4-00c04fd430c8).
  const ns = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');
  const h = crypto.createHash('sha1').update(ns).update(name, 'utf8').digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The BCF GUIDs of a snag: its topic, its one viewpoint, and each history line as a comment. */
export function snagGuids(origin: string, id: number, historyCount: number) {
  const base = `${origin.replace(/\/$/, '')}/annotations/${id}`;
  return {
    topic: stableGuid(base),
    viewpoint: stableGuid(`${base}/viewpoint`),
    comments: Array.from({ length: historyCount }, (_, i) => stableGuid(`${base}/history/${i}`)),
  };
}

/** Field of view (degrees, horizontal) the viewer shows at a zoom level: Photo Sphere Viewer's defaults, 90° at 0 to 30° at 100. */
export const fovForZoom = (zoom: number | null) => 90 - 0.6 * Math.min(100, Math.max(0, zoom ?? 50));

/** A date-time as people read it in a report: 2026-11-26 14:05 UTC. */
export const readableTime = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
};
