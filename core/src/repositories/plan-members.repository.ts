import type { PlanMember, PlanMemberRole } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';

/**
 * Every query of `plan_members`: the people of a subscription and the
 * e-mail invitations that hold a slot until answered (status "invited",
 * no user yet). The services hold the rules and never write SQL.
 */

/** A member or invitation with its plan's name, the subscription's owner and the member's account. */
export type PlanMemberRow = Pick<PlanMember, 'id' | 'id_subscription' | 'id_user' | 'email' | 'role' | 'status' | 'plan_name' | 'id_owner'> & {
  created_at: Date;
  joined_at: Date | null;
  username: string | null;
  user_email: string | null;
  first_name: string | null;
  last_name: string | null;
};

/** Which members to read: one, those of a subscription, or the invitations waiting for a user's answer. */
export type PlanMemberFilter = { id: number } | { subscriptionId: number } | { invitedUserId: number };

/** Members in the order they were invited. */
export function planMemberRows(k: Db, where: PlanMemberFilter): Promise<PlanMemberRow[]> {
  const q = k('plan_members as m')
    .join('plan_subscriptions as s', 's.id', 'm.id_subscription')
    .join('plans as p', 'p.id', 's.id_plan')
    .leftJoin('users as u', 'u.id', 'm.id_user')
    .select('m.id', 'm.id_subscription', 'm.id_user', 'm.email', 'm.role', 'm.status', 'm.created_at', 'm.joined_at', 'p.name as plan_name', 's.id_owner', 'u.username', 'u.email as user_email', 'u.first_name', 'u.last_name')
    .orderBy('m.created_at')
    .orderBy('m.id');
  if ('id' in where) q.where('m.id', where.id);
  else if ('subscriptionId' in where) q.where('m.id_subscription', where.subscriptionId);
  // Sent to the e-mail of an active account, not yet answered.
  else q.where('m.status', 'invited').whereNull('m.id_user').whereRaw('lower(m.email) = (select lower(email) from users where id = ? and active)', [where.invitedUserId]);
  return q;
}

/** The signed-up members of a subscription. */
export async function memberUserIds(k: Db, subscriptionId: number): Promise<number[]> {
  const rows: { id_user: number | null }[] = await k('plan_members').where({ id_subscription: subscriptionId }).whereNotNull('id_user').select('id_user');
  return rows.map((r) => r.id_user!);
}

/** Whether the user is a member (or joined member) of any plan. */
export async function isPlanMember(k: Db, userId: number): Promise<boolean> {
  return !!(await k('plan_members').where({ id_user: userId }).first('id'));
}

/** How many slots a subscription's members and invitations take. */
export async function countPlanMembers(k: Db, subscriptionId: number): Promise<number> {
  return Number((await k('plan_members').where({ id_subscription: subscriptionId }).count<{ n: number }[]>({ n: '*' }).first())?.n ?? 0);
}

/** The role of an active member in a subscription, if they are one. */
export async function activeMemberRole(k: Db, subscriptionId: number, userId: number): Promise<PlanMemberRole | undefined> {
  return (await k('plan_members').where({ id_subscription: subscriptionId, id_user: userId, status: 'active' }).first('role'))?.role;
}

/** Writes an invitation to an e-mail; a second one to the same address fails with a unique violation. */
export async function insertPlanInvitation(k: Db, row: { id_subscription: number; email: string; invited_by: number }): Promise<number> {
  const [{ id }] = await k('plan_members').insert({ ...row, id_user: null, status: 'invited', joined_at: null }).returning('id');
  return id;
}

/** Turns a waiting invitation into the user's membership; 0 when it was answered meanwhile. */
export function joinFromInvitation(k: Db, id: number, userId: number): Promise<number> {
  return k('plan_members').where({ id, status: 'invited' }).whereNull('id_user').update({ id_user: userId, status: 'active', joined_at: k.fn.now() });
}

/** Deletes a waiting invitation (its slot is free again). */
export async function deletePlanInvitation(k: Db, id: number): Promise<void> {
  await k('plan_members').where({ id, status: 'invited' }).whereNull('id_user').delete();
}

/** Who sent the invitation a membership came from. */
export async function inviterOfMember(k: Db, id: number): Promise<number | null> {
  return (await k('plan_members').where({ id }).first('invited_by'))?.invited_by ?? null;
}

export async function setPlanMemberRole(k: Db, id: number, role: PlanMemberRole): Promise<void> {
  await k('plan_members').where({ id }).update({ role });
}

export async function deletePlanMember(k: Db, id: number): Promise<void> {
  await k('plan_members').where({ id }).delete();
}
