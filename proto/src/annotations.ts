import { z } from 'zod';
import { pageQuerySchema, type Page } from './envelope.js';
import { idOf } from './ids.js';
import { pitchField, yawField } from './visits.js';

/**
 * The snag list: annotations (defects) pinned inside a room's 360 view and on
 * a sheet (SPEC §1, /snaglist of §2, "Annotations (snag list)" of §7). Every
 * answer is the envelope {status, message, data}; below is what `data` holds.
 *
 *   GET    /annotations                   → AnnotationList      query AnnotationListQuery: the user's snags across
 *                                                               every project they belong to (filters, sort, pages),
 *                                                               with the counts by status of the same filters
 *   GET    /annotations/people?id_project → AnnotationPerson[]  who a snag of the project may be assigned to (its owner
 *                                                               and members), by name
 *   GET    /annotations/{id}              → AnnotationDetail    the snag with its history (newest first)
 *   POST   /annotations                   → 201 AnnotationDetail body AnnotationCreateRequest
 *   PUT    /annotations/{id}              → AnnotationDetail    body AnnotationUpdateRequest (changed fields only;
 *                                                               a status must be reachable: canChangeStatus)
 *   PUT    /annotations/status            → AnnotationBulkStatusResult  body AnnotationBulkStatusRequest: several snags
 *                                                               moved to one status in one transaction, all or none (an id
 *                                                               the user may not see → 404, may only read → 403, a move
 *                                                               canChangeStatus refuses → 409; nothing is changed then)
 *   DELETE /annotations/{id}              → {id, id_project}    its files and history go too
 *   POST   /annotations/file              → 201 AnnotationFile  multipart: "file", "id_visit", optional "id_annotation"
 *                                                               (attaches it at once; else name it in `files` of a
 *                                                               create or update). Checked by content: JPEG, PNG, WebP or
 *                                                               PDF, else 422; above ANNOTATION_FILE.maxBytes → 413. Stored
 *                                                               under a server-chosen name (`filename`); the name it was
 *                                                               sent with is only shown (`name`).
 *   DELETE /annotations/file/delete?filename&id_visit → {filename, id_visit}  the file, and its place in any snag
 *
 * Who may do what: the people of the snag's project (owner, members, super
 * admins) see its snags; anybody else gets 404 for them (their existence is
 * never revealed). Owner, admin and 'editor' members create and change them
 * (api: canManageSnags); other members may only read (403 on change).
 * The assignee must be one of the project's people who may handle snags (see GET /annotations/people).
 *
 * Positions: yaw/pitch in radians inside the room (as visits.ts), zoom is
 * Photo Sphere Viewer's 0..100; x/y are sheet pixels (origin top-left) on
 * sheet id_map. When a snag is made in a room placed on a sheet and no x/y is
 * given, it takes the room's place on that sheet.
 *
 * Live: every create, change and delete is pushed as 'annotation:changed'
 * (AnnotationChangedEvent) to the project's Socket.IO room `project:{id}`
 * (join with 'project:join').
 */

export const ANNOTATION_STATUSES = ['open', 'in_progress', 'ready_for_review', 'closed', 'rejected'] as const;
export type AnnotationStatus = (typeof ANNOTATION_STATUSES)[number];

export const ANNOTATION_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type AnnotationPriority = (typeof ANNOTATION_PRIORITIES)[number];

/**
 * Where a snag may go from each status: open → in progress → ready for
 * review → closed; a review may reject it, and a rejected snag goes back to
 * open (or straight back to work). A closed snag can be reopened.
 */
export const ANNOTATION_TRANSITIONS: Readonly<Record<AnnotationStatus, readonly AnnotationStatus[]>> = {
  open: ['in_progress', 'ready_for_review', 'closed'],
  in_progress: ['open', 'ready_for_review'],
  ready_for_review: ['closed', 'rejected', 'in_progress'],
  rejected: ['open', 'in_progress'],
  closed: ['open'],
};

/** Whether a snag may move from one status to another (staying put is always allowed). */
export function canChangeStatus(from: AnnotationStatus, to: AnnotationStatus): boolean {
  return from === to || ANNOTATION_TRANSITIONS[from].includes(to);
}

/** The statuses a snag may be moved to next. */
export const nextStatuses = (from: AnnotationStatus): readonly AnnotationStatus[] => ANNOTATION_TRANSITIONS[from];

/** The message of a refused status change. */
export const statusChangeMessage = (from: AnnotationStatus, to: AnnotationStatus) =>
  `A snag that is ${STATUS_WORDS[from]} cannot be moved to ${STATUS_WORDS[to]}.`;

const STATUS_WORDS: Record<AnnotationStatus, string> = {
  open: 'open',
  in_progress: 'in progress',
  ready_for_review: 'ready for review',
  closed: 'closed',
  rejected: 'rejected',
};

/** A snag still needs work unless it is closed. */
export const isOpenStatus = (s: AnnotationStatus) => s !== 'closed';

/** Whether a snag is past its due date on `today` (YYYY-MM-DD, the server's date). */
export const isOverdue = (a: { status: AnnotationStatus; due_date: string | null }, today: string) =>
  isOpenStatus(a.status) && a.due_date !== null && a.due_date < today;

/** Files attached to snags. */
export const ANNOTATION_FILE = {
  maxBytes: 25 * 1024 * 1024,
  /** The kinds accepted, by content. */
  types: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const,
  /** At most this many files per snag. */
  maxPerAnnotation: 20,
} as const;

/** A server-chosen file name: a random UUID and the extension of the detected type. Nothing else is ever accepted. */
export const ANNOTATION_FILENAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|webp|pdf)$/;

export const ANNOTATION_SORTS = ['created_at', 'updated_at', 'due_date', 'priority', 'status', 'title'] as const;
export type AnnotationSort = (typeof ANNOTATION_SORTS)[number];

/** Due-date filters of the list: past due and not closed; due today; due in the next 7 days (today included); no due date. */
export const ANNOTATION_DUE_FILTERS = ['overdue', 'today', 'week', 'none'] as const;
export type AnnotationDueFilter = (typeof ANNOTATION_DUE_FILTERS)[number];

const isoDate = z.iso.date({ message: 'Use a date like 2026-03-31.' });
const title = z.string().trim().min(1, 'Title is required').max(200, 'Title must be at most 200 characters.');
const description = z.string().trim().max(10_000, 'Description must be at most 10000 characters.');
const zoomField = z.number({ message: 'zoom must be a number from 0 to 100.' }).min(0, 'zoom must be from 0 to 100.').max(100, 'zoom must be from 0 to 100.');
const coord = (f: string) => z.number({ message: `${f} must be a number.` }).finite(`${f} must be a number.`);
const statusField = z.enum(ANNOTATION_STATUSES, { message: `status must be one of ${ANNOTATION_STATUSES.join(', ')}.` });
const priorityField = z.enum(ANNOTATION_PRIORITIES, { message: `priority must be one of ${ANNOTATION_PRIORITIES.join(', ')}.` });
export const annotationFilenameField = z
  .string({ message: 'filename is required.' })
  .trim()
  .regex(ANNOTATION_FILENAME, 'Unknown file name: use the filename the upload answered with.');
const filesField = z
  .array(annotationFilenameField, { message: 'files must be a list of uploaded file names.' })
  .max(ANNOTATION_FILE.maxPerAnnotation, `A snag holds at most ${ANNOTATION_FILE.maxPerAnnotation} files.`)
  .refine((f) => new Set(f).size === f.length, { message: 'Each file may appear only once.' });
/** In a form, an empty value means "none". */
const nullableId = (f: string) => z.preprocess((v) => (v === '' ? null : v), idOf(f).nullable());
const nullableDate = z.preprocess((v) => (v === '' ? null : v), isoDate.nullable());

const placeFields = {
  /** The room of the visit the snag is pinned in; null: not pinned in a 360 view. */
  id_room: nullableId('id_room'),
  yaw: yawField.nullable(),
  pitch: pitchField.nullable(),
  zoom: zoomField.nullable(),
  /** The sheet of the project the snag is pinned on; null: not on a sheet. */
  id_map: nullableId('id_map'),
  x: coord('x').nullable(),
  y: coord('y').nullable(),
};

const workFields = {
  title,
  description,
  priority: priorityField,
  /** One of the project's people; null: nobody. */
  id_assignee: nullableId('id_assignee'),
  /** YYYY-MM-DD; null: none. */
  due_date: nullableDate,
  /** Names from POST /annotations/file for the snag's visit; on update, the whole new list. */
  files: filesField,
};

/** A pin in a room needs its angles; a pin on a sheet needs both coordinates. */
const placeRules = <T extends z.ZodType<Record<string, unknown>>>(s: T) =>
  s
    .refine((o) => !o.id_room || (o.yaw != null && o.pitch != null), { message: 'A snag in a room needs yaw and pitch.', path: ['yaw'] })
    .refine((o) => (o.x == null) === (o.y == null), { message: 'Give x and y together.', path: ['y'] })
    .refine((o) => o.x == null || o.id_map != null, { message: 'x and y need the sheet (id_map) they are on.', path: ['id_map'] });

export const annotationCreateSchema = placeRules(
  z
    .object({
      id_visit: idOf('id_visit'),
      ...placeFields,
      ...workFields,
      /** A new snag is open unless said otherwise. */
      status: statusField,
    })
    .partial({
      id_room: true, yaw: true, pitch: true, zoom: true, id_map: true, x: true, y: true,
      description: true, priority: true, id_assignee: true, due_date: true, files: true, status: true,
    })
    .strict(),
);
export type AnnotationCreateRequest = z.input<typeof annotationCreateSchema>;

export const annotationUpdateSchema = placeRules(
  z
    .object({
      ...placeFields,
      ...workFields,
      status: statusField,
      /** A remark for the history (and for the people of the snag); not a field of the snag. */
      comment: z.string().trim().min(1, 'The comment is empty.').max(5000, 'The comment must be at most 5000 characters.'),
    })
    .partial()
    .strict()
    .refine((o) => Object.keys(o).length > 0, { message: 'Nothing to update.' }),
);
export type AnnotationUpdateRequest = z.input<typeof annotationUpdateSchema>;

/** At most this many snags move in one bulk status change (the largest page of the list). */
export const ANNOTATION_BULK_MAX = 100;

/** PUT /annotations/status: the chosen snags of the list, moved to one status together. */
export const annotationBulkStatusSchema = z
  .object({
    ids: z
      .array(idOf('ids'), { message: 'ids must be a list of snag ids.' })
      .min(1, 'Choose at least one snag.')
      .max(ANNOTATION_BULK_MAX, `Move at most ${ANNOTATION_BULK_MAX} snags at once.`)
      .refine((l) => new Set(l).size === l.length, { message: 'Each snag may appear only once.' }),
    status: statusField,
  })
  .strict();
export type AnnotationBulkStatusRequest = z.input<typeof annotationBulkStatusSchema>;

/** A query value given once or as a comma list: `status=open,in_progress`. */
const listOf = <T extends readonly [string, ...string[]]>(values: T, field: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v),
    z
      .array(z.string(), { message: `${field} must be one or more of ${values.join(', ')}.` })
      .min(1, `${field} is empty.`)
      .refine((l) => l.every((v) => values.includes(v)), { message: `${field} must be one or more of ${values.join(', ')}.` })
      .transform((l) => l as T[number][]),
  );

export const annotationListQuerySchema = pageQuerySchema
  .extend({
    id_project: idOf('id_project').optional(),
    id_visit: idOf('id_visit').optional(),
    id_room: idOf('id_room').optional(),
    /** Snags pinned on this sheet. */
    id_map: idOf('id_map').optional(),
    status: listOf(ANNOTATION_STATUSES, 'status').optional(),
    /** A user id, 'me' (the asking user) or 'none' (nobody assigned). */
    assignee: z
      .union([z.enum(['me', 'none']), idOf('assignee')], { message: "assignee must be a user id, 'me' or 'none'." })
      .optional(),
    priority: listOf(ANNOTATION_PRIORITIES, 'priority').optional(),
    due: z.enum(ANNOTATION_DUE_FILTERS, { message: `due must be one of ${ANNOTATION_DUE_FILTERS.join(', ')}.` }).optional(),
    /** Matches title and description, case-insensitively. */
    search: z.string().trim().max(100, 'The search text is too long.').optional(),
    sort: z.enum(ANNOTATION_SORTS, { message: `sort must be one of ${ANNOTATION_SORTS.join(', ')}.` }).default('updated_at'),
    /** Default: desc for dates and priority, asc for title and status. */
    order: z.enum(['asc', 'desc'], { message: 'order must be asc or desc.' }).optional(),
  })
  .strict();
export type AnnotationListQuery = z.input<typeof annotationListQuerySchema>;

/** The form fields of POST /annotations/file besides the file. */
export const annotationFileFieldsSchema = z
  .object({ id_visit: idOf('id_visit'), id_annotation: idOf('id_annotation').optional() })
  .strict();
export type AnnotationFileFields = z.input<typeof annotationFileFieldsSchema>;

export const annotationFileDeleteQuerySchema = z.object({ filename: annotationFilenameField, id_visit: idOf('id_visit') }).strict();
export type AnnotationFileDeleteQuery = z.input<typeof annotationFileDeleteQuerySchema>;

export const annotationPeopleQuerySchema = z.object({ id_project: idOf('id_project') }).strict();
export type AnnotationPeopleQuery = z.input<typeof annotationPeopleQuerySchema>;

/** A person as a snag names them. */
export interface AnnotationPerson {
  id: number;
  username: string;
  /** First and last name when known, else the username. */
  name: string;
}

export interface AnnotationFile {
  /** The server-chosen name: the handle for `files` and for deleting. */
  filename: string;
  id_visit: number;
  /** The name it was uploaded with (shown only). */
  name: string;
  mime: string;
  size_bytes: number;
  /** 'image' for JPEG/PNG/WebP (show it), 'document' for PDF (link it). */
  kind: 'image' | 'document';
  /** Signed, valid for hours. */
  url: string;
  created_at: string;
}

/** One snag as lists, the viewer, the sheet and live events show it. */
export interface Annotation {
  id: number;
  id_project: number;
  project_name: string;
  id_visit: number;
  visit_name: string;
  /** The visit's viewer code: deep link /viewer/{code}/{id_room}/{id}. */
  visit_code: string;
  id_room: number | null;
  room_name: string | null;
  yaw: number | null;
  pitch: number | null;
  zoom: number | null;
  id_map: number | null;
  map_name: string | null;
  x: number | null;
  y: number | null;
  title: string;
  description: string;
  status: AnnotationStatus;
  priority: AnnotationPriority;
  id_assignee: number | null;
  assignee: AnnotationPerson | null;
  /** YYYY-MM-DD or null. */
  due_date: string | null;
  /** Not closed and past its due date (server's today). */
  overdue: boolean;
  files: AnnotationFile[];
  id_author: number | null;
  author: AnnotationPerson | null;
  /** The room's thumbnail (signed) as a quick look at the place; null when not pinned in a ready room. */
  snapshot_url: string | null;
  created_at: string;
  updated_at: string;
}

/** One field's change in a history entry. */
export interface AnnotationFieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export const ANNOTATION_HISTORY_ACTIONS = ['created', 'updated', 'comment', 'file_added', 'file_removed'] as const;
export type AnnotationHistoryAction = (typeof ANNOTATION_HISTORY_ACTIONS)[number];

/** Who changed what, when. */
export interface AnnotationHistoryEntry {
  id: number;
  id_annotation: number;
  action: AnnotationHistoryAction;
  /** null when that person's account is gone. */
  user: AnnotationPerson | null;
  changes: AnnotationFieldChange[];
  comment: string | null;
  created_at: string;
}

export interface AnnotationDetail extends Annotation {
  /** Whether the asking user may change or delete it. */
  can_edit: boolean;
  /** Newest first. */
  history: AnnotationHistoryEntry[];
}

export type AnnotationStatusCounts = Record<AnnotationStatus, number>;

export interface AnnotationList extends Page<Annotation & { can_edit: boolean }> {
  /** Per status, under every filter but the status filter (the chips above the table). */
  counts: AnnotationStatusCounts;
}

/** The answer of PUT /annotations/status: the snags as they are now, in the order asked. */
export interface AnnotationBulkStatusResult {
  items: (Annotation & { can_edit: boolean })[];
}

/**
 * What happened to a snag: the one event the API raises on every create,
 * change, comment, file change and delete. Pushed as it is over Socket.IO
 * ('annotation:changed' to `project:{id_project}`), and read by the
 * notification triggers (assignment, status change, comment).
 */
export interface AnnotationChangedEvent {
  action: 'created' | 'updated' | 'deleted';
  id_project: number;
  /** The snag as it is now (for 'deleted': as it was). */
  annotation: Annotation;
  /** Who did it. */
  actor: AnnotationPerson;
  /** The fields that changed ('created': empty; 'files' for files added or removed). */
  changes: AnnotationFieldChange[];
  /** The comment given with the change, if any. */
  comment: string | null;
  /** ISO time of the change. */
  at: string;
}

/** The Socket.IO event name of AnnotationChangedEvent. */
export const ANNOTATION_CHANGED_EVENT = 'annotation:changed' as const;
