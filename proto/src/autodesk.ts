import { z } from 'zod';
import { idOf } from './ids.js';

/**
 * The design-file cloud (SPEC §7 "Design-file cloud", `{design_cloud}` =
 * `autodesk`): link an Autodesk Platform Services account, browse it, and
 * bring hubs and projects with their PDF and 2D sheets into SiteWalk.
 *
 * Autodesk's tokens never leave the server: the `access_token` the refresh
 * answers (and the `adsk_access_token` cookie holds) is an opaque link
 * handle SiteWalk issues, rotated with every refresh.
 */

/** The path segment of SPEC §7's `{design_cloud}`. */
export const DESIGN_CLOUD = 'autodesk';
/** The cookie of SPEC §3 that tells the browser a design-cloud link exists. */
export const ADSK_COOKIE = 'adsk_access_token';
/** The query parameter the OAuth callback brings the browser back with (SPEC §4). */
export const ADSK_CALLBACK_PARAM = 'adsk_callback';

/**
 * An Autodesk id as Data Management writes them (`b.1f2e…`,
 * `urn:adsk.wipprod:fs.folder:co.abc`, `urn:adsk.wipprod:fs.file:vf.x?version=2`):
 * letters, digits and a few separators, never a slash.
 */
export const adskIdSchema = z
  .string({ message: 'The Autodesk id is required.' })
  .trim()
  .min(1, 'The Autodesk id is required.')
  .max(400, 'The Autodesk id is too long.')
  .regex(/^[A-Za-z0-9:._~=?\-]+$/, 'This is not an Autodesk id.');

/** GET /autodesk/auth-url */
export interface AdskAuthUrlResponse {
  authUrl: string;
}
/** GET /autodesk/check-auth */
export interface AdskCheckAuthResponse {
  authenticated: boolean;
}
/** POST /autodesk/refresh: the rotated link handle and when Autodesk's access ends (ms timestamp). */
export interface AdskRefreshResponse {
  access_token: string;
  expiresAt: number;
}

/** What the callback puts in `?adsk_callback=` (JSON): shown as a toast (SPEC §4). */
export interface AdskCallbackResult {
  status: 'success' | 'error';
  message: string;
}

/** Reads `?adsk_callback=`: a JSON {status, message}, or a bare status. Null when it is not one. */
export function parseAdskCallback(raw: string | null | undefined): AdskCallbackResult | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<AdskCallbackResult>;
    if ((v.status === 'success' || v.status === 'error') && typeof v.message === 'string') return { status: v.status, message: v.message.slice(0, 300) };
  } catch {
    // Not JSON: a bare status.
  }
  if (raw === 'success') return { status: 'success', message: 'Connected to Autodesk.' };
  if (raw === 'error') return { status: 'error', message: 'Failed to connect to Autodesk' };
  return null;
}

export const adskProjectsQuerySchema = z.object({
  /** Hide Autodesk projects already brought into SiteWalk (default true). */
  exclude_existing: z
    .enum(['true', 'false', '1', '0'], { message: 'exclude_existing must be true or false.' })
    .optional()
    .transform((v) => v === undefined || v === 'true' || v === '1'),
});

export const adskManifestQuerySchema = z.object({
  /** A version id (urn:adsk.wipprod:fs.file:vf.…?version=N) or its base64url form. */
  urn: z.string({ message: 'urn is required.' }).trim().min(1, 'urn is required.').max(600, 'The urn is too long.'),
});

export const adskSyncHubSchema = z.object({ hub_id: adskIdSchema }).strict();
export const adskSyncProjectSchema = z
  .object({
    /** The SiteWalk project to bring the sheets into; null (or left out) makes one named after the Autodesk project. */
    project_id: idOf('project_id').nullable().optional(),
    adsk_project_id: adskIdSchema,
    /** The hub of the project; looked up among the user's hubs when left out. */
    hub_id: adskIdSchema.optional(),
  })
  .strict();
export type AdskSyncHubRequest = z.input<typeof adskSyncHubSchema>;
export type AdskSyncProjectRequest = z.input<typeof adskSyncProjectSchema>;

export interface AdskHub {
  id: string;
  name: string;
  region: string | null;
  kind: string | null;
}
export interface AdskProject {
  id: string;
  hub_id: string;
  name: string;
  kind: string | null;
  /** The SiteWalk project it was brought into, if any. */
  sitewalk_project_id: number | null;
}
export interface AdskFolderEntry {
  id: string;
  /** 'folders' or 'items' (JSON:API types). */
  type: 'folders' | 'items';
  name: string;
  /** For items: the newest version's id, number and file type. */
  version_id: string | null;
  version_number: number | null;
  file_type: string | null;
  modified_at: string | null;
}
export interface AdskVersion {
  id: string;
  item_id: string;
  name: string;
  version_number: number | null;
  file_type: string | null;
  created_at: string | null;
  /** base64url of the id: the Model Derivative urn. */
  urn: string;
  /** The version is already in SiteWalk. */
  imported: boolean;
}
export interface AdskSheet {
  id: string;
  number: string;
  title: string;
  version_set: string | null;
}
/** A 2D view of a model (manifest derivative with role '2d'). */
export interface AdskView2d {
  guid: string;
  name: string;
  /** The PDF derivative of the view, when the translation made one. */
  pdf_urn: string | null;
}
export interface AdskManifest {
  urn: string;
  status: string;
  progress: string;
  views_2d: AdskView2d[];
}

export type AdskSyncStatus = 'queued' | 'running' | 'completed' | 'failed';
/** POST /autodesk/sync-hub and /autodesk/sync-project: the run; its progress follows as `job:progress` events (subject kind 'adsk-sync'). */
export interface AdskSyncRun {
  id: number;
  kind: 'hub' | 'project';
  hub_id: string | null;
  adsk_project_id: string | null;
  status: AdskSyncStatus;
  percent: number;
  message: string;
  /** SiteWalk projects created or updated so far. */
  project_ids: number[];
  files_imported: number;
  files_skipped: number;
  error: string | null;
  created_at: string;
  updated_at: string;
}
