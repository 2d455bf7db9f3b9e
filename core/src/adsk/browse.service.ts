import type { AdskFolderEntry, AdskHub, AdskManifest, AdskProject, AdskSheet, AdskVersion, AdskView2d } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { badRequest } from '../errors.js';
import { apsAllPages, apsJson, type JsonApiResource } from './aps-client.js';
import { withAccess } from './link.service.js';
import { importedVersions, projectLinksOf } from '../repositories/adsk-sync.repository.js';

/**
 * Browsing a user's Autodesk data through Data Management (JSON:API), the
 * ACC Sheets API and Model Derivative manifests; every list is followed to
 * its end. Ids go into Autodesk's paths URL-encoded (they hold ':' and '?').
 */

const enc = encodeURIComponent;
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const nameOf = (r: JsonApiResource) => str(r.attributes?.displayName) ?? str(r.attributes?.name) ?? r.id;

/** The base64url form Model Derivative uses for a version id (an urn already in that form is kept). */
export function derivativeUrn(versionIdOrUrn: string): string {
  if (/^[A-Za-z0-9_-]+$/.test(versionIdOrUrn)) return versionIdOrUrn;
  return Buffer.from(versionIdOrUrn).toString('base64url');
}

/** An ACC project id without Data Management's "b." prefix (the Sheets API's form). */
export const accProjectId = (id: string) => id.replace(/^b\./, '');

export async function listHubs(userId: number): Promise<AdskHub[]> {
  return withAccess(userId, async (token) => {
    const { data } = await apsAllPages('/project/v1/hubs', token);
    return data.map((h) => ({ id: h.id, name: nameOf(h), region: str(h.attributes?.region), kind: str(h.attributes?.extension?.type) }));
  });
}

export async function listProjects(userId: number, hubId: string, excludeExisting: boolean): Promise<AdskProject[]> {
  const projects = await withAccess(userId, async (token) => (await apsAllPages(`/project/v1/hubs/${enc(hubId)}/projects`, token)).data);
  const links = await projectLinksOf(db(), userId, projects.map((p) => p.id));
  const linked = new Map(links.map((l) => [l.adsk_project_id, l.id_project]));
  return projects
    .filter((p) => !excludeExisting || !linked.has(p.id))
    .map((p) => ({ id: p.id, hub_id: hubId, name: nameOf(p), kind: str(p.attributes?.extension?.type), sitewalk_project_id: linked.get(p.id) ?? null }));
}

export async function getProjectName(userId: number, hubId: string, projectId: string): Promise<string> {
  return withAccess(userId, async (token) => {
    const r = await apsJson<{ data: JsonApiResource }>(`/project/v1/hubs/${enc(hubId)}/projects/${enc(projectId)}`, { token: await token() });
    return nameOf(r.data);
  });
}

function toEntry(r: JsonApiResource, included: Map<string, JsonApiResource>): AdskFolderEntry {
  const tipId = r.relationships?.tip?.data?.id ?? null;
  const tip = tipId ? included.get(tipId) : undefined;
  return {
    id: r.id,
    type: r.type === 'folders' ? 'folders' : 'items',
    name: nameOf(r),
    version_id: tipId,
    version_number: typeof tip?.attributes?.versionNumber === 'number' ? tip.attributes.versionNumber : null,
    file_type: str(tip?.attributes?.fileType),
    modified_at: str(r.attributes?.lastModifiedTime),
  };
}

export async function listTopFolders(userId: number, hubId: string, projectId: string): Promise<AdskFolderEntry[]> {
  return withAccess(userId, async (token) => {
    const { data } = await apsAllPages(`/project/v1/hubs/${enc(hubId)}/projects/${enc(projectId)}/topFolders`, token);
    return data.map((r) => toEntry(r, new Map()));
  });
}

/** A folder's entries (folders first, as Autodesk lists them), with each item's newest version. */
export async function listFolderContents(userId: number, projectId: string, folderId: string, token?: () => Promise<string>): Promise<{ entries: AdskFolderEntry[]; versions: Map<string, JsonApiResource> }> {
  const run = async (t: () => Promise<string>) => {
    const { data, included } = await apsAllPages(`/data/v1/projects/${enc(projectId)}/folders/${enc(folderId)}/contents`, t);
    const versions = new Map(included.filter((i) => i.type === 'versions').map((v) => [v.id, v]));
    return { entries: data.map((r) => toEntry(r, versions)), versions };
  };
  return token ? run(token) : withAccess(userId, run);
}

export function toVersion(v: JsonApiResource, imported: Set<string>): AdskVersion {
  return {
    id: v.id,
    item_id: v.relationships?.item?.data?.id ?? '',
    name: nameOf(v),
    version_number: typeof v.attributes?.versionNumber === 'number' ? v.attributes.versionNumber : null,
    file_type: str(v.attributes?.fileType),
    created_at: str(v.attributes?.createTime),
    urn: derivativeUrn(v.id),
    imported: imported.has(v.id),
  };
}

export async function listItemVersions(userId: number, projectId: string, itemId: string): Promise<AdskVersion[]> {
  const versions = await withAccess(userId, async (token) => (await apsAllPages(`/data/v1/projects/${enc(projectId)}/items/${enc(itemId)}/versions`, token)).data);
  const imported = await importedVersions(db(), userId, versions.map((v) => v.id));
  return versions.map((v) => toVersion(v, imported));
}

interface AccSheetsPage {
  results: { id: string; number?: string; title?: string; versionSet?: { name?: string } }[];
  pagination?: { nextUrl?: string | null };
}

/** The ACC sheets of a project (Sheets API, offset pagination followed to the end). */
export async function listSheets(userId: number, projectId: string): Promise<AdskSheet[]> {
  return withAccess(userId, async (token) => {
    const out: AdskSheet[] = [];
    let url: string | null = `/construction/sheets/v1/projects/${enc(accProjectId(projectId))}/sheets?limit=200`;
    for (let n = 0; url && n < 500; n++) {
      const page: AccSheetsPage = await apsJson<AccSheetsPage>(url, { token: await token() });
      out.push(...page.results.map((s) => ({ id: s.id, number: s.number ?? '', title: s.title ?? '', version_set: s.versionSet?.name ?? null })));
      url = page.pagination?.nextUrl ?? null;
    }
    return out;
  });
}

interface ManifestNode {
  guid?: string;
  type?: string;
  role?: string;
  name?: string;
  mime?: string;
  urn?: string;
  children?: ManifestNode[];
}
interface ManifestJson {
  urn: string;
  status?: string;
  progress?: string;
  derivatives?: ManifestNode[];
}

/** The 2D views of a manifest (geometry nodes with role '2d'), each with its PDF derivative when there is one. */
export function views2d(manifest: { derivatives?: ManifestNode[] }): AdskView2d[] {
  const out: AdskView2d[] = [];
  const walk = (n: ManifestNode) => {
    if (n.type === 'geometry' && n.role === '2d') {
      const pdf = (n.children ?? []).find((c) => c.mime === 'application/pdf' && c.urn);
      out.push({ guid: n.guid ?? '', name: n.name ?? 'Sheet', pdf_urn: pdf?.urn ?? null });
    }
    (n.children ?? []).forEach(walk);
  };
  (manifest.derivatives ?? []).forEach(walk);
  return out;
}

export async function fetchManifest(token: () => Promise<string>, urnOrVersion: string): Promise<AdskManifest> {
  const urn = derivativeUrn(urnOrVersion);
  const m = await apsJson<ManifestJson>(`/modelderivative/v2/designdata/${enc(urn)}/manifest`, { token: await token() });
  return { urn, status: m.status ?? 'unknown', progress: m.progress ?? '', views_2d: views2d(m) };
}

export async function getManifest(userId: number, urn: string): Promise<AdskManifest> {
  if (!/^[A-Za-z0-9:._~=?\-]+$/.test(urn)) throw badRequest('The urn is not an Autodesk version id.');
  return withAccess(userId, (token) => fetchManifest(token, urn));
}
