import { z } from 'zod';
import { pageQuerySchema, type Page } from './envelope.js';
import type { CategoryRef } from './categories.js';
import type { SheetSummary, PdfUpload } from './sheets.js';
import { idField, queryBoolean, queryInt } from './ids.js';
import type { ProjectPermissions } from './teams.js';

/**
 * Projects (SPEC §7 "Projects"). Every answer is wrapped in the envelope
 * {status, message, data}; the types below are what `data` holds.
 *
 *   GET    /projects                      → ProjectList (Page<ProjectSummary>)   query: ProjectListQuery
 *   GET    /projects/recent               → ProjectSummary[]                     query: {limit?: 1..20, default 6}
 *   POST   /projects                      → 201 ProjectDetail                    body: ProjectCreateRequest
 *   GET    /projects/{id}                 → ProjectDetail
 *   PUT    /projects/{id}                 → ProjectDetail                        body: ProjectUpdateRequest (changed fields only)
 *   DELETE /projects/{id}                 → {id}                                 body or query may carry id_user (ignored beyond type checks)
 *   POST   /projects/activate/{id}        → ProjectDetail   (super admin only, 403 otherwise)
 *   POST   /projects/deactivate/{id}      → ProjectDetail   (super admin only)
 *   POST   /projects/validate/{id}        → ProjectDetail   (super admin only)
 *   POST   /projects/invalidate/{id}      → ProjectDetail   (super admin only)
 *   POST   /projects/star                 → StarResponse                         body: {id_project, starred}
 *   POST   /projects/{id}/cover           → ProjectDetail   multipart field "file": JPEG, PNG or WebP
 *   DELETE /projects/{id}/cover/delete    → ProjectDetail
 *   POST   /projects/{id}/pdf-sheet       → 202 PdfUpload   multipart field "file": a PDF (see sheets.ts)
 *   DELETE /projects/{id}/pdf-sheet/delete→ {removed: number}                    query: {id_upload?}
 *   GET    /showcase?project_code=…       → ShowcaseProject (public, no sign-in)
 *
 * A project the user may not see answers 404 (its existence is never
 * revealed). Owners and super admins may change a project; members with the
 * role 'editor' may add and edit its sheets; other members may only read.
 */

/**
 * How the signed-in user relates to a project: its owner, a super admin
 * ('admin'), or a member with one of the team roles (see teams.ts).
 */
export const PROJECT_ROLES = ['owner', 'admin', 'project_admin', 'editor', 'viewer', 'guest'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

export const PROJECT_SORTS = ['name', 'created_at', 'updated_at'] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];

/** Ids and whole numbers in query strings: `ids.ts` (one place for every contract). */
export { idField, queryBoolean, queryInt } from './ids.js';

const text = (max: number, label: string) => z.string().trim().max(max, `${label} must be at most ${max} characters.`);
const isoDate = z.iso.date({ message: 'Use a date like 2026-03-31.' });

/** Every editable field of a project, as the edit form sends them. */
const projectFields = {
  name: z.string().trim().min(1, 'Project name is required').max(200, 'Project name must be at most 200 characters.'),
  description: text(5000, 'Description'),
  /** Who the work is for (the building owner or main contractor). */
  client_name: text(200, 'Client name'),
  street: text(200, 'Street'),
  city: text(200, 'City'),
  postal_code: text(30, 'Postal code'),
  province: text(200, 'Province'),
  country: text(200, 'Country'),
  latitude: z.number().min(-90, 'Latitude must be between -90 and 90.').max(90, 'Latitude must be between -90 and 90.').nullable(),
  longitude: z.number().min(-180, 'Longitude must be between -180 and 180.').max(180, 'Longitude must be between -180 and 180.').nullable(),
  start_date: isoDate.nullable(),
  end_date: isoDate.nullable(),
  /** Built area in square metres (tiers are priced by area, buildings and floors). */
  area: z.number().positive('Area must be greater than zero.').max(10_000_000, 'Area is too large.').nullable(),
  num_buildings: z.number().refine(Number.isInteger, 'Use a whole number of buildings.').min(0, 'Use a whole number of buildings.').max(10_000, 'A project has at most 10000 buildings.').nullable(),
  num_floors: z.number().refine(Number.isInteger, 'Use a whole number of floors.').min(0, 'Use a whole number of floors.').max(1_000, 'A building has at most 1000 floors.').nullable(),
  id_project_type: z.number().int().positive().nullable(),
  /** The ids of the user's categories this project has; replaces the current set. */
  categories: z.array(z.number().int().positive()).max(100, 'A project can have at most 100 categories.'),
};

const datesInOrder = (o: { start_date?: string | null; end_date?: string | null }) =>
  !o.start_date || !o.end_date || o.start_date <= o.end_date;
// Asked also when another field breaks its rule (zod would skip it then), so a form shows every mistake at
// once; the whole-number rules above are refinements rather than .int() for the same reason (.int() stops the parse).
const datesMessage = { message: 'The end date must not be before the start date.', path: ['end_date'], when: () => true };

export const projectCreateSchema = z
  .object(projectFields)
  .partial()
  .required({ name: true })
  .strict()
  .refine(datesInOrder, datesMessage);
export type ProjectCreateRequest = z.input<typeof projectCreateSchema>;

export const projectUpdateSchema = z
  .object(projectFields)
  .partial()
  .strict()
  .refine((o) => Object.keys(o).length > 0, { message: 'Nothing to update.' })
  .refine(datesInOrder, datesMessage);
export type ProjectUpdateRequest = z.input<typeof projectUpdateSchema>;

export const projectListQuerySchema = pageQuerySchema
  .extend({
    /** Matches name, description, project code, client and city, case-insensitively. */
    search: z.string().trim().max(100, 'The search text is too long.').optional(),
    id_category: idField.optional(),
    id_project_type: idField.optional(),
    starred: queryBoolean('starred').optional(),
    active: queryBoolean('active').optional(),
    /** validated=false lists the projects awaiting approval. */
    validated: queryBoolean('validated').optional(),
    sort: z.enum(PROJECT_SORTS).default('updated_at'),
    order: z.enum(['asc', 'desc']).optional(),
    /** 'mine': projects the user owns or is a member of; 'all': every project (super admins only, 403 otherwise). */
    scope: z.enum(['mine', 'all']).default('mine'),
  })
  .strict();
export type ProjectListQuery = z.input<typeof projectListQuerySchema>;

export const recentProjectsQuerySchema = z
  .object({ limit: queryInt('limit', 1, 20).default(6) })
  .strict();

export const starProjectSchema = z
  .object({
    id_project: idField,
    starred: z.boolean(),
  })
  .strict();
export type StarProjectRequest = z.input<typeof starProjectSchema>;
export interface StarResponse {
  id_project: number;
  starred: boolean;
}

/** DELETE /projects/{id}: the client sends the acting user's id (SPEC §7); only its type is checked. */
export const projectDeleteSchema = z.object({ id_user: idField.optional() }).strict();

export const showcaseQuerySchema = z
  .object({ project_code: z.string().trim().min(1, 'project_code is required.').max(64) })
  .strict();

export interface ProjectTypeRef {
  id: number;
  name: string;
}

export interface ProjectOwner {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
}

/** One project in lists (GET /projects, GET /projects/recent). */
export interface ProjectSummary {
  id: number;
  name: string;
  description: string;
  project_code: string;
  client_name: string;
  city: string;
  country: string;
  /** Signed URLs (valid for hours); null when there is no cover. */
  cover_url: string | null;
  cover_thumb_url: string | null;
  id_project_type: number | null;
  project_type: ProjectTypeRef | null;
  categories: CategoryRef[];
  starred: boolean;
  /** Deactivated projects stay visible to their team but leave the showcase. */
  active: boolean;
  /** false = awaiting approval by a super admin. */
  validated: boolean;
  /** How the signed-in user relates to it: owner, admin (super admin, not owner), editor or viewer (member). */
  role: ProjectRole;
  owner: ProjectOwner;
  sheets_count: number;
  created_at: string;
  updated_at: string;
}

/** GET /projects/{id}: everything of the project, its sheets and its recent PDF uploads. */
export interface ProjectDetail extends ProjectSummary {
  street: string;
  postal_code: string;
  province: string;
  latitude: number | null;
  longitude: number | null;
  start_date: string | null;
  end_date: string | null;
  area: number | null;
  num_buildings: number | null;
  num_floors: number | null;
  validated_at: string | null;
  /** Sheets in page order of their upload, then by creation. */
  maps: SheetSummary[];
  /** The 10 most recent PDF uploads, newest first (to resume a progress bar after a reload). */
  pdf_uploads: PdfUpload[];
  /** Whether the user may edit the project itself (owner or super admin). */
  can_manage: boolean;
  /** Whether the user may add and edit sheets (owner, super admin, members with the edit permission). */
  can_edit_sheets: boolean;
  /** What the user may do in the project (every permission for the owner and super admins). */
  permissions: ProjectPermissions;
}

export type ProjectList = Page<ProjectSummary>;

/** GET /showcase: only active, validated projects; nothing private (no owner, address, ids of people). */
export interface ShowcaseProject {
  project_code: string;
  name: string;
  description: string;
  project_type: string | null;
  city: string;
  country: string;
  cover_url: string | null;
  sheets_count: number;
  created_at: string;
}
