import type { PlanSubscription, SubscriptionCreateRequest, SubscriptionUpdateRequest } from '@sitewalk/proto';
import { notice } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { conflict, notFound } from '../errors.js';
import { isUniqueViolation, type Db } from '../db/query-types.js';
import { deleteSubscriptionRow, insertSubscription, subscriptionRows, updateSubscriptionRow } from '../repositories/plans.repository.js';
import { isPlanMember, memberUserIds } from '../repositories/plan-members.repository.js';
import { userByLogin } from '../repositories/users.repository.js';
import { subscriptionDto } from './plan-dto.js';
import { tellAboutPlan } from './plan-notify.js';
import { planOrNotFound } from './plans.service.js';
import { announceProfileChange } from './profile-events.js';

/**
 * Subscriptions: a super admin gives a user a plan until a date, renews or
 * moves it, or cancels it (routes check "super admin" first).
 */

async function subscriptionOrNotFound(k: Db, id: number): Promise<PlanSubscription> {
  const [row] = await subscriptionRows(k, { id });
  if (!row) throw notFound('Subscription not found.');
  return subscriptionDto(row);
}

/** POST /plans/{id}/subscriptions: a super admin gives a user (by username or e-mail) the plan until a date. */
export async function createSubscription(planId: number, input: SubscriptionCreateRequest): Promise<PlanSubscription> {
  const sub = await db().transaction(async (trx) => {
    const plan = await planOrNotFound(trx, planId);
    const who = input.user.trim();
    const user = await userByLogin(trx, who);
    if (!user) throw notFound(`No user is called "${who}" or has that e-mail.`);
    if (await isPlanMember(trx, user.id)) throw conflict(`${user.username} is a member of another plan. Remove them from it first.`);
    let id: number;
    try {
      id = await insertSubscription(trx, { id_plan: plan.id, id_owner: user.id, expires_at: input.expires_at });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`${user.username} already has a plan. Change that subscription instead.`);
      throw err;
    }
    return subscriptionOrNotFound(trx, id);
  });
  announceProfileChange(sub.owner.id);
  return sub;
}

/** PUT /plan-subscriptions/{id}: a new expiry date (a renewal) or another plan. */
export async function updateSubscription(id: number, patch: SubscriptionUpdateRequest): Promise<PlanSubscription> {
  const after = await db().transaction(async (trx) => {
    await subscriptionOrNotFound(trx, id);
    if (patch.id_plan) await planOrNotFound(trx, patch.id_plan);
    await updateSubscriptionRow(trx, id, patch);
    return subscriptionOrNotFound(trx, id);
  });
  announceProfileChange(after.owner.id, ...(await memberUserIds(db(), after.id)));
  await tellAboutPlan(
    after.owner.id,
    { kind: 'plan', ...notice('planChanged', { plan: after.plan_name, day: { day: after.expires_at } }), link: '/profile' },
    `plan-sub-${id}-${after.id_plan}-${after.expires_at}`,
    'notify_plan_changes',
  );
  return after;
}

/** DELETE /plan-subscriptions/{id}: the owner loses the plan, and its members with it. */
export async function cancelSubscription(id: number): Promise<{ id: number }> {
  const sub = await subscriptionOrNotFound(db(), id);
  const members = await memberUserIds(db(), id);
  await deleteSubscriptionRow(db(), id);
  announceProfileChange(sub.owner.id, ...members);
  await tellAboutPlan(sub.owner.id, { kind: 'plan', ...notice('planCancelled', { plan: sub.plan_name }), link: '/profile' }, `plan-cancel-${id}`, 'notify_plan_cancels');
  return { id };
}
