import { FIXED_PERMISSION_ROLES, asMemberRole, memberPermissions, type MemberRole, type PermissionsPatch } from '@sitewalk/proto';
import { badRequest, forbidden } from '../errors.js';
import type { ProjectAccess } from './access.service.js';

/** What people read for a role in notifications and mails. */
export const ROLE_NAMES: Record<MemberRole, string> = { project_admin: 'project admin', editor: 'editor', viewer: 'viewer', guest: 'guest' };

const OWNER_ONLY_GRANT = 'Only the project owner can name project admins or let members manage the team.';

/** The owner or a super admin: they alone name project admins, grant manage_team and hand the project over. */
export const canGrant = (access: ProjectAccess) => access.role === 'owner' || access.role === 'admin';

/** Refuses what only the owner may grant, and permissions a fixed role cannot have. */
export function checkGrant(access: ProjectAccess, role: MemberRole, permissions: PermissionsPatch | undefined): void {
  if (!canGrant(access) && (role === 'project_admin' || permissions?.manage_team === true)) throw forbidden(OWNER_ONLY_GRANT);
  if (permissions && Object.keys(permissions).length && FIXED_PERMISSION_ROLES.includes(role)) {
    throw badRequest(`A ${ROLE_NAMES[role]} has the permissions of the role. Choose the editor or viewer role to set them one by one.`);
  }
  if (permissions?.view === false) throw badRequest('Every member can view the project. Remove the member instead.');
}

/** A manager who is not the owner may not change project admins or members who manage the team. */
export function checkTouch(access: ProjectAccess, target: { role: string; permissions: unknown }): void {
  if (canGrant(access)) return;
  if (asMemberRole(target.role) === 'project_admin' || memberPermissions(target.role, target.permissions).manage_team) throw forbidden(OWNER_ONLY_GRANT);
}
