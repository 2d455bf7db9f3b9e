import type { Plan, PlanCreateRequest, PlanDetail, PlanUpdateRequest } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { conflict, notFound } from '../errors.js';
import { isForeignKeyViolation, isUniqueViolation, type Db } from '../db/query-types.js';
import { deletePlanRow, insertPlan, ownersOfPlan, planRows, subscriptionRows, updatePlanRow } from '../repositories/plans.repository.js';
import { planDto, subscriptionDto } from './plan-dto.js';
import { tellAboutPlan } from './plan-notify.js';
import { announceProfileChange } from './profile-events.js';

/**
 * The catalogue of subscription plans, kept by super admins (routes check
 * "super admin" before calling these). Subscriptions are in
 * subscriptions.service.ts, the people of a plan in plan-members.service.ts.
 */

const duplicatePlan = (name: string) => `A plan named "${name}" already exists.`;

async function uniquePlanName<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(duplicatePlan(name ?? ''));
    throw err;
  }
}

export const listPlans = async (): Promise<Plan[]> => (await planRows(db())).map(planDto);

/** The plan with this id, or a 404. */
export async function planOrNotFound(k: Db, id: number): Promise<Plan> {
  const [row] = await planRows(k, id);
  if (!row) throw notFound('Plan not found.');
  return planDto(row);
}

export async function getPlan(id: number): Promise<PlanDetail> {
  const k = db();
  const plan = await planOrNotFound(k, id);
  return { ...plan, subscriptions: (await subscriptionRows(k, { planId: id })).map(subscriptionDto) };
}

export async function createPlan(input: PlanCreateRequest): Promise<Plan> {
  const id = await uniquePlanName(input.name, () => insertPlan(db(), input));
  return planOrNotFound(db(), id);
}

/** PUT /plans/{id}; owners of the plan hear of a change to what they pay or get. */
export async function updatePlan(id: number, patch: PlanUpdateRequest): Promise<Plan> {
  const before = await planOrNotFound(db(), id);
  await uniquePlanName(patch.name, () => updatePlanRow(db(), id, patch));
  const after = await planOrNotFound(db(), id);
  const felt = (['price', 'currency', 'period', 'member_slots', 'max_projects', 'max_storage_mb', 'max_video_minutes', 'active'] as const).some(
    (f) => before[f] !== after[f],
  );
  if (felt) await tellPlanChanged(after);
  return after;
}

export async function deletePlan(id: number): Promise<{ id: number }> {
  const plan = await planOrNotFound(db(), id);
  if (plan.subscribers > 0) {
    throw conflict(`The plan "${plan.name}" has ${plan.subscribers} subscriber(s). Move or cancel their subscriptions first, or set the plan inactive.`);
  }
  try {
    await deletePlanRow(db(), id);
  } catch (err) {
    // A subscription made in the meantime.
    if (isForeignKeyViolation(err)) throw conflict(`The plan "${plan.name}" has subscribers. Move or cancel their subscriptions first.`);
    throw err;
  }
  return { id };
}

async function tellPlanChanged(plan: Plan) {
  const owners = await ownersOfPlan(db(), plan.id);
  const stamp = new Date(plan.updated_at).getTime();
  announceProfileChange(...owners);
  for (const owner of owners) {
    await tellAboutPlan(
      owner,
      { kind: 'plan', title: 'Your plan changed', message: `The plan "${plan.name}" now costs ${plan.price} ${plan.currency} per ${plan.period} with ${plan.member_slots} member slot(s).`, link: '/profile' },
      `plan-changed-${plan.id}-${stamp}`,
      'notify_plan_changes',
    );
  }
}
