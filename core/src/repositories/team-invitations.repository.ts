import type { MyInvitation } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';

/**
 * Every query of `project_invitations`: an invitation always names a user
 * (an unknown e-mail gets an inactive account first) and keeps its status
 * after an answer. The services hold the rules.
 */

/** A row of `project_invitations`. */
export interface InvitationRow {
  id: number;
  id_project: number;
  id_user: number;
  role: string;
  permissions: unknown;
  id_invited_by: number | null;
  status: MyInvitation['status'];
  sent: boolean;
  created_at: Date;
}

/** The pending invitations of a project with the invited address, newest first. */
export function pendingInvitationRows(k: Db, projectId: number): Promise<(InvitationRow & { email: string })[]> {
  return k('project_invitations as i')
    .join('users as u', 'u.id', 'i.id_user')
    .where({ 'i.id_project': projectId, 'i.status': 'pending' })
    .orderBy('i.created_at', 'desc')
    .select('i.*', 'u.email');
}

/** Whether this person has an invitation to the project waiting for an answer. */
export async function hasPendingInvitation(k: Db, projectId: number, userId: number): Promise<boolean> {
  return !!(await k('project_invitations').where({ id_project: projectId, id_user: userId, status: 'pending' }).first('id'));
}

/** Writes a pending invitation; a second pending one for the same person fails with a unique violation. */
export async function insertInvitation(k: Db, row: { id_project: number; id_user: number; role: string; permissions: object; id_invited_by: number }): Promise<InvitationRow> {
  const [invitation] = await k('project_invitations')
    .insert({ ...row, permissions: JSON.stringify(row.permissions) })
    .returning('*');
  return invitation;
}

/** Records whether the mail or notification of an invitation could be queued. */
export async function markInvitationSent(k: Db, id: number, sent: boolean): Promise<void> {
  await k('project_invitations').where({ id }).update({ sent });
}

/** Cancels this person's pending invitation to the project; how many there were (0 or 1). */
export function cancelPendingInvitation(k: Db, projectId: number, userId: number): Promise<number> {
  return k('project_invitations').where({ id_project: projectId, id_user: userId, status: 'pending' }).update({ status: 'cancelled', responded_at: new Date() });
}

/** Marks the person's pending invitation to the project accepted (they joined another way). */
export async function acceptPendingInvitation(k: Db, projectId: number, userId: number): Promise<void> {
  await k('project_invitations').where({ id_project: projectId, id_user: userId, status: 'pending' }).update({ status: 'accepted', responded_at: new Date() });
}

/** An invitation as its invited person sees it, with the project's name and code. */
export type MyInvitationRow = InvitationRow & { project_name: string; project_code: string };

/** A user's invitations: the pending ones newest first (at most 200), or the one with this id. */
export function myInvitationRows(k: Db, userId: number, which: 'pending' | { id: number }): Promise<MyInvitationRow[]> {
  const q = k('project_invitations as i').join('projects as p', 'p.id', 'i.id_project').where('i.id_user', userId).select('i.*', 'p.name as project_name', 'p.project_code');
  if (which === 'pending') q.where('i.status', 'pending').orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(200);
  else q.where('i.id', which.id);
  return q;
}

/** The user's invitation with this id, locked for the rest of the transaction. */
export function lockInvitationOf(k: Db, id: number, userId: number): Promise<InvitationRow | undefined> {
  return k('project_invitations').where({ id, id_user: userId }).forUpdate().first();
}

/** Records the invited person's answer. */
export async function answerInvitationRow(k: Db, id: number, status: 'accepted' | 'declined'): Promise<void> {
  await k('project_invitations').where({ id }).update({ status, responded_at: new Date() });
}
