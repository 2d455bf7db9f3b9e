import { z } from 'zod';
import { pageQuerySchema, type Page } from './envelope.js';
import { idOf } from './ids.js';
import { queryBoolean } from './ids.js';
import type { SheetDetail } from './sheets.js';

/**
 * Visits (dated 360° tours of a project), their rooms (one 360 photo each),
 * hotspots between rooms, points of interest, and the public viewer (SPEC §7
 * "Maps, rooms and visits" and "Viewer"). Every answer is the envelope
 * {status, message, data}; below is what `data` holds.
 *
 *   GET    /visits                       → Page<VisitSummary>   query VisitListQuery (id_project optional: all visible visits)
 *   GET    /visits/{id}                  → VisitDetail
 *   POST   /visits                       → 201 VisitDetail      body VisitCreateRequest, as JSON or multipart/form-data fields
 *                                                               (multipart carries no file: photos go to POST /rooms)
 *   PUT    /visits/{id}                  → VisitDetail          body VisitUpdateRequest (changed fields only)
 *   DELETE /visits/{id}                  → {id, id_project}     its rooms, hotspots, points of interest and files go too
 *   POST   /visits/star                  → VisitStarResponse    body {id_visit, starred}
 *   PUT    /visits/{id}/room-order       → Room[]               body {ids}: every room of the visit, once, in the new order
 *   POST   /visits/{id}/bind-hotspot     → Hotspot              body {id_room, id_room_target, yaw, pitch}: a link from
 *                                                               id_room to id_room_target shown at yaw/pitch in id_room;
 *                                                               binding the same pair again moves it
 *   POST   /visits/{id}/unbind-hotspot   → {removed: number}    body {id_room, id_room_target?}: without a target every
 *                                                               link leaving id_room goes
 *
 *   POST   /rooms                        → 202 Room (status 'queued')   multipart: "file" (the 360 photo), "id_visit",
 *                                                               optional "name" (default: the file name without extension).
 *                                                               Checked by content: JPEG, PNG or WebP (else 415);
 *                                                               above ROOM_IMAGE.maxBytes or ROOM_IMAGE.maxPixels → 413;
 *                                                               not equirectangular (width = 2 × height within 1 %) or
 *                                                               narrower than ROOM_IMAGE.minWidth → 422 (refused, not stored:
 *                                                               the viewer can only show full 360 × 180 panoramas).
 *   GET    /rooms/{id}                   → Room
 *   PUT    /rooms/{id}                   → Room                 body RoomUpdateRequest: name, and the sheet placement
 *                                                               (id_map null takes the room off its sheet)
 *   DELETE /rooms/{id}                   → {id, id_visit}       its files, points of interest and hotspots (both ways) go
 *   GET    /rooms/{id}/pois              → Poi[]
 *
 *   POST   /pois                         → 201 Poi              body PoiCreateRequest
 *   PUT    /pois/{id}                    → Poi                  body PoiUpdateRequest (changed fields only)
 *   DELETE /pois/{id}                    → {id, id_room}
 *   POST   /pois/{id}/file               → Poi                  multipart "file": JPEG/PNG/WebP image or PDF, checked by
 *                                                               content (415 otherwise, 413 above POI_FILE.maxBytes); replaces
 *   DELETE /pois/{id}/file               → Poi
 *
 *   GET    /maps/{id}/rooms              → SheetRoom[] (sheets.ts) the rooms placed on the sheet (query id_visit to keep one visit's)
 *   PUT    /maps/{id}/room-positions     → SheetRoom[]            body {rooms: [{id, x, y, heading?}]}: places rooms of any visit
 *                                                               of the sheet's project on it (x, y in sheet pixels)
 *
 * Public (no sign-in; the visit code is the key):
 *   GET    /viewer-visit?code=…&poi=…    → ViewerVisit          unknown code, or a deactivated project → 404; poi (an id) opens the visit on that
 *                                                               point of interest (404 when it is not in the visit)
 *   GET    /viewer-room-pois?code=…&id_room=…&edit_room=… → ViewerRoomPois
 *                                                               edit_room=true needs a signed-in user who may edit the
 *                                                               visit (403 otherwise: without sign-in, or for those who may
 *                                                               only read — never 401, so a visitor stays on the viewer)
 *   While the setting maintenance_viewer is on, both answer 503 with a message,
 *   except to the address in maintenance_ip.
 *
 * Who may do what: as for sheets (projects.ts) — anyone who may see the
 * project reads its visits; owner, super admin and 'editor' members change
 * them; a visit, room or point of interest of a project the user cannot see is
 * a 404 (its existence is never revealed), one they may only read is a 403 on change.
 *
 * Angles are radians, as Photo Sphere Viewer uses them: yaw 0..2π (the server
 * normalises any value in −2π..2π into that range), pitch −π/2..π/2.
 *
 * How a room is shown (Photo Sphere Viewer 5, EquirectangularTilesAdapter):
 *   const p = room.panorama;                 // null until status is 'ready'
 *   viewer.setPanorama({
 *     baseUrl: p.base_url,                   // the whole panorama, ≤ 2048 × 1024: shown at once
 *     levels: p.levels,                      // [{width, cols, rows, zoomRange}], smallest first
 *     tileUrl: (col, row, level) => p.tile_url_template
 *       .replace('{level}', String(level)).replace('{col}', String(col)).replace('{row}', String(row)),
 *   });
 *   Every tile is tile_size × tile_size pixels (square, cols = 2 × rows, both powers of two,
 *   cols ≤ 64); level i is levels[i].width × levels[i].width / 2 pixels; tile (col, row) covers
 *   x from col × tile_size, y from row × tile_size. The URLs are signed and valid for hours.
 *   Positions in pixels (PSV `textureX/Y`) refer to the last (largest) level's width.
 *
 * Live progress of a room's tiling arrives over Socket.IO as 'job:progress'
 * (JobProgressEvent of events.ts) in the rooms of the uploader and of the
 * project owner, and in the project's room (`project:join`), with
 *   job: 'room.tiles', subject: {kind: 'room', id: room id}, project_id,
 *   state: queued | active | completed | failed, percent 0..100, message
 *   ('Cutting tiles', 'Ready', or the reason of a failure), detail: RoomTilesProgressDetail.
 * Events carry the absolute state; on 'completed' read GET /rooms/{id} (or the
 * visit) for the panorama URLs. A failed room keeps status 'failed' and `error`;
 * a room whose job was lost (no news for a minute and no job left) is marked
 * failed the next time the visit or the room is read.
 *
 * A new visit notifies the project's owner and members (preference
 * 'visit_created', not the one who made it), and super admins when the
 * setting notify_vt_create is on.
 */

/** Limits of a room's 360 photo. */
export const ROOM_IMAGE = {
  /** Largest file accepted. */
  maxBytes: 150 * 1024 * 1024,
  /** Largest image: 16384 × 8192 (134 MP). */
  maxPixels: 16384 * 8192,
  maxWidth: 16384,
  /** Narrowest panorama accepted (1024 × 512). */
  minWidth: 1024,
  /** How far width / height may be from 2. */
  ratioTolerance: 0.01,
  /** The low-resolution whole panorama (base_url) is at most this wide. */
  baseWidth: 2048,
  /** Thumbnails are this wide (and half as high). */
  thumbnailWidth: 480,
  /** Tiles are square, between these sizes (chosen so the largest level keeps the photo's resolution). */
  minTileSize: 512,
  maxTileSize: 1023,
} as const;

/** Files attached to a point of interest. */
export const POI_FILE = {
  maxBytes: 25 * 1024 * 1024,
  /** The kinds accepted, by content. */
  types: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const,
} as const;

export const ROOM_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export type RoomStatus = (typeof ROOM_STATUSES)[number];

export const VISIT_SORTS = ['date', 'name', 'created_at', 'updated_at'] as const;
export type VisitSort = (typeof VISIT_SORTS)[number];

const TWO_PI = 2 * Math.PI;
/** A yaw in radians; stored normalised to 0..2π. */
export const yawField = z
  .number({ message: 'yaw must be an angle in radians.' })
  .min(-TWO_PI, 'yaw must be between -2π and 2π radians.')
  .max(TWO_PI, 'yaw must be between -2π and 2π radians.');
export const pitchField = z
  .number({ message: 'pitch must be an angle in radians.' })
  .min(-Math.PI / 2, 'pitch must be between -π/2 and π/2 radians.')
  .max(Math.PI / 2, 'pitch must be between -π/2 and π/2 radians.');
/** Where yaw 0 of the panorama points on the sheet, clockwise from the sheet's up, in radians. */
export const headingField = z
  .number({ message: 'heading must be an angle in radians.' })
  .min(-TWO_PI, 'heading must be between -2π and 2π radians.')
  .max(TWO_PI, 'heading must be between -2π and 2π radians.');
/** Brings any angle into 0..2π. */
export const normaliseYaw = (a: number) => {
  const r = a % TWO_PI;
  return r < 0 ? r + TWO_PI : r;
};

const text = (max: number, label: string) => z.string().trim().max(max, `${label} must be at most ${max} characters.`);
const visitName = z.string().trim().min(1, 'Visit name is required').max(200, 'Visit name must be at most 200 characters.');
const roomName = z.string().trim().min(1, 'Room name is required').max(200, 'Room name must be at most 200 characters.');
const isoDate = z.iso.date({ message: 'Use a date like 2026-03-31.' });
/** In a form, an empty id_map means "no sheet". */
const optionalMapId = z.preprocess((v) => (v === '' ? null : v), idOf('id_map').nullable());

export const visitCreateSchema = z
  .object({
    id_project: idOf('id_project'),
    name: visitName,
    /** The day of the tour; today (server date) when left out. */
    date: isoDate.optional(),
    /** The sheet the visit walks (a sheet of the same project). */
    id_map: optionalMapId.optional(),
    description: text(5000, 'Description').optional(),
  })
  .strict();
export type VisitCreateRequest = z.input<typeof visitCreateSchema>;

export const visitUpdateSchema = z
  .object({
    name: visitName,
    date: isoDate,
    id_map: optionalMapId,
    description: text(5000, 'Description'),
  })
  .partial()
  .strict()
  .refine((o) => Object.keys(o).length > 0, { message: 'Nothing to update.' });
export type VisitUpdateRequest = z.input<typeof visitUpdateSchema>;

export const visitListQuerySchema = pageQuerySchema
  .extend({
    id_project: idOf('id_project').optional(),
    /** Visits that walk this sheet (to put two visits of one sheet side by side). */
    id_map: idOf('id_map').optional(),
    /** Matches name, description and code, case-insensitively. */
    search: z.string().trim().max(100, 'The search text is too long.').optional(),
    starred: queryBoolean('starred').optional(),
    sort: z.enum(VISIT_SORTS, { message: `sort must be one of ${VISIT_SORTS.join(', ')}.` }).default('date'),
    order: z.enum(['asc', 'desc'], { message: 'order must be asc or desc.' }).optional(),
  })
  .strict();
export type VisitListQuery = z.input<typeof visitListQuerySchema>;

export const starVisitSchema = z.object({ id_visit: idOf('id_visit'), starred: z.boolean({ message: 'starred must be true or false.' }) }).strict();
export type StarVisitRequest = z.input<typeof starVisitSchema>;
export interface VisitStarResponse {
  id_visit: number;
  starred: boolean;
}

export const roomOrderSchema = z
  .object({
    ids: z
      .array(z.number().int().positive(), { message: 'ids must be a list of room ids.' })
      .min(1, 'Give the rooms in their new order.')
      .max(5000)
      .refine((ids) => new Set(ids).size === ids.length, { message: 'Each room may appear only once.' }),
  })
  .strict();
export type RoomOrderRequest = z.input<typeof roomOrderSchema>;

export const bindHotspotSchema = z
  .object({
    id_room: idOf('id_room'),
    id_room_target: idOf('id_room_target'),
    yaw: yawField,
    pitch: pitchField,
  })
  .strict()
  .refine((o) => o.id_room !== o.id_room_target, { message: 'A room cannot link to itself.', path: ['id_room_target'] });
export type BindHotspotRequest = z.input<typeof bindHotspotSchema>;

export const unbindHotspotSchema = z.object({ id_room: idOf('id_room'), id_room_target: idOf('id_room_target').optional() }).strict();
export type UnbindHotspotRequest = z.input<typeof unbindHotspotSchema>;

/** The form fields of POST /rooms besides the file. */
export const roomUploadFieldsSchema = z
  .object({
    id_visit: idOf('id_visit'),
    name: roomName.optional(),
  })
  .strict();
export type RoomUploadFields = z.input<typeof roomUploadFieldsSchema>;

export const roomUpdateSchema = z
  .object({
    name: roomName,
    /** A sheet of the visit's project; null takes the room off its sheet (and clears x, y, heading). */
    id_map: idOf('id_map').nullable(),
    x: z.number().finite('x must be a number.').nullable(),
    y: z.number().finite('y must be a number.').nullable(),
    heading: headingField.nullable(),
  })
  .partial()
  .strict()
  .refine((o) => Object.keys(o).length > 0, { message: 'Nothing to update.' })
  .refine((o) => (o.x === undefined) === (o.y === undefined), { message: 'Give x and y together.', path: ['y'] });
export type RoomUpdateRequest = z.input<typeof roomUpdateSchema>;

const linkField = z
  .string()
  .trim()
  .max(2000, 'The link must be at most 2000 characters.')
  .refine((s) => s === '' || /^https?:\/\/[^\s]+$/i.test(s), { message: 'The link must start with http:// or https://.' });

const poiFields = {
  title: z.string().trim().min(1, 'Title is required').max(200, 'Title must be at most 200 characters.'),
  text: text(10_000, 'Text'),
  /** '' for none. */
  link: linkField,
  yaw: yawField,
  pitch: pitchField,
};

export const poiCreateSchema = z
  .object({ id_room: idOf('id_room'), ...poiFields })
  .partial({ text: true, link: true })
  .strict();
export type PoiCreateRequest = z.input<typeof poiCreateSchema>;

export const poiUpdateSchema = z
  .object(poiFields)
  .partial()
  .strict()
  .refine((o) => Object.keys(o).length > 0, { message: 'Nothing to update.' });
export type PoiUpdateRequest = z.input<typeof poiUpdateSchema>;

/** The visit code: random, URL-safe. */
const visitCode = z
  .string({ message: 'code is required.' })
  .trim()
  .min(1, 'code is required.')
  .max(64, 'Unknown visit code.');

export const viewerVisitQuerySchema = z
  .object({ code: visitCode, poi: idOf('poi').optional() })
  .strict();
export type ViewerVisitQuery = z.input<typeof viewerVisitQuerySchema>;

export const viewerRoomPoisQuerySchema = z
  .object({
    code: visitCode,
    id_room: idOf('id_room'),
    edit_room: queryBoolean('edit_room').optional(),
  })
  .strict();
export type ViewerRoomPoisQuery = z.input<typeof viewerRoomPoisQuerySchema>;

/** One resolution level, exactly as PSV's EquirectangularTilesAdapter reads it. */
export interface PanoramaLevel {
  /** Width of the whole panorama at this level; height is width / 2. */
  width: number;
  cols: number;
  rows: number;
  /** PSV zoom levels (0..100) this level serves. */
  zoomRange: [number, number];
}

/** How to show a ready room (see the top of this file). */
export interface RoomPanorama {
  /** Width of the largest level (the photo's resolution, to within a few pixels); height is width / 2. */
  width: number;
  /** Signed URL of the whole panorama at ≤ 2048 × 1024, JPEG. */
  base_url: string;
  tile_size: number;
  /** Smallest first. */
  levels: PanoramaLevel[];
  /** Signed URL with {level}, {col} and {row}. */
  tile_url_template: string;
}

/** A link from one room to another, shown inside the first at yaw/pitch. */
export interface Hotspot {
  id: number;
  id_room: number;
  id_room_target: number;
  /** The target's name, for the hotspot's tooltip. */
  target_name: string;
  yaw: number;
  pitch: number;
}

export interface Room {
  id: number;
  id_visit: number;
  name: string;
  /** Order in the visit, 0 first. */
  position: number;
  status: RoomStatus;
  /** Why tiling failed, in words for the user; null otherwise. */
  error: string | null;
  original_name: string;
  size_bytes: number;
  /** The photo's size in pixels. */
  width: number;
  height: number;
  /** The sheet the room is placed on, and where: sheet pixels, origin top-left; null when not placed. */
  id_map: number | null;
  x: number | null;
  y: number | null;
  /** Where yaw 0 points on the sheet, radians clockwise from the sheet's up; null when unknown. */
  heading: number | null;
  /** Signed, 480 × 240 JPEG; null until ready. */
  thumbnail_url: string | null;
  panorama: RoomPanorama | null;
  /** The links leaving this room. */
  hotspots: Hotspot[];
  pois_count: number;
  created_at: string;
  updated_at: string;
}

/** One visit in lists. */
export interface VisitSummary {
  id: number;
  id_project: number;
  project_name: string;
  /** The sheet the visit walks; null when none was chosen. */
  id_map: number | null;
  map_name: string | null;
  name: string;
  description: string;
  /** YYYY-MM-DD */
  date: string;
  /** Public handle: /viewer/{code}. */
  code: string;
  starred: boolean;
  rooms_count: number;
  rooms_ready: number;
  /** The first ready room's thumbnail, signed; null when there is none. */
  thumbnail_url: string | null;
  /** Whether the user may change the visit and its rooms. */
  can_edit: boolean;
  created_at: string;
  updated_at: string;
}

export interface VisitDetail extends VisitSummary {
  /** In visit order. */
  rooms: Room[];
  /** The visit's sheet and every sheet a room of the visit is placed on (tile_url_template for Leaflet). */
  maps: SheetDetail[];
}

export type VisitList = Page<VisitSummary>;

/** A point of interest inside a room. */
export interface Poi {
  id: number;
  id_room: number;
  title: string;
  text: string;
  /** '' when none. */
  link: string;
  yaw: number;
  pitch: number;
  /** The attached image or document; null when none. */
  file: PoiFile | null;
  created_at: string;
  updated_at: string;
}

export interface PoiFile {
  /** The name it was uploaded with. */
  name: string;
  mime: string;
  size_bytes: number;
  /** 'image' for JPEG/PNG/WebP (show it), 'document' for PDF (link it). */
  kind: 'image' | 'document';
  /** Signed, valid for hours. */
  url: string;
}

/** A sheet as the public viewer shows it (Leaflet CRS.Simple, as in sheets.ts). */
export interface ViewerSheet {
  id: number;
  name: string;
  width: number;
  height: number;
  tile_size: number;
  max_zoom: number;
  tile_url_template: string;
  thumbnail_url: string | null;
}

export interface ViewerHotspot {
  id_room_target: number;
  target_name: string;
  yaw: number;
  pitch: number;
}

/** A ready room as the public viewer sees it. */
export interface ViewerRoom {
  id: number;
  name: string;
  position: number;
  id_map: number | null;
  x: number | null;
  y: number | null;
  heading: number | null;
  thumbnail_url: string;
  panorama: RoomPanorama;
  /** Links to other ready rooms only. */
  hotspots: ViewerHotspot[];
  pois_count: number;
}

/** GET /viewer-visit: what anybody holding the code may see — no people, no internal ids beyond rooms, sheets and points of interest. */
export interface ViewerVisit {
  code: string;
  name: string;
  description: string;
  date: string;
  project_name: string;
  /** The room to open: the one of the asked point of interest, else the first ready room; null when none is ready. */
  start_room: number | null;
  /** The asked point of interest, when ?poi was given. */
  poi: Poi | null;
  /** Ready rooms, in visit order (rooms still being processed are left out). */
  rooms: ViewerRoom[];
  /** The visit's sheet and the sheets holding its rooms, when they are ready. */
  maps: ViewerSheet[];
}

/** GET /viewer-room-pois. */
export interface ViewerRoomPois {
  id_room: number;
  /** true only with edit_room=true for a user who may edit the visit. */
  can_edit: boolean;
  pois: Poi[];
}

/** `detail` of a 'job:progress' event of the room.tiles job. */
export interface RoomTilesProgressDetail {
  id_visit: number;
  id_room: number;
  status: RoomStatus;
}
