import type { Plan, PlanMember, PlanSubscription, PlanUserRef } from '@sitewalk/proto';
import { iso, isoOrNull } from '../db/query-types.js';
import type { PlanRow, SubscriptionRow } from '../repositories/plans.repository.js';
import type { PlanMemberRow } from '../repositories/plan-members.repository.js';

/** How the API shows the rows of plans, subscriptions and plan members (proto/src/plans.ts). */

const userRef = (r: { id: number; username: string; email: string; first_name?: string | null; last_name?: string | null }): PlanUserRef => ({
  id: r.id,
  username: r.username,
  email: r.email,
  name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || r.username,
});

export const planDto = (r: PlanRow): Plan => ({
  id: r.id,
  name: r.name,
  description: r.description,
  price: Number(r.price),
  currency: r.currency,
  period: r.period,
  member_slots: r.member_slots,
  max_projects: r.max_projects,
  max_storage_mb: r.max_storage_mb,
  max_video_minutes: r.max_video_minutes,
  active: r.active,
  price_month_minor: r.price_month_minor ?? null,
  price_year_minor: r.price_year_minor ?? null,
  subscribers: Number(r.subscribers ?? 0),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export const subscriptionDto = (r: SubscriptionRow): PlanSubscription => ({
  id: r.id,
  id_plan: r.id_plan,
  plan_name: r.plan_name,
  owner: userRef({ id: r.owner_id, username: r.username, email: r.email, first_name: r.first_name, last_name: r.last_name }),
  expires_at: r.expires_at,
  slots_used: Number(r.slots_used),
  created_at: iso(r.created_at),
});

export const planMemberDto = (r: PlanMemberRow): PlanMember => ({
  id: r.id,
  id_subscription: r.id_subscription,
  id_user: r.id_user,
  user: r.id_user && r.username ? userRef({ id: r.id_user, username: r.username, email: r.user_email ?? r.email, first_name: r.first_name, last_name: r.last_name }) : null,
  email: r.email,
  role: r.role,
  status: r.status,
  plan_name: r.plan_name,
  id_owner: r.id_owner,
  created_at: iso(r.created_at),
  joined_at: isoOrNull(r.joined_at),
});
