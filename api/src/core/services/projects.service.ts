import type { Knex } from 'knex';
import type {
  CategoryRef,
  ProjectCreateRequest,
  ProjectDetail,
  ProjectList,
  ProjectSummary,
  ProjectUpdateRequest,
  ShowcaseProject,
} from '@sitewalk/proto';
import { z } from 'zod';
import { projectListQuerySchema } from '@sitewalk/proto';
import { Project, db } from '../db/index.js';
import { localDate } from '../db/models/project.js';
import { badRequest, notFound } from '../errors.js';
import { logger } from '../logger.js';
import { remove, signedUrl } from '../storage/index.js';
import { accessFor, canManage, requireProject, whereVisible } from './access.service.js';
import { READ_ONLY_PERMISSIONS, type ProjectPermissions, type ProjectRole } from '@sitewalk/proto';
import { notifySuperAdmins } from './notifications.service.js';
import { newProjectCode } from './project-code.service.js';
import { getSettings } from './settings.service.js';
import { projectFolder, projectMaps, toMapSummary, toPdfUploadDto } from './sheets.service.js';
import { checkProjectAllowed } from './plan-limits.service.js';
import { recentUploads } from './pdf-uploads.service.js';

type Actor = { id: number; super_admin: boolean; username?: string };
type Db = Knex | Knex.Transaction;
type ListQuery = z.output<typeof projectListQuerySchema>;

/** A project row as the list and detail queries return it: the project and what the user sees of it. */
interface ProjectRow {
  id: number;
  id_owner: number;
  name: string;
  description: string;
  client_name: string;
  street: string;
  city: string;
  postal_code: string;
  province: string;
  country: string;
  latitude: number | null;
  longitude: number | null;
  start_date: Date | string | null;
  end_date: Date | string | null;
  area: number | null;
  num_buildings: number | null;
  num_floors: number | null;
  id_project_type: number | null;
  cover: string | null;
  cover_thumb: string | null;
  project_code: string;
  active: boolean;
  validated: boolean;
  validated_at: Date | null;
  created_at: Date;
  updated_at: Date;
  type_name: string | null;
  owner_username: string;
  owner_first_name: string;
  owner_last_name: string;
  member_role: string | null;
  member_permissions: unknown;
  starred: boolean;
  sheets_count: number;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** Projects with their type, owner, the user's star and membership, and sheet count. */
function projectRows(k: Db, user: Actor) {
  return k('projects as p')
    .join('users as u', 'u.id', 'p.id_owner')
    .leftJoin('project_types as pt', 'pt.id', 'p.id_project_type')
    .leftJoin('project_members as pm', (j) => j.on('pm.id_project', 'p.id').andOn('pm.id_user', k.raw('?', [user.id])))
    .select(
      'p.*',
      'pt.name as type_name',
      'u.username as owner_username',
      'u.first_name as owner_first_name',
      'u.last_name as owner_last_name',
      'pm.role as member_role',
      'pm.permissions as member_permissions',
      k.raw('exists (select 1 from project_stars s where s.id_project = p.id and s.id_user = ?) as starred', [user.id]),
      k.raw('(select count(*) from maps m where m.id_project = p.id)::int as sheets_count'),
    );
}

async function categoriesOf(k: Db, projectIds: number[]): Promise<Map<number, CategoryRef[]>> {
  const out = new Map<number, CategoryRef[]>();
  if (!projectIds.length) return out;
  const rows: { id_project: number; id: number; name: string }[] = await k('project_categories as pc')
    .join('categories as c', 'c.id', 'pc.id_category')
    .whereIn('pc.id_project', projectIds)
    .orderByRaw('lower(c.name)')
    .select('pc.id_project', 'c.id', 'c.name');
  for (const r of rows) {
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

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET /projects: one page of the projects the user may see, filtered and sorted. */
export async function listProjects(user: Actor, q: ListQuery): Promise<ProjectList> {
  const k = db();
  const filtered = whereVisible(k('projects as p'), user, { all: q.scope === 'all', alias: 'p' });
  if (q.search) {
    const like = `%${escapeLike(q.search)}%`;
    filtered.where((w) =>
      w
        .whereILike('p.name', like)
        .orWhereILike('p.description', like)
        .orWhereILike('p.project_code', like)
        .orWhereILike('p.client_name', like)
        .orWhereILike('p.city', like),
    );
  }
  if (q.id_project_type) filtered.where('p.id_project_type', q.id_project_type);
  if (q.id_category) {
    filtered.whereExists((s) => s.select(k.raw('1')).from('project_categories as fc').whereRaw('fc.id_project = p.id').andWhere('fc.id_category', q.id_category!));
  }
  if (q.starred !== undefined) {
    const starred = (s: Knex.QueryBuilder) => s.select(k.raw('1')).from('project_stars as fs').whereRaw('fs.id_project = p.id').andWhere('fs.id_user', user.id);
    if (q.starred) filtered.whereExists(starred);
    else filtered.whereNotExists(starred);
  }
  if (q.active !== undefined) filtered.where('p.active', q.active);
  if (q.validated !== undefined) filtered.where('p.validated', q.validated);

  const order = q.order ?? (q.sort === 'name' ? 'asc' : 'desc');
  const [countRow, rows] = await Promise.all([
    filtered.clone().count<{ n: number }[]>({ n: '*' }).first(),
    projectRows(k, user)
      .whereIn('p.id', filtered.clone().select('p.id'))
      .orderByRaw(q.sort === 'name' ? `lower(p.name) ${order}` : `p.${q.sort} ${order}`)
      .orderBy('p.id', 'desc')
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page) as Promise<ProjectRow[]>,
  ]);
  const cats = await categoriesOf(k, rows.map((r) => r.id));
  return {
    items: rows.map((r) => toSummary(r, user, cats.get(r.id) ?? [])),
    total: Number(countRow?.n ?? 0),
    page: q.page,
    per_page: q.per_page,
  };
}

/** GET /projects/recent: the user's most recently changed projects (the dashboard's list). */
export async function recentProjects(user: Actor, limit: number): Promise<ProjectSummary[]> {
  const k = db();
  const rows = (await whereVisible(projectRows(k, user), user, { alias: 'p' })
    .orderBy('p.updated_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)) as ProjectRow[];
  const cats = await categoriesOf(k, rows.map((r) => r.id));
  return rows.map((r) => toSummary(r, user, cats.get(r.id) ?? []));
}

/** The full project as GET /projects/{id} shows it (access already checked). */
export async function projectDetail(user: Actor, projectId: number, k: Db = db()): Promise<ProjectDetail> {
  const row = (await projectRows(k, user).where('p.id', projectId).first()) as ProjectRow | undefined;
  if (!row) throw notFound('Project not found.');
  // Uploads first: settling a lost upload removes the sheets it half made.
  const uploads = await recentUploads(row.id);
  const [cats, maps] = await Promise.all([categoriesOf(k, [row.id]), projectMaps(row.id, k)]);
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
    validated_at: row.validated_at ? iso(row.validated_at) : null,
    maps: maps.map(toMapSummary),
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
    const type = await k('project_types').where({ id: input.id_project_type }).first('id');
    if (!type) throw badRequest('This project type does not exist.');
  }
  if (input.categories?.length) {
    const ids = [...new Set(input.categories)];
    const own: { id: number }[] = await k('categories').whereIn('id', ids).where({ id_owner: ownerId }).select('id');
    if (own.length !== ids.length) throw badRequest('One of the categories does not exist. Reload the page and try again.');
  }
}

async function setCategories(k: Db, projectId: number, categories: number[]) {
  await k('project_categories').where({ id_project: projectId }).delete();
  const ids = [...new Set(categories)];
  if (ids.length) await k('project_categories').insert(ids.map((id) => ({ id_project: projectId, id_category: id })));
}

/** POST /projects: the user's new project, awaiting approval unless a super admin made it. */
export async function createProject(user: Actor, input: ProjectCreateRequest): Promise<ProjectDetail> {
  const { categories, ...fields } = input;
  await checkProjectAllowed(db(), user);
  const detail = await db().transaction(async (trx) => {
    await checkReferences(trx, user.id, input);
    await checkProjectAllowed(trx, user);
    const project = await Project.query(trx).insertAndFetch({
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
        title: 'New project',
        message: `${project.owner.username} created the project "${project.name}".${project.validated ? '' : ' It is awaiting approval.'}`,
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
    await Project.query(trx).patch({ ...fields, updated_at: new Date() }).where({ id: projectId });
    if (categories) await setCategories(trx, projectId, categories);
    return projectDetail(user, projectId, trx);
  });
}

/** DELETE /projects/{id}: the project, its sheets and uploads; then its files leave storage. */
export async function deleteProject(user: Actor, projectId: number): Promise<{ id: number }> {
  await db().transaction(async (trx) => {
    await requireProject(user, projectId, 'manage', trx);
    await Project.query(trx).deleteById(projectId);
  });
  await remove(projectFolder(projectId));
  return { id: projectId };
}

/** Approval and activation: super admins only (the route checks the role). */
export async function setProjectFlags(user: Actor, projectId: number, change: { active?: boolean; validated?: boolean }): Promise<ProjectDetail> {
  return db().transaction(async (trx) => {
    const project = await Project.query(trx).findById(projectId).forUpdate();
    if (!project) throw notFound('Project not found.');
    const patch: Partial<Project> = { ...change, updated_at: new Date() };
    if (change.validated === true && !project.validated) Object.assign(patch, { validated_at: new Date(), validated_by: user.id });
    if (change.validated === false) Object.assign(patch, { validated_at: null, validated_by: null });
    await Project.query(trx).patch(patch).where({ id: projectId });
    return projectDetail(user, projectId, trx);
  });
}

/** POST /projects/star: stars are per user; starring twice is starring once. */
export async function starProject(user: Actor, projectId: number, starred: boolean): Promise<{ id_project: number; starred: boolean }> {
  await requireProject(user, projectId, 'read');
  const k = db();
  if (starred) await k('project_stars').insert({ id_user: user.id, id_project: projectId }).onConflict(['id_user', 'id_project']).ignore();
  else await k('project_stars').where({ id_user: user.id, id_project: projectId }).delete();
  return { id_project: projectId, starred };
}

/** GET /showcase: the public face of an active, validated project; nothing private. */
export async function showcase(projectCode: string): Promise<ShowcaseProject> {
  const k = db();
  const row = await k('projects as p')
    .leftJoin('project_types as pt', 'pt.id', 'p.id_project_type')
    .where({ 'p.project_code': projectCode.toLowerCase(), 'p.active': true, 'p.validated': true })
    .first(
      'p.project_code',
      'p.name',
      'p.description',
      'p.city',
      'p.country',
      'p.cover',
      'p.created_at',
      'pt.name as type_name',
      k.raw('(select count(*) from maps m where m.id_project = p.id)::int as sheets_count'),
    );
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
