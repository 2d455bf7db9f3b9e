import { PLAN_LIMIT_STATUS } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { HttpError } from '../errors.js';
import { daysBetween } from './plan-expiry-rules.js';
import { siteToday } from './site-today.js';
import { planRefusal, type PlanAddition, type PlanLimits, type PlanRefusal, type PlanUsageFigures } from './plan-limits-rules.js';
import type { Actor } from './actor.js';
import { type Db } from '../db/query-types.js';
import { lockSubscription, subscribedPlan, subscriptionOfUser, usageOfProjects } from '../repositories/plans.repository.js';
import { ownerOfProject } from '../repositories/projects.repository.js';
import { memberUserIds } from '../repositories/plan-members.repository.js';

/**
 * Enforces the limits of subscription plans (projects, storage, video
 * minutes) where people create things. One place decides, every creating
 * service calls it:
 *
 * - A plan covers its owner and its active members: together they share its
 *   limits, and usage is what lies in the projects any of them owns.
 * - A project counts against its owner's plan, whoever uploads into it.
 * - Someone without a plan has no limits (a self-hosted SiteWalk that gives
 *   no plans keeps working as before); a null limit is no limit.
 * - An expired plan lets nothing new be added until it is renewed.
 * - Super administrators are never refused (they can change the plan anyway).
 *
 * Refusals answer 403 with the reason (PLAN_LIMIT_STATUS). Storage is what
 * people uploaded (PDFs, 360 photos, videos, snag and point-of-interest
 * files, project covers as stored), not the tiles SiteWalk makes from them.
 */

export interface UserPlan extends PlanLimits {
  id_subscription: number;
  id_owner: number;
  /** The owner and the active members: the people sharing the plan. */
  user_ids: number[];
}

/** The plan a user owns or belongs to (as an active member), with its limits; null without one. */
export async function planOfUser(k: Db, userId: number): Promise<UserPlan | null> {
  const sub = await subscriptionOfUser(k, userId);
  if (!sub) return null;
  const row = await subscribedPlan(k, sub.id);
  const members = await memberUserIds(k, sub.id);
  const today = await siteToday(k);
  return {
    id_subscription: sub.id,
    id_owner: sub.id_owner,
    user_ids: [sub.id_owner, ...members],
    name: row.name,
    max_projects: row.max_projects == null ? null : Number(row.max_projects),
    max_storage_mb: row.max_storage_mb == null ? null : Number(row.max_storage_mb),
    max_video_minutes: row.max_video_minutes == null ? null : Number(row.max_video_minutes),
    expires_at: row.expires_at,
    expired: daysBetween(today, row.expires_at) <= 0,
  };
}

/** What the people of a plan use: their projects, the bytes uploaded into them and the minutes of their videos. */
export const planUsage = (k: Db, userIds: number[]): Promise<PlanUsageFigures> => usageOfProjects(k, { ownerIds: userIds });

/** What one project holds (1 project, its bytes and video seconds). */
export const projectUsage = (k: Db, projectId: number): Promise<PlanUsageFigures> => usageOfProjects(k, { projectId });

/** A refusal becomes the 403 answer: the English reason, and its figures for the client. */
function refuseIf(refusal: PlanRefusal | null): void {
  if (!refusal) return;
  const { message, ...detail } = refusal;
  throw new HttpError(PLAN_LIMIT_STATUS, message, { plan_limit: detail });
}

async function enforce(k: Db, actor: Actor, planHolder: number, add: PlanAddition): Promise<void> {
  if (actor.super_admin) return;
  const plan = await planOfUser(k, planHolder);
  if (!plan) return;
  // Inside the writing transaction, one plan's additions take turns, so two uploads at once cannot both take the last megabytes.
  if (k.isTransaction) await lockSubscription(k, plan.id_subscription);
  refuseIf(planRefusal(plan, await planUsage(k, plan.user_ids), add, plan.user_ids.includes(actor.id) ? 'ours' : 'owner'));
}

/** Refuses (403) a new project the actor's plan has no room for. */
export async function checkProjectAllowed(k: Db, actor: Actor): Promise<void> {
  await enforce(k, actor, actor.id, { projects: 1 });
}

/**
 * Refuses (403) storage or video minutes the plan of the project's owner has
 * no room for. Call it before storing the file (a quick refusal, nothing
 * written) and again inside the transaction that records it (under the
 * plan's lock), removing the stored file when that refuses.
 */
export async function checkProjectAddition(k: Db, actor: Actor, projectId: number, add: PlanAddition): Promise<void> {
  if (actor.super_admin) return;
  const owner = await ownerOfProject(k, projectId);
  if (!owner) return;
  await enforce(k, actor, owner, add);
}

/**
 * Refuses (403) handing a project over to someone whose plan has no room for
 * it: one more project, its storage and its video minutes. Nothing moves
 * when both owners share the plan.
 */
export async function checkHandOver(k: Db, actor: Actor, projectId: number, newOwnerId: number): Promise<void> {
  if (actor.super_admin) return;
  const plan = await planOfUser(k, newOwnerId);
  if (!plan) return;
  const owner = await ownerOfProject(k, projectId);
  if (!owner || plan.user_ids.includes(owner)) return;
  if (k.isTransaction) await lockSubscription(k, plan.id_subscription);
  refuseIf(planRefusal(plan, await planUsage(k, plan.user_ids), await projectUsage(k, projectId), 'new_owner'));
}

/** Usage of the plan a user owns or belongs to, for the Plan card (null without a plan). */
export async function usageOfUserPlan(userId: number, k: Db = db()): Promise<PlanUsageFigures | null> {
  const plan = await planOfUser(k, userId);
  return plan ? planUsage(k, plan.user_ids) : null;
}
