import {
  ALL_PERMISSIONS,
  FIXED_PERMISSION_ROLES,
  asMemberRole,
  memberPermissions,
  projectRoom,
  userRoom,
  type MemberPermissions,
  type ProjectTeam,
  type removeMemberSchema,
  type TeamJoinRequest,
  type TeamMember,
  type updatePermissionsSchema,
} from '@sitewalk/proto';
import type { z } from 'zod';
import { db } from '../db/index.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { iso } from '../db/query-types.js';
import { removeUserFromRoom } from '../realtime/emitter.js';
import {
  addMember,
  deleteMembership,
  deleteMembershipById,
  lockProject,
  membershipById,
  membershipOf,
  setMembership,
  setProjectOwner,
  teamMemberRows,
} from '../repositories/team.repository.js';
import { pendingJoinRequestRows } from '../repositories/join-requests.repository.js';
import { pendingProjectInvitationRows } from '../repositories/invitations.repository.js';
import { personRow, userById } from '../repositories/users.repository.js';
import { projectAccess, requireProject } from './access.service.js';
import { fullName } from './users.service.js';
import { checkHandOver } from './plan-limits.service.js';
import { announceTeamChange, tellTeamMember } from './team-events.js';
import { canGrant, checkGrant, checkTouch } from './team-grants.js';
import { personRef, teamInvitationDtos, teamMemberDto } from './team-dto.js';
import type { Actor } from './actor.js';

/**
 * The members of a project's team: who they are, their role and
 * permissions, leaving, removal and handing the project over. Invitations
 * are in team-invitations.service.ts, join requests in join-requests.service.ts.
 */

type RemoveMemberRequest = z.infer<typeof removeMemberSchema>;
type UpdatePermissionsRequest = z.infer<typeof updatePermissionsSchema>;

const NOT_A_MEMBER = 'This person is not a member of the project.';

/** GET /team-members: the owner and members for every member; invitations and join requests for those who manage the team. */
export async function getTeam(user: Actor, projectId: number): Promise<ProjectTeam> {
  const access = await requireProject(user, projectId, 'read');
  const k = db();
  const manages = access.permissions.manage_team;
  const [owner, members, invitations, joinRequests] = await Promise.all([
    personRow(k, access.project.id_owner),
    teamMemberRows(k, projectId),
    manages ? pendingProjectInvitationRows(k, projectId).then((rows) => teamInvitationDtos(k, rows)) : Promise.resolve([]),
    manages ? pendingJoinRequestRows(k, projectId) : Promise.resolve([]),
  ]);
  return {
    id_project: projectId,
    owner: { id_member: null, user: personRef(owner), role: 'owner', permissions: { ...ALL_PERMISSIONS }, joined_at: null },
    members: members.map(teamMemberDto),
    invitations,
    join_requests: joinRequests.map((r): TeamJoinRequest => ({ id: r.request_id, id_project: projectId, user: personRef(r), created_at: iso(r.created_at) })),
    can_manage_team: manages,
    can_grant_admin: canGrant(access),
    can_leave: members.some((m) => m.id === user.id),
  };
}

/** GET /team-members/permissions: your own in any project you see; someone else's only for team managers. */
export async function getMemberPermissions(user: Actor, projectId: number, targetId?: number): Promise<MemberPermissions> {
  const access = await requireProject(user, projectId, 'read');
  const id = targetId ?? user.id;
  if (id === user.id) return { id_project: projectId, id_user: id, role: access.role as MemberPermissions['role'], permissions: access.permissions };
  if (!access.permissions.manage_team) throw forbidden('Only the project owner or a team manager can see the permissions of other members.');
  if (id === access.project.id_owner) return { id_project: projectId, id_user: id, role: 'owner', permissions: { ...ALL_PERMISSIONS } };
  const row = await membershipOf(db(), projectId, id);
  if (!row) throw notFound(NOT_A_MEMBER);
  return { id_project: projectId, id_user: id, role: asMemberRole(row.role), permissions: memberPermissions(row.role, row.permissions) };
}

/** PUT /team-members/update-permissions: a member's role and permissions, by the owner or a team manager. */
export async function updatePermissions(user: Actor, input: UpdatePermissionsRequest): Promise<TeamMember> {
  const result = await db().transaction(async (trx) => {
    const access = await requireProject(user, input.id_project, 'manage-team', trx);
    if (input.id_user === access.project.id_owner) throw badRequest('The owner has every permission; they cannot be changed.');
    if (input.id_user === user.id) throw badRequest('You cannot change your own role or permissions. Ask the project owner.');
    const row = await membershipOf(trx, input.id_project, input.id_user, true);
    if (!row) throw notFound(NOT_A_MEMBER);
    checkTouch(access, row);
    const role = input.role ?? asMemberRole(row.role);
    checkGrant(access, role, input.permissions);
    // A new role starts from its own defaults; otherwise the toggles add to what was stored.
    const stored = FIXED_PERMISSION_ROLES.includes(role) ? {} : { ...(input.role && input.role !== row.role ? {} : (row.permissions as object)), ...input.permissions };
    await setMembership(trx, row.id, role, stored);
    const [updated] = (await teamMemberRows(trx, input.id_project)).filter((m) => m.id_member === row.id);
    return teamMemberDto(updated!);
  });
  await announceTeamChange(input.id_project, 'member', [input.id_user]);
  return result;
}

/** POST /team-members/remove-team-member: by {id_project, id_user} or {id_member}; never the owner. */
export async function removeMember(user: Actor, input: RemoveMemberRequest): Promise<{ removed: true; id_project: number; id_user: number }> {
  let projectId: number;
  let targetId: number;
  if ('id_member' in input) {
    const row = await membershipById(db(), input.id_member);
    // A membership of a project the caller cannot see does not exist for them either.
    if (!row || !(await projectAccess(user, row.id_project))) throw notFound('Member not found.');
    projectId = row.id_project;
    targetId = row.id_user;
  } else {
    projectId = Number(input.id_project);
    targetId = Number(input.id_user);
  }
  const project = await db().transaction(async (trx) => {
    const access = await requireProject(user, projectId, 'manage-team', trx);
    if (targetId === access.project.id_owner) throw badRequest('The project owner cannot be removed.');
    if (targetId === user.id) throw badRequest('To leave the project, use Leave project.');
    const row = await membershipOf(trx, projectId, targetId, true);
    if (!row) throw notFound(NOT_A_MEMBER);
    checkTouch(access, row);
    await deleteMembershipById(trx, row.id);
    return access.project;
  });
  removeUserFromRoom(userRoom(targetId), projectRoom(projectId));
  await announceTeamChange(projectId, 'member', [targetId]);
  await tellTeamMember(
    targetId,
    { kind: 'team', title: 'Removed from a project', message: `You are no longer a member of the project "${project.name}".` },
    `team-removed-${projectId}-${targetId}-${Date.now()}`,
  );
  return { removed: true, id_project: projectId, id_user: targetId };
}

/** POST /team-members/leave-project: a member leaves; the owner must hand the project over first. */
export async function leaveProject(user: Actor, projectId: number): Promise<{ left: true; id_project: number }> {
  const access = await projectAccess(user, projectId);
  if (!access) throw notFound('Project not found.');
  if (access.role === 'owner') throw badRequest('As the owner you cannot leave this project. Hand it over to another member first.');
  if (!(await deleteMembership(db(), projectId, user.id))) throw badRequest('You are not a member of this project.');
  removeUserFromRoom(userRoom(user.id), projectRoom(projectId));
  await announceTeamChange(projectId, 'member', [user.id]);
  const who = await userById(db(), user.id);
  await tellTeamMember(
    access.project.id_owner,
    { kind: 'team', title: 'A member left', message: `${who ? fullName(who) : 'A member'} left the project "${access.project.name}".`, link: `/project/${projectId}` },
    `team-left-${projectId}-${user.id}-${Date.now()}`,
  );
  return { left: true, id_project: projectId };
}

/**
 * POST /team-members/transfer-ownership: the owner (or a super admin) hands
 * the project to a member; the former owner stays as a project admin.
 */
export async function transferOwnership(user: Actor, projectId: number, newOwnerId: number): Promise<ProjectTeam> {
  const { project, previous } = await db().transaction(async (trx) => {
    const access = await requireProject(user, projectId, 'manage', trx);
    await lockProject(trx, projectId);
    const previous = access.project.id_owner;
    if (newOwnerId === previous) throw badRequest('This person already owns the project.');
    const row = await membershipOf(trx, projectId, newOwnerId);
    if (!row) throw notFound(NOT_A_MEMBER);
    await checkHandOver(trx, user, projectId, newOwnerId);
    await deleteMembershipById(trx, row.id);
    await addMember(trx, { id_project: projectId, id_user: previous, role: 'project_admin', permissions: {} }, 'replace');
    await setProjectOwner(trx, projectId, newOwnerId);
    return { project: access.project, previous };
  });
  await announceTeamChange(projectId, 'member', [previous, newOwnerId]);
  await tellTeamMember(
    newOwnerId,
    { kind: 'team', title: 'You own a project now', message: `The project "${project.name}" was handed over to you.`, link: `/project/${projectId}` },
    `team-owner-${projectId}-${newOwnerId}-${Date.now()}`,
  );
  return getTeam(user, projectId);
}
