import { FIXED_PERMISSION_ROLES, MEMBER_ROLES, type MemberRole, type ProjectPermission, type ProjectTeam, type TeamMember } from '@sitewalk/proto';
import { tk } from './i18n-keys';

/**
 * What the Team card lets the signed-in user change, from the team as the
 * server sent it. The server checks the same rules (access.service); these
 * only keep the screen from offering what would be refused.
 */

export const PERMISSION_LABELS: Record<ProjectPermission, string> = {
  view: tk('View'),
  upload: tk('Upload files'),
  edit: tk('Edit sheets and visits'),
  manage_snags: tk('Manage snags'),
  manage_team: tk('Manage the team'),
};

export const ROLE_LABELS: Record<MemberRole | 'owner', string> = {
  owner: tk('Owner'),
  project_admin: tk('Project admin'),
  editor: tk('Editor'),
  viewer: tk('Viewer'),
  guest: tk('Guest'),
};

/** A project admin or a member who manages the team: only the owner may change them. */
const isManager = (m: TeamMember) => m.role === 'project_admin' || m.permissions.manage_team;

/** Whether the user may change this member at all (role, toggles, removal). */
export function canChangeMember(team: Pick<ProjectTeam, 'can_manage_team' | 'can_grant_admin'>, member: TeamMember, selfId: number): boolean {
  if (!team.can_manage_team || member.role === 'owner' || member.user.id === selfId) return false;
  return team.can_grant_admin || !isManager(member);
}

/** Whether one permission toggle of a member can be switched by the user. */
export function toggleEnabled(team: Pick<ProjectTeam, 'can_manage_team' | 'can_grant_admin'>, member: TeamMember, permission: ProjectPermission, selfId: number): boolean {
  if (!canChangeMember(team, member, selfId)) return false;
  if (permission === 'view') return false;
  if (member.role !== 'owner' && FIXED_PERMISSION_ROLES.includes(member.role)) return false;
  if (permission === 'manage_team' && !team.can_grant_admin) return false;
  return true;
}

/** The roles the user may give (only the owner names project admins). */
export const assignableRoles = (team: Pick<ProjectTeam, 'can_grant_admin'>): MemberRole[] =>
  MEMBER_ROLES.filter((r) => r !== 'project_admin' || team.can_grant_admin);
