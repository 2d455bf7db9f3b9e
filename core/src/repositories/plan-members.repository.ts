import type { PlanMember, PlanMemberRole } from '@sitewalk/proto';
import type { Knex } from 'knex';
import type { Db } from '../db/query-types.js';

/**
 * Every query of `plan_members`: the people who joined a subscription's
 * plan, each under the id of the invitation they accepted (invitations are
 * in invitations.repository.ts). The services hold the rules and never
 * write SQL.
 */

/** A member or pending invitation with its plan's name, the subscription's owner and the member's account. */
export type PlanMemberRow = Pick<PlanMember, 'id' | 'id_subscription' | 'id_user' | 'email' | 'role' | 'status' | 'plan_name' | 'id_owner'> & {
  created_at: Date;
  joined_at: Date | null;
  username: string | null;
  user_email: string | null;
  first_name: string | null;
  last_name: string | null;
};

/**
 * Reads members (`plan_members`) or invitations (`invitations`, aliased m)
 * as the plan's people are shown, in the order they were invited.
 */
export function planPeopleQuery(k: Db, from: 'plan_members' | 'invitations'): Knex.QueryBuilder {
  const invitations = from === 'invitations';
  return k(`${from} as m`)
    .join('plan_subscriptions as s', 's.id', 'm.id_subscription')
    .join('plans as p', 'p.id', 's.id_plan')
    .leftJoin('users as u', 'u.id', 'm.id_user')
    .select(
      'm.id',
      'm.id_subscription',
      'm.id_user',
      'm.email',
      'm.role',
      invitations ? k.raw(`'invited' as status`) : 'm.status',
      'm.created_at',
      invitations ? k.raw('null::timestamptz as joined_at') : 'm.joined_at',
      'p.name as plan_name',
      's.id_owner',
      'u.username',
      'u.email as user_email',
      'u.first_name',
      'u.last_name',
    )
    .orderBy('m.created_at')
    .orderBy('m.id');
}

/** The members with this id or of a subscription. */
export function planMemberRows(k: Db, where: { id: number } | { subscriptionId: number }): Promise<PlanMemberRow[]> {
  const q = planPeopleQuery(k, 'plan_members');
  if ('id' in where) q.where('m.id', where.id);
  else q.where('m.id_subscription', where.subscriptionId);
  return q;
}

/** Whether a member of the subscription joined with this address. */
export async function hasMemberWithEmail(k: Db, subscriptionId: number, email: string): Promise<boolean> {
  return !!(await k('plan_members').where({ id_subscription: subscriptionId }).whereRaw('lower(email) = lower(?)', [email]).first('id'));
}

/**
 * Makes the person who accepted a plan invitation a member, under the
 * invitation's id (the API shows them as one); someone already in a plan
 * fails with a unique violation.
 */
export async function insertMemberFromInvitation(
  k: Db,
  invitation: { id: number; id_subscription: number; email: string; role: string; invited_by: number | null; created_at: Date },
  userId: number,
): Promise<void> {
  await k('plan_members').insert({ ...invitation, id_user: userId, status: 'active', joined_at: k.fn.now() });
}

/** The members of a subscription. */
export async function memberUserIds(k: Db, subscriptionId: number): Promise<number[]> {
  const rows: { id_user: number }[] = await k('plan_members').where({ id_subscription: subscriptionId }).select('id_user');
  return rows.map((r) => r.id_user);
}

/** Whether the user is a member of any plan. */
export async function isPlanMember(k: Db, userId: number): Promise<boolean> {
  return !!(await k('plan_members').where({ id_user: userId }).first('id'));
}

/** The role of a member in a subscription, if they are one. */
export async function activeMemberRole(k: Db, subscriptionId: number, userId: number): Promise<PlanMemberRole | undefined> {
  return (await k('plan_members').where({ id_subscription: subscriptionId, id_user: userId }).first('role'))?.role;
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
