import type {
  CategoryRef,
  ProjectCreateRequest,
  ProjectDetail,
  ProjectList,
  ProjectSummary,
  ProjectUpdateRequest,
  ShowcaseProject,
} from '@sitewalk/proto';
import type { z } from 'zod';
import { notice, type projectListQuerySchema } from '@sitewalk/proto';
import { type Project, db } from '../db/index.js';
import {
  categoryRowsOf,
  countOwnCategories,
  deleteProjectRow,
  insertProject,
  lockProjectRow,
  patchProject,
  projectPage,
  projectRowById,
  recentProjectRows,
  replaceCategories,
  setStar,
  showcaseRow,
  type ProjectRow,
} from '../repositories/projects.repository.js';
import { projectTypeExists } from '../repositories/project-types.repository.js';
import { localDate } from '../db/models/project.js';
import { badRequest, notFound } from '../errors.js';
import { logger } from '../logger.js';
import { remove, signedUrl } from '../storage/index.js';
import { accessFor, canManage, requireProject } from './access.service.js';
import { READ_ONLY_PERMISSIONS, type ProjectPermissions, type ProjectRole } from '@sitewalk/proto';
import { notifySuperAdmins } from './notifications.service.js';
import { newProjectCode } from './project-code.service.js';
import { getSettings } from './settings.service.js';
import { projectFolder, projectSheets, toSheetSummary, toPdfUploadDto } from './sheets.service.js';
import { checkProjectAllowed } from './plan-limits.service.js';
import { recentUploads } from './pdf-uploads.service.js';
import type { Actor } from './actor.js';
import { iso, isoOrNull, type Db } from '../db/query-types.js';

type ListQuery = z.output<typeof projectListQuerySchema>;

async function categoriesOf(k: Db, projectIds: number[]): Promise<Map<number, CategoryRef[]>> {
  const out = new Map<number, CategoryRef[]>();
  if (!projectIds.length) return out;
  for (const r of await categoryRowsOf(k, projectIds)) {
    if (!out.has(r.id_project)) out.set(r.id_project, []);
    out.get(r.id_project)!.push({ id: r.id, name: r.name });
  }
  return out;
}

/** The user's role and permissions in a listed project (a super admin listing every project reads as admin). */
function accessOf(r: ProjectRow, user: Actor): { role: ProjectRole; permissions: ProjectPermissions } {
  return (
    accessFor(user, r.id_owner, r.member_role == null ? null : { role: r.member_role, permissions: r.member_permissions }) ?? {
      role: 'viewer',
      permissions: { ...READ_ONLY_PERMISSIONS },
    }
  );
}

function toSummary(r: ProjectRow, user: Actor, categories: CategoryRef[]): ProjectSummary {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    project_code: r.project_code,
    client_name: r.client_name,
    city: r.city,
    country: r.country,
    cover_url: signedUrl(r.cover),
    cover_thumb_url: signedUrl(r.cover_thumb),
    id_project_type: r.id_project_type,
    project_type: r.id_project_type && r.type_name ? { id: r.id_project_type, name: r.type_name } : null,
    categories,
    starred: !!r.starred,
    active: r.active,
    validated: r.validated,
    role: accessOf(r, user).role,
    owner: { id: r.id_owner, username: r.owner_username, first_name: r.owner_first_name, last_name: r.owner_last_name },
    sheets_count: Number(r.sheets_count),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** GET /projects: one page of the projects the user may see, filtered and sorted. */
export async function listProjects(user: Actor, q: ListQuery): Promise<ProjectList> {
  const k = db();
  const { rows, total } = await projectPage(k, user, q);
  const cats = await categoriesOf(k, rows.map((r) => r.id));
  return {
    items: rows.map((r) => toSummary(r, user, cats.get(r.id) ?? [])),
    total,
    page: q.page,
    per_page: q.per_page,
  };
}

/** GET /projects/recent: the user's most recently changed projects (the dashboard's list). */
export async function recentProjects(user: Actor, limit: number): Promise<ProjectSummary[]> {
  const k = db();
  const rows = await recentProjectRows(k, user, limit);
  const cats = await categoriesOf(k, rows.map((r) => r.id));
  return rows.map((r) => toSummary(r, user, cats.get(r.id) ?? []));
}

/** The full project as GET /projects/{id} shows it (access already checked). */
export async function projectDetail(user: Actor, projectId: number, k: Db = db()): Promise<ProjectDetail> {
  const row = await projectRowById(k, user, projectId);
  if (!row) throw notFound('Project not found.');
  // Uploads first: settling a lost upload removes the sheets it half made.
  const uploads = await recentUploads(row.id);
  const [cats, maps] = await Promise.all([categoriesOf(k, [row.id]), projectSheets(row.id, k)]);
  const summary = toSummary(row, user, cats.get(row.id) ?? []);
  return {
    ...summary,
    street: row.street,
    postal_code: row.postal_code,
    province: row.province,
    latitude: row.latitude,
    longitude: row.longitude,
    start_date: localDate(row.start_date),
    end_date: localDate(row.end_date),
    area: row.area,
    num_buildings: row.num_buildings,
    num_floors: row.num_floors,
    validated_at: isoOrNull(row.validated_at),
    maps: maps.map(toSheetSummary),
    pdf_uploads: uploads.map(toPdfUploadDto),
    can_manage: canManage(summary.role),
    can_edit_sheets: accessOf(row, user).permissions.edit,
    permissions: accessOf(row, user).permissions,
  };
}

export async function getProject(user: Actor, projectId: number): Promise<ProjectDetail> {
  await requireProject(user, projectId, 'read');
  return projectDetail(user, projectId);
}

/** Checks that the type exists and that every category is one of the owner's. */
async function checkReferences(k: Db, ownerId: number, input: { id_project_type?: number | null; categories?: number[] }) {
  if (input.id_project_type) {
    if (!(await projectTypeExists(k, input.id_project_type))) throw badRequest('This project type does not exist.');
  }
  if (input.categories?.length) {
    const ids = [...new Set(input.categories)];
    if ((await countOwnCategories(k, ownerId, ids)) !== ids.length) throw badRequest('One of the categories does not exist. Reload the page and try again.');
  }
}

const setCategories = (k: Db, projectId: number, categories: number[]) => replaceCategories(k, projectId, [...new Set(categories)]);

/** POST /projects: the user's new project, awaiting approval unless a super admin made it. */
export async function createProject(user: Actor, input: ProjectCreateRequest): Promise<ProjectDetail> {
  const { categories, ...fields } = input;
  await checkProjectAllowed(db(), user);
  const detail = await db().transaction(async (trx) => {
    await checkReferences(trx, user.id, input);
    await checkProjectAllowed(trx, user);
    const project = await insertProject(trx, {
      ...fields,
      id_owner: user.id,
      project_code: await newProjectCode(trx),
      active: true,
      validated: user.super_admin,
      validated_at: user.super_admin ? new Date() : null,
      validated_by: user.super_admin ? user.id : null,
    });
    if (categories) await setCategories(trx, project.id, categories);
    return projectDetail(user, project.id, trx);
  });
  await tellAdminsAbout(user, detail);
  return detail;
}

/** When notify_project_create is on, super admins hear of each new project (best effort: the project exists either way). */
async function tellAdminsAbout(user: Actor, project: ProjectDetail) {
  try {
    if (!(await getSettings()).notify_project_create) return;
    await notifySuperAdmins(
      {
        kind: 'project_created',
        ...notice(project.validated ? 'projectCreated' : 'projectCreatedAwaiting', { by: project.owner.username, project: project.name }),
        link: project.validated ? `/project/${project.id}` : '/approvals',
      },
      { key: `project-created-${project.id}` },
    );
  } catch (err) {
    logger.error({ err, project_id: project.id, user_id: user.id }, 'could not notify administrators of a new project');
  }
}

/** PUT /projects/{id}: the changed fields; `categories` replaces the set. */
export async function updateProject(user: Actor, projectId: number, input: ProjectUpdateRequest): Promise<ProjectDetail> {
  return db().transaction(async (trx) => {
    const { project } = await requireProject(user, projectId, 'manage', trx);
    const { categories, ...fields } = input;
    await checkReferences(trx, project.id_owner, input);
    const start = fields.start_date !== undefined ? fields.start_date : project.start_date;
    const end = fields.end_date !== undefined ? fields.end_date : project.end_date;
    if (start && end && start > end) throw badRequest('The end date must not be before the start date.');
    await patchProject(trx, projectId, fields as Partial<Project>);
    if (categories) await setCategories(trx, projectId, categories);
    return projectDetail(user, projectId, trx);
  });
}

/** DELETE /projects/{id}: the project, its sheets and uploads; then its files leave storage. */
export async function deleteProject(user: Actor, projectId: number): Promise<{ id: number }> {
  await db().transaction(async (trx) => {
    await requireProject(user, projectId, 'manage', trx);
    await deleteProjectRow(trx, projectId);
  });
  await remove(projectFolder(projectId));
  return { id: projectId };
}

/** Approval and activation: super admins only (the route checks the role). */
export async function setProjectFlags(user: Actor, projectId: number, change: { active?: boolean; validated?: boolean }): Promise<ProjectDetail> {
  return db().transaction(async (trx) => {
    const project = await lockProjectRow(trx, projectId);
    if (!project) throw notFound('Project not found.');
    const patch: Partial<Project> = { ...change };
    if (change.validated === true && !project.validated) Object.assign(patch, { validated_at: new Date(), validated_by: user.id });
    if (change.validated === false) Object.assign(patch, { validated_at: null, validated_by: null });
    await patchProject(trx, projectId, patch);
    return projectDetail(user, projectId, trx);
  });
}

/** POST /projects/star: stars are per user; starring twice is starring once. */
export async function starProject(user: Actor, projectId: number, starred: boolean): Promise<{ id_project: number; starred: boolean }> {
  await requireProject(user, projectId, 'read');
  await setStar(db(), user.id, projectId, starred);
  return { id_project: projectId, starred };
}

/** GET /showcase: the public face of an active, validated project; nothing private. */
export async function showcase(projectCode: string): Promise<ShowcaseProject> {
  const row = await showcaseRow(db(), projectCode);
  if (!row) throw notFound('No public project has this code.');
  return {
    project_code: row.project_code,
    name: row.name,
    description: row.description,
    project_type: row.type_name ?? null,
    city: row.city,
    country: row.country,
    cover_url: signedUrl(row.cover),
    sheets_count: Number(row.sheets_count),
    created_at: iso(row.created_at),
  };
}
