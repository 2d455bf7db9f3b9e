import type { MyInvitation } from '@sitewalk/proto';
import type { Knex } from 'knex';
import type { Db } from '../db/query-types.js';
import { planPeopleQuery, type PlanMemberRow } from './plan-members.repository.js';

/**
 * Every query of `invitations`: invitations into a project's team (kind
 * "project", naming an account) and into a subscription plan (kind "plan",
 * naming an e-mail address until an account answers). A row keeps its
 * status after an answer. The services hold the rules.
 */

export type InvitationKind = 'project' | 'plan';
export type InvitationStatus = MyInvitation['status'];

/** What an invitation is into. */
export type InvitationTarget = { kind: 'project'; id_project: number } | { kind: 'plan'; id_subscription: number };

/** Who an invitation is for: an account (into a project) or an e-mail address (into a plan). */
export type Invitee = { id_user: number } | { email: string };

/** A row of `invitations`. */
export interface InvitationRow {
  id: number;
  kind: InvitationKind;
  id_project: number | null;
  id_subscription: number | null;
  /** A project invitation's account; for a plan, the account that answered. */
  id_user: number | null;
  /** A plan invitation's address (null for a project's: its account has one). */
  email: string | null;
  role: string;
  permissions: unknown;
  invited_by: number | null;
  status: InvitationStatus;
  sent: boolean;
  created_at: Date;
  responded_at: Date | null;
}

/** A project invitation: it always names an account. */
export type ProjectInvitationRow = InvitationRow & { kind: 'project'; id_project: number; id_user: number };

const ofTarget = (q: Knex.QueryBuilder, t: InvitationTarget, alias = 'invitations') =>
  t.kind === 'project' ? q.where({ [`${alias}.kind`]: 'project', [`${alias}.id_project`]: t.id_project }) : q.where({ [`${alias}.kind`]: 'plan', [`${alias}.id_subscription`]: t.id_subscription });

const ofInvitee = (q: Knex.QueryBuilder, who: Invitee) => ('id_user' in who ? q.where('id_user', who.id_user) : q.whereRaw('lower(email) = lower(?)', [who.email]));

/**
 * The invitations addressed to a user: a project's to their account; a
 * plan's to the address of their active account while it waits, which is
 * how one sent before the account existed reaches it (whichever way the
 * account was made), and to their account once they answered.
 */
function addressedTo(q: Knex.QueryBuilder, userId: number, alias: string): Knex.QueryBuilder {
  return q.where((w) =>
    w
      .where(`${alias}.id_user`, userId)
      .orWhere((p) =>
        p
          .where(`${alias}.kind`, 'plan')
          .whereNull(`${alias}.id_user`)
          .whereRaw(`lower(${alias}.email) = (select lower(email) from users where id = ? and active)`, [userId]),
      ),
  );
}

function pendingOf(k: Db, target: InvitationTarget, who: Invitee): Knex.QueryBuilder {
  return ofInvitee(ofTarget(k('invitations'), target).where('status', 'pending'), who);
}

/** Whether this person has an invitation to the target waiting for an answer. */
export async function hasPendingInvitation(k: Db, target: InvitationTarget, who: Invitee): Promise<boolean> {
  return !!(await pendingOf(k, target, who).first('id'));
}

/** Writes a pending invitation; a second pending one for the same target and person fails with a unique violation. */
export async function insertInvitation(k: Db, target: InvitationTarget, who: Invitee, terms: { role: string; permissions?: object; invited_by: number }): Promise<InvitationRow> {
  const [row] = await k('invitations')
    .insert({ ...target, ...who, role: terms.role, permissions: JSON.stringify(terms.permissions ?? {}), invited_by: terms.invited_by })
    .returning('*');
  return row;
}

/** Records whether the mail or notification of an invitation could be queued. */
export async function markInvitationSent(k: Db, id: number, sent: boolean): Promise<void> {
  await k('invitations').where({ id }).update({ sent });
}

/** Closes this person's pending invitation to the target (cancelled, or accepted another way); how many there were (0 or 1). */
export function closePendingInvitation(k: Db, target: InvitationTarget, who: Invitee, status: 'accepted' | 'cancelled'): Promise<number> {
  return pendingOf(k, target, who).update({ status, responded_at: new Date() });
}

/** Closes one pending invitation with an answer or a cancellation (`answeredBy`: the account that answered); whether it was pending. */
export async function closeInvitation(k: Db, id: number, status: Exclude<InvitationStatus, 'pending'>, answeredBy?: number): Promise<boolean> {
  const closed = await k('invitations')
    .where({ id, status: 'pending' })
    .update({ status, responded_at: new Date(), ...(answeredBy ? { id_user: answeredBy } : {}) });
  return closed > 0;
}

/** A new role for a pending invitation (the person joins with it); whether it was still pending. */
export async function setInvitationRole(k: Db, id: number, role: string): Promise<boolean> {
  return (await k('invitations').where({ id, status: 'pending' }).update({ role })) > 0;
}

/** The invitation of this kind with this id if it is addressed to the user, locked for the rest of the transaction. */
export function lockInvitationFor(k: Db, kind: InvitationKind, id: number, userId: number): Promise<InvitationRow | undefined> {
  return addressedTo(k('invitations as i').where({ 'i.id': id, 'i.kind': kind }), userId, 'i')
    .forUpdate()
    .first('i.*');
}

/** The pending invitations of a project with the invited account's address, newest first. */
export function pendingProjectInvitationRows(k: Db, projectId: number): Promise<(ProjectInvitationRow & { email: string })[]> {
  return ofTarget(k('invitations as i'), { kind: 'project', id_project: projectId }, 'i')
    .join('users as u', 'u.id', 'i.id_user')
    .where('i.status', 'pending')
    .orderBy('i.created_at', 'desc')
    .select('i.id', 'i.kind', 'i.id_project', 'i.id_user', 'u.email', 'i.role', 'i.permissions', 'i.invited_by', 'i.status', 'i.sent', 'i.created_at', 'i.responded_at');
}

/** A project invitation as its invited person sees it, with the project's name and code. */
export type MyInvitationRow = ProjectInvitationRow & { project_name: string; project_code: string };

/** A user's project invitations: the pending ones newest first (at most 200), or the one with this id. */
export function myProjectInvitationRows(k: Db, userId: number, which: 'pending' | { id: number }): Promise<MyInvitationRow[]> {
  const q = k('invitations as i')
    .join('projects as p', 'p.id', 'i.id_project')
    .where({ 'i.kind': 'project', 'i.id_user': userId })
    .select('i.*', 'p.name as project_name', 'p.project_code');
  if (which === 'pending') q.where('i.status', 'pending').orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(200);
  else q.where('i.id', which.id);
  return q;
}

/** Which pending plan invitations to read: one, those of a subscription, or those waiting for a user's answer. */
export type PlanInvitationFilter = { id: number } | { subscriptionId: number } | { invitedUserId: number };

/** Pending plan invitations as the plan's people are shown, in the order they were sent. */
export function pendingPlanInvitationRows(k: Db, where: PlanInvitationFilter): Promise<PlanMemberRow[]> {
  const q = planPeopleQuery(k, 'invitations').where({ 'm.kind': 'plan', 'm.status': 'pending' });
  if ('id' in where) q.where('m.id', where.id);
  else if ('subscriptionId' in where) q.where('m.id_subscription', where.subscriptionId);
  else addressedTo(q, where.invitedUserId, 'm');
  return q;
}
