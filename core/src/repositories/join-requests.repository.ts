import type { MyJoinRequest } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';
import type { PersonRow } from './users.repository.js';

/**
 * Every query of `project_join_requests` and the project-code lookup they
 * start from. History rows stay after a decision, so a declined request's
 * time drives the cool-down. The services hold the rules.
 */

/** A join request with its project's name and code. */
export type JoinRequestRow = {
  id: number;
  id_project: number;
  id_user: number;
  status: MyJoinRequest['status'];
  created_at: Date;
  decided_at: Date | null;
  project_name: string;
  project_code: string;
};

const requestsOf = (k: Db, userId: number) =>
  k('project_join_requests as j').join('projects as p', 'p.id', 'j.id_project').where('j.id_user', userId).select('j.*', 'p.name as project_name', 'p.project_code');

/** The user's requests still pending or sent in the last 30 days, newest first (at most 100). */
export function recentJoinRequests(k: Db, userId: number): Promise<JoinRequestRow[]> {
  return requestsOf(k, userId)
    .where((w) => w.where('j.status', 'pending').orWhere('j.created_at', '>', new Date(Date.now() - 30 * 86_400_000)))
    .orderBy('j.created_at', 'desc')
    .orderBy('j.id', 'desc')
    .limit(100);
}

/** The user's newest request to join this project. */
export function lastJoinRequest(k: Db, userId: number, projectId: number): Promise<JoinRequestRow | undefined> {
  return requestsOf(k, userId).where('j.id_project', projectId).orderBy('j.id', 'desc').first();
}

/** The active project with this code (codes are stored in lower case). */
export function activeProjectByCode(k: Db, code: string): Promise<{ id: number; name: string; id_owner: number } | undefined> {
  return k('projects').where({ project_code: code.trim().toLowerCase(), active: true }).first('id', 'name', 'id_owner');
}

/** Writes a pending request; a second pending one fails with a unique violation. */
export async function insertJoinRequest(k: Db, projectId: number, userId: number): Promise<Omit<JoinRequestRow, 'project_name' | 'project_code'>> {
  const [row] = await k('project_join_requests').insert({ id_project: projectId, id_user: userId }).returning('*');
  return row;
}

/** The user withdraws their pending request; how many there were (0 or 1). */
export function cancelPendingJoinRequest(k: Db, projectId: number, userId: number): Promise<number> {
  return k('project_join_requests').where({ id_project: projectId, id_user: userId, status: 'pending' }).update({ status: 'cancelled', decided_at: new Date() });
}

/** The person's pending request to join the project, locked for the rest of the transaction. */
export function lockPendingJoinRequest(k: Db, projectId: number, userId: number): Promise<{ id: number } | undefined> {
  return k('project_join_requests').where({ id_project: projectId, id_user: userId, status: 'pending' }).forUpdate().first('id');
}

/** Records the decision on a request. */
export async function decideJoinRequestRow(k: Db, id: number, status: 'accepted' | 'declined', decidedBy: number): Promise<void> {
  await k('project_join_requests').where({ id }).update({ status, decided_at: new Date(), id_decided_by: decidedBy });
}

/** A join request waiting for a decision, with the person who sent it. */
export type PendingJoinRequestRow = PersonRow & { request_id: number; created_at: Date };

export function pendingJoinRequestRows(k: Db, projectId: number): Promise<PendingJoinRequestRow[]> {
  return k('project_join_requests as j')
    .join('users as u', 'u.id', 'j.id_user')
    .where({ 'j.id_project': projectId, 'j.status': 'pending' })
    .orderBy('j.created_at')
    .select('u.id', 'u.username', 'u.first_name', 'u.last_name', 'u.email', 'u.avatar', 'j.id as request_id', 'j.created_at');
}

/** Marks the person's pending join request accepted (they joined another way), decided by `decidedBy`. */
export async function acceptPendingJoinRequest(k: Db, projectId: number, userId: number, decidedBy: number | null): Promise<void> {
  await k('project_join_requests').where({ id_project: projectId, id_user: userId, status: 'pending' }).update({ status: 'accepted', decided_at: new Date(), id_decided_by: decidedBy });
}
