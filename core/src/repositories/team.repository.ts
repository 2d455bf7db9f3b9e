import type { MemberRole } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';
import type { PersonRow } from './users.repository.js';

/**
 * Every query of a project's team: its members (`project_members`, with
 * their role and permissions) and the owner on `projects`. Invitations are
 * in invitations.repository.ts, join requests in
 * join-requests.repository.ts. The services hold the rules.
 */

/** A member as the team lists them: the person, their membership's id, role, permissions and joining time. */
export type TeamMemberRow = PersonRow & { id_member: number; role: string; permissions: unknown; joined_at: Date };

/** A row of `project_members`. */
export interface MembershipRow {
  id: number;
  id_project: number;
  id_user: number;
  role: string;
  permissions: unknown;
}

/** The members of a project in the order they joined. */
export function teamMemberRows(k: Db, projectId: number): Promise<TeamMemberRow[]> {
  return k('project_members as pm')
    .join('users as u', 'u.id', 'pm.id_user')
    .where('pm.id_project', projectId)
    .orderBy('pm.created_at')
    .orderBy('pm.id')
    .select('u.id', 'u.username', 'u.first_name', 'u.last_name', 'u.email', 'u.avatar', 'pm.id as id_member', 'pm.role', 'pm.permissions', 'pm.created_at as joined_at');
}

/** A person's membership of a project; `lock` holds it for the rest of the transaction. */
export function membershipOf(k: Db, projectId: number, userId: number, lock = false): Promise<MembershipRow | undefined> {
  const q = k('project_members').where({ id_project: projectId, id_user: userId });
  if (lock) q.forUpdate();
  return q.first('id', 'id_project', 'id_user', 'role', 'permissions');
}

export function membershipById(k: Db, id: number): Promise<Pick<MembershipRow, 'id_project' | 'id_user'> | undefined> {
  return k('project_members').where({ id }).first('id_project', 'id_user');
}

/** A new role and the permissions stored beside it (what differs from the role's defaults). */
export async function setMembership(k: Db, id: number, role: MemberRole, permissions: object): Promise<void> {
  await k('project_members').where({ id }).update({ role, permissions: JSON.stringify(permissions), updated_at: new Date() });
}

export async function deleteMembershipById(k: Db, id: number): Promise<void> {
  await k('project_members').where({ id }).delete();
}

/** Ends a person's membership of a project; how many rows went (0: they were not a member). */
export function deleteMembership(k: Db, projectId: number, userId: number): Promise<number> {
  return k('project_members').where({ id_project: projectId, id_user: userId }).delete();
}

/**
 * Makes a person a member. `existing` says what happens when they already
 * are one: "keep" leaves their membership as it is, "replace" gives them
 * this role and permissions.
 */
export async function addMember(k: Db, row: { id_project: number; id_user: number; role: string; permissions: unknown }, existing: 'keep' | 'replace'): Promise<void> {
  const permissions = JSON.stringify(row.permissions ?? {});
  const insert = k('project_members').insert({ ...row, permissions }).onConflict(['id_project', 'id_user']);
  if (existing === 'keep') await insert.ignore();
  else await insert.merge({ role: row.role, permissions, updated_at: new Date() });
}

/** Locks a project's row for the rest of the transaction and reads its owner. */
export function lockProject(k: Db, projectId: number): Promise<{ id_owner: number }> {
  return k('projects').where({ id: projectId }).forUpdate().first('id_owner');
}

/** The project's owner, read without a lock. */
export async function projectOwnerId(k: Db, projectId: number): Promise<number> {
  return (await k('projects').where({ id: projectId }).first('id_owner')).id_owner;
}

export async function setProjectOwner(k: Db, projectId: number, ownerId: number): Promise<void> {
  await k('projects').where({ id: projectId }).update({ id_owner: ownerId, updated_at: new Date() });
}

/** Everyone in a project's team: the owner first, then the members. */
export async function teamUserIds(k: Db, projectId: number): Promise<number[]> {
  const project = await k('projects').where({ id: projectId }).first('id_owner');
  const members: { id_user: number }[] = await k('project_members').where({ id_project: projectId }).select('id_user');
  return [project?.id_owner, ...members.map((m) => m.id_user)].filter((id): id is number => !!id);
}

/** The members of a project whose accounts are active, with their role and permissions. */
export function activeMemberPermissionRows(k: Db, projectId: number): Promise<{ id_user: number; role: string; permissions: unknown }[]> {
  return k('project_members as pm').join('users as u', 'u.id', 'pm.id_user').where({ 'pm.id_project': projectId, 'u.active': true }).select('pm.id_user', 'pm.role', 'pm.permissions');
}
