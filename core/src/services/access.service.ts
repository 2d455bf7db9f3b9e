import {
  ALL_PERMISSIONS,
  ROLE_DEFAULT_PERMISSIONS,
  asMemberRole,
  effectiveRole,
  memberPermissions,
  type ProjectPermission,
  type ProjectPermissions,
  type ProjectRole,
} from '@sitewalk/proto';
import { type Project, db } from '../db/index.js';
import { ownerOfProject, projectById } from '../repositories/projects.repository.js';
import { activeMemberPermissionRows, membershipOf } from '../repositories/team.repository.js';
import { activeUserById } from '../repositories/users.repository.js';
import { forbidden, notFound } from '../errors.js';
import type { Actor } from './actor.js';
import { type Db } from '../db/query-types.js';

/**
 * The one place that decides who may do what with a project. Every project,
 * sheet, visit, video, snag, team and upload call, and the Socket.IO project
 * rooms, ask here.
 *
 *   owner          : everything
 *   admin          : a super admin who is not the owner: everything
 *   project_admin  : a member with every permission (manage the team too),
 *                    but not the project itself (edit, delete, hand over)
 *   editor, viewer : members with the permissions the owner gave them
 *                    (view, upload, edit sheets and visits, manage snags, manage the team)
 *   guest          : a member who only reads
 *   anyone else    : the project does not exist for them (404)
 */

/**
 * What a call needs: 'read' (view), 'upload' (add files), 'edit-sheets'
 * (create, change, delete sheets and visits), 'manage-snags', 'manage-team',
 * and 'manage' (the project itself: owner or super admin).
 */
export type ProjectNeed = 'read' | 'upload' | 'edit-sheets' | 'manage-snags' | 'manage-team' | 'manage';

export interface ProjectAccess {
  project: Project;
  role: ProjectRole;
  /** The caller's effective permissions in this project. */
  permissions: ProjectPermissions;
  canEditSheets: boolean;
  canManage: boolean;
}

/** Administrator rights come only from the super_admin flag (SPEC §6). */
export const isSuperAdmin = (u: Parameters<typeof effectiveRole>[0]) => effectiveRole(u) === 'super_admin';

/** Members with this role may add and change sheets by default. */
export const EDITOR_ROLE = 'editor';

const NEED_PERMISSION: Record<Exclude<ProjectNeed, 'manage'>, ProjectPermission> = {
  read: 'view',
  upload: 'upload',
  'edit-sheets': 'edit',
  'manage-snags': 'manage_snags',
  'manage-team': 'manage_team',
};

/** Owner and super admins run the project itself. */
const runsProject = (role: ProjectRole) => role === 'owner' || role === 'admin';

/** Whether someone with this role and these permissions may do `need`. */
export function allows(role: ProjectRole, permissions: ProjectPermissions, need: ProjectNeed): boolean {
  if (need === 'manage') return runsProject(role);
  return permissions[NEED_PERMISSION[need]];
}

/** How a user relates to a project, from its owner and the user's membership role (null: not a member). */
export function roleFor(user: Actor, ownerId: number, memberRole: string | null | undefined): ProjectRole | null {
  if (ownerId === user.id) return 'owner';
  if (user.super_admin) return 'admin';
  if (memberRole == null) return null;
  return asMemberRole(memberRole);
}

/** The role and effective permissions of a user in a project, from its owner and their membership row (null: no access). */
export function accessFor(
  user: Actor,
  ownerId: number,
  member: { role: string | null; permissions?: unknown } | null | undefined,
): { role: ProjectRole; permissions: ProjectPermissions } | null {
  const role = roleFor(user, ownerId, member?.role);
  if (!role) return null;
  if (runsProject(role)) return { role, permissions: { ...ALL_PERMISSIONS } };
  return { role, permissions: memberPermissions(role, member?.permissions) };
}

type PermissionHolder = ProjectRole | { permissions: ProjectPermissions };
/** A bare role is judged by its default permissions (for callers that hold no membership row). */
const permissionsOf = (x: PermissionHolder): ProjectPermissions =>
  typeof x === 'string' ? (runsProject(x) ? ALL_PERMISSIONS : ROLE_DEFAULT_PERMISSIONS[asMemberRole(x)]) : x.permissions;

/** May add, change and delete sheets and visits. Pass the access (its permissions); a bare role reads its defaults. */
export const canEditSheets = (x: PermissionHolder) => permissionsOf(x).edit;
/** May add files (PDF plans, 360 photos, videos). */
export const canUpload = (x: PermissionHolder) => permissionsOf(x).upload;
/** May create, change and close snags. */
export const canManageSnagsOf = (x: PermissionHolder) => permissionsOf(x).manage_snags;
/** May invite and remove members, set their permissions and answer join requests. */
export const canManageTeam = (x: PermissionHolder) => permissionsOf(x).manage_team;
/** May change the project itself: owner or super admin. */
export const canManage = (role: ProjectRole) => runsProject(role);

/** The user's access to a project, or null when they may not even know it exists. */
export async function projectAccess(user: Actor, projectId: number, k: Db = db()): Promise<ProjectAccess | null> {
  const project = await projectById(k, projectId);
  if (!project) return null;
  const member =
    project.id_owner === user.id || user.super_admin
      ? null
      : await membershipOf(k, projectId, user.id);
  const a = accessFor(user, project.id_owner, member);
  if (!a) return null;
  return { project, role: a.role, permissions: a.permissions, canEditSheets: a.permissions.edit, canManage: runsProject(a.role) };
}

const REFUSALS: Record<ProjectNeed, string> = {
  read: 'You cannot view this project.',
  upload: 'You can view this project but not upload files to it.',
  'edit-sheets': 'You can view this project but not change its sheets.',
  'manage-snags': 'You can view this project but not manage its snags.',
  'manage-team': 'Only the project owner or a team manager can do this.',
  manage: 'Only the project owner can do this.',
};

/**
 * The project, if the user may do `need` with it. A project they cannot see
 * is a 404; one they can see but not change is a 403.
 */
export async function requireProject(user: Actor, projectId: number, need: ProjectNeed, k: Db = db()): Promise<ProjectAccess> {
  const access = await projectAccess(user, projectId, k);
  if (!access) throw notFound('Project not found.');
  if (!allows(access.role, access.permissions, need)) throw forbidden(REFUSALS[need]);
  return access;
}

/**
 * Whether a user may see a project: its owner, a member, or a super admin.
 * The Socket.IO gateway asks this before a socket joins `project:{id}`.
 */
export async function canAccessProject(userId: number, projectId: number): Promise<boolean> {
  const user = await activeUserById(db(), userId);
  if (!user) return false;
  return !!(await projectAccess(user, projectId));
}

/** The owner and every active member whose permissions include `permission` (the owner first). */
export async function projectPeopleWith(projectId: number, permission: ProjectPermission, k: Db = db()): Promise<number[]> {
  const owner = await ownerOfProject(k, projectId);
  if (!owner) return [];
  const members = await activeMemberPermissionRows(k, projectId);
  const allowed = members.filter((m) => memberPermissions(m.role, m.permissions)[permission]).map((m) => m.id_user);
  return [owner, ...allowed.filter((id) => id !== owner)];
}

/** The users who manage a project's team and hear of join requests. */
export const teamManagerIds = (projectId: number, k: Db = db()) => projectPeopleWith(projectId, 'manage_team', k);
