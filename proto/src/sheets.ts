import { z } from 'zod';
import { idField, queryInt } from './ids.js';

/**
 * Sheets ("maps" in the API paths of SPEC §7) and the PDF plan uploads that
 * make them. `data` of each answer:
 *
 *   POST   /maps                   → 201 SheetDetail   body SheetCreateRequest: an empty sheet (status 'empty')
 *   GET    /maps/{id}              → SheetDetail
 *   PUT    /maps/{id}              → SheetDetail       body SheetUpdateRequest (changed fields only)
 *   DELETE /maps/{id}              → {id, id_project}
 *   GET    /maps/{id}/rooms        → SheetRoom[]       query SheetRoomsQuery
 *   PUT    /maps/{id}/room-positions → SheetRoom[]     body {rooms: [{id, x, y, heading?}]}: the rooms as stored;
 *                                     a room of any visit of the sheet's project may be placed (it moves onto this sheet)
 *   POST   /maps/{id}/plan         → 202 SheetDetail   multipart "file" (a PDF or a JPEG/PNG/WebP image) and
 *                                     "page" (SheetPlanFields: the PDF page, 1 by default): gives an empty sheet
 *                                     its plan, or replaces a sheet's plan; rooms and snags keep their place
 *                                     on the plan (scaled to the new size). A job draws it; job:progress events
 *                                     with subject {kind: 'sheet-plan', id: sheet id} tell how it goes
 *   POST   /projects/{id}/pdf-sheet → 202 PdfUpload  multipart "file": the PDF, checked by content
 *                                     (413 above UPLOAD_LIMITS.pdfBytes, 415 when not a PDF)
 *
 * How a sheet is shown (Leaflet with CRS.Simple):
 *   - `tile_url_template` is a signed URL with `{z}`, `{x}` and `{y}`; give it to L.tileLayer
 *     with { tileSize: tile_size, minZoom: 0, maxNativeZoom: max_zoom, noWrap: true, bounds }.
 *   - The image is `width` × `height` pixels at zoom `max_zoom`, anchored at the top-left
 *     corner of tile 0/0/0; at zoom z a pixel of the full image is 2^(z − max_zoom) screen pixels.
 *     bounds = [map.unproject([0, height], max_zoom), map.unproject([width, 0], max_zoom)].
 *   - Room positions (x, y) are in those full-image pixels, origin top-left.
 *
 * Live progress of a PDF upload arrives over Socket.IO as 'job:progress'
 * (JobProgressEvent of events.ts) in the rooms of the uploader and of the
 * project owner, and in the project's room (`project:join` with the project id), with
 *   job: 'sheet.from-pdf', subject: {kind: 'pdf-upload', id: upload id}, project_id,
 *   state: queued | active | completed | failed, percent 0..100, message ('Page 2 of 5',
 *   or the reason of a failure), detail: PdfProgressDetail.
 * Events carry the absolute state, so one that arrives twice (user room and
 * project room) changes nothing. The owner and the uploader also get a
 * notification ('Sheets ready', or 'PDF plan not turned into sheets' with the reason).
 */

export const SHEET_STATUSES = ['empty', 'processing', 'ready'] as const;
export type SheetStatus = (typeof SHEET_STATUSES)[number];

export const PDF_UPLOAD_STATUSES = ['queued', 'processing', 'done', 'failed'] as const;
export type PdfUploadStatus = (typeof PDF_UPLOAD_STATUSES)[number];

/**
 * How plans are turned into sheets. A page is rendered at up to `maxDpi`
 * while staying within `pixelBudget` pixels, so an A1 plan gets about 215 dpi
 * and an A0 150 dpi; pages with a side over `maxSideMm` or under `minSideMm`
 * are refused, as are files with more than `maxPages` pages. New sheets are
 * cut into `tileSize`-pixel tiles (512: a quarter of the files of 256-pixel
 * tiles for the same pixels, and creating files is most of the cost of
 * cutting on a plain disk); each sheet records its own `tile_size`, so
 * sheets cut earlier with 256-pixel tiles keep showing as they are.
 */
export const SHEET_RENDERING = {
  tileSize: 512,
  maxDpi: 300,
  pixelBudget: 36_000_000,
  maxSideMm: 5_000,
  minSideMm: 10,
  maxPages: 200,
  thumbnailPx: 480,
} as const;

const sheetName = z.string().trim().min(1, 'Sheet name is required').max(200, 'Sheet name must be at most 200 characters.');

export const sheetCreateSchema = z
  .object({
    id_project: idField,
    name: sheetName,
    page_label: z.string().trim().max(100).optional(),
  })
  .strict();
export type SheetCreateRequest = z.input<typeof sheetCreateSchema>;

export const sheetUpdateSchema = z
  .object({
    name: sheetName,
    page_label: z.string().trim().max(100),
  })
  .partial()
  .strict()
  .refine((o) => Object.keys(o).length > 0, { message: 'Nothing to update.' });
export type SheetUpdateRequest = z.input<typeof sheetUpdateSchema>;

/** POST /maps/{id}/plan, the fields next to the file: which page of a PDF becomes the sheet's plan. */
export const sheetPlanFieldsSchema = z
  .object({
    page: queryInt('page', 1, 10_000).optional(),
  })
  .strict();
export type SheetPlanFields = z.input<typeof sheetPlanFieldsSchema>;

/** The kinds of file a sheet's plan may come from, by content. */
export const SHEET_PLAN_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'] as const;

/** GET /maps/{id}/rooms: id_map, when given, must be the sheet of the path. */
export const sheetRoomsQuerySchema = z
  .object({
    id_map: idField.optional(),
    id_visit: idField.optional(),
    osfm_cluster: queryInt('osfm_cluster', 0, 1_000_000).optional(),
  })
  .strict();
export type SheetRoomsQuery = z.input<typeof sheetRoomsQuerySchema>;

export const roomPositionsSchema = z
  .object({
    rooms: z
      .array(
        z
          .object({
            id: z.number().int().positive(),
            x: z.number().finite('x must be a number.'),
            y: z.number().finite('y must be a number.'),
            /** Where yaw 0 of the room's panorama points on the sheet, radians clockwise from up (see visits.ts); null clears it. */
            heading: z
              .number({ message: 'heading must be an angle in radians.' })
              .min(-2 * Math.PI, 'heading must be between -2π and 2π radians.')
              .max(2 * Math.PI, 'heading must be between -2π and 2π radians.')
              .nullable()
              .optional(),
          })
          .strict(),
      )
      .min(1, 'Give at least one room.')
      .max(2000, 'At most 2000 rooms at once.')
      .refine((rooms) => new Set(rooms.map((r) => r.id)).size === rooms.length, { message: 'Each room may appear only once.' }),
  })
  .strict();
export type RoomPositionsRequest = z.input<typeof roomPositionsSchema>;

export const pdfSheetDeleteQuerySchema = z
  .object({ id_upload: idField.optional() })
  .strict();

/** A sheet in lists (inside ProjectDetail.maps). */
export interface SheetSummary {
  id: number;
  id_project: number;
  name: string;
  /** The PDF page label ('A-101'), or '' when the page had none. */
  page_label: string;
  /** Page number in the uploaded PDF (1-based), null for sheets not made from a PDF. */
  page: number | null;
  status: SheetStatus;
  /** Full-resolution size in pixels; null until rendered. */
  width: number | null;
  height: number | null;
  thumbnail_url: string | null;
  created_at: string;
  updated_at: string;
}

/** GET /maps/{id}. Tile fields are null until the sheet is 'ready'. */
export interface SheetDetail extends SheetSummary {
  id_upload: number | null;
  /** Resolution the page was rendered at. */
  dpi: number | null;
  tile_size: number | null;
  min_zoom: number;
  max_zoom: number | null;
  /** Signed, valid for hours: `/api/files/…/tiles/{z}/{y}/{x}.jpg?exp=…&sig=…&scope=folder`. */
  tile_url_template: string | null;
  /** The project's name (GET /maps/{id}), for the sheet's title and breadcrumb trail. */
  project_name?: string;
}

/** A room placed (or to be placed) on a sheet; the visits feature owns the rest of a room. */
export interface SheetRoom {
  id: number;
  id_map: number | null;
  id_visit: number | null;
  name: string;
  x: number | null;
  y: number | null;
  /** Where yaw 0 of the room's panorama points on the sheet, radians clockwise from up; null when unknown. */
  heading: number | null;
  /** 'queued' | 'processing' | 'ready' | 'failed' (RoomStatus of visits.ts). */
  status: string;
  /** Signed 480 × 240 thumbnail; null until ready. */
  thumbnail_url: string | null;
  osfm_cluster: number | null;
}

/** State of one PDF upload: the single source of truth a progress bar reads. */
export interface PdfUpload {
  id: number;
  id_project: number;
  original_name: string;
  size_bytes: number;
  status: PdfUploadStatus;
  pages_total: number | null;
  pages_done: number;
  /** Why it failed, in words for the user; null otherwise. */
  error: string | null;
  /** The sheets made so far, in page order. */
  sheet_ids: number[];
  /** false once the stored PDF was removed (DELETE /projects/{id}/pdf-sheet/delete). */
  file_stored: boolean;
  created_at: string;
  updated_at: string;
}

/** `detail` of a 'job:progress' event of the sheet.from-pdf job. */
export interface PdfProgressDetail {
  pages_done: number;
  pages_total: number | null;
  /** The sheet finished with this event, if any. */
  id_map?: number;
  sheet_ids: number[];
}
