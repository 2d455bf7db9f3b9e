import type { Knex } from 'knex';
import { effectiveRole, type ProjectRole } from '@sitewalk/proto';
import { Project, db } from '../db/index.js';
import { forbidden, notFound } from '../errors.js';

/**
 * The one place that decides who may do what with a project. Every project,
 * sheet, category-assignment and upload call, and the Socket.IO project
 * rooms, ask here.
 *
 *   owner  : everything
 *   admin  : a super admin who is not the owner: everything
 *   editor : a member with role 'editor': read, and add/edit/delete sheets
 *   viewer : any other member: read only
 *   anyone else: the project does not exist for them (404)
 */

export type ProjectNeed = 'read' | 'edit-sheets' | 'manage';

export interface ProjectAccess {
  project: Project;
  role: ProjectRole;
  canEditSheets: boolean;
  canManage: boolean;
}

type Actor = { id: number; super_admin: boolean };

/** Administrator rights come only from the super_admin flag (SPEC §6). */
export const isSuperAdmin = (u: Parameters<typeof effectiveRole>[0]) => effectiveRole(u) === 'super_admin';
type Db = Knex | Knex.Transaction;

/** Members with this role may add and change sheets. */
export const EDITOR_ROLE = 'editor';

const allows = (role: ProjectRole, need: ProjectNeed) =>
  need === 'read' ? true : need === 'edit-sheets' ? role !== 'viewer' : role === 'owner' || role === 'admin';

/** How a user relates to a project, from its owner and the user's membership role (null: not a member). */
export function roleFor(user: Actor, ownerId: number, memberRole: string | null | undefined): ProjectRole | null {
  if (ownerId === user.id) return 'owner';
  if (user.super_admin) return 'admin';
  if (memberRole == null) return null;
  return memberRole === EDITOR_ROLE ? 'editor' : 'viewer';
}

export const canEditSheets = (role: ProjectRole) => allows(role, 'edit-sheets');
export const canManage = (role: ProjectRole) => allows(role, 'manage');

/** The user's access to a project, or null when they may not even know it exists. */
export async function projectAccess(user: Actor, projectId: number, k: Db = db()): Promise<ProjectAccess | null> {
  const project = await Project.query(k).findById(projectId);
  if (!project) return null;
  const member =
    project.id_owner === user.id || user.super_admin
      ? null
      : await k('project_members').where({ id_project: projectId, id_user: user.id }).first('role');
  const role = roleFor(user, project.id_owner, member?.role);
  if (!role) return null;
  return { project, role, canEditSheets: allows(role, 'edit-sheets'), canManage: allows(role, 'manage') };
}

/**
 * The project, if the user may do `need` with it. A project they cannot see
 * is a 404; one they can see but not change is a 403.
 */
export async function requireProject(user: Actor, projectId: number, need: ProjectNeed, k: Db = db()): Promise<ProjectAccess> {
  const access = await projectAccess(user, projectId, k);
  if (!access) throw notFound('Project not found.');
  if (!allows(access.role, need)) {
    throw forbidden(need === 'manage' ? 'Only the project owner can do this.' : 'You can view this project but not change its sheets.');
  }
  return access;
}

/**
 * Narrows a query on `projects` (aliased `alias`) to those the user may see:
 * owned or joined; every project for a super admin when `all` is asked.
 */
export function whereVisible<Q extends Knex.QueryBuilder>(q: Q, user: Actor, opts: { all?: boolean; alias?: string } = {}): Q {
  if (opts.all && user.super_admin) return q;
  const a = opts.alias ?? 'projects';
  return q.where((w) =>
    w
      .where(`${a}.id_owner`, user.id)
      .orWhereExists((m) => m.select(db().raw('1')).from('project_members as vm').whereRaw(`vm.id_project = ${a}.id`).andWhere('vm.id_user', user.id)),
  ) as Q;
}

/**
 * Whether a user may see a project: its owner, a member, or a super admin.
 * The Socket.IO gateway asks this before a socket joins `project:{id}`.
 */
export async function canAccessProject(userId: number, projectId: number): Promise<boolean> {
  const user = await db()('users').where({ id: userId, active: true }).first('id', 'super_admin');
  if (!user) return false;
  return !!(await projectAccess(user, projectId));
}
