import type { Plan, PlanCreateRequest, PlanInfo, PlanMemberRole, PlanUpdateRequest, SubscriptionUpdateRequest } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';
import type { PlanUsageFigures } from '../services/plan-limits-rules.js';

/**
 * Every query of the plan catalogue (`plans`) and of the subscriptions that
 * give a user a plan until a date (`plan_subscriptions`), with the row types
 * they return. The services hold the rules and never write SQL.
 */

/** A row of `plans` with its subscriber count; the price as the driver returns a decimal. */
export type PlanRow = Omit<Plan, 'price' | 'created_at' | 'updated_at'> & { price: string; created_at: Date; updated_at: Date };

const PLAN_COLUMNS = [
  'p.id',
  'p.name',
  'p.description',
  'p.price',
  'p.currency',
  'p.period',
  'p.member_slots',
  'p.max_projects',
  'p.max_storage_mb',
  'p.max_video_minutes',
  'p.active',
  'p.price_month_minor',
  'p.price_year_minor',
  'p.created_at',
  'p.updated_at',
];

/** Every plan (or the one with this id), cheapest first, then by name. */
export function planRows(k: Db, id?: number): Promise<PlanRow[]> {
  const q = k('plans as p')
    .select(...PLAN_COLUMNS, k.raw('(select count(*) from plan_subscriptions s where s.id_plan = p.id)::int as subscribers'))
    .orderBy('p.price')
    .orderByRaw('lower(p.name)');
  if (id) q.where('p.id', id);
  return q;
}

/** Writes a new plan; a taken name fails with a unique violation. */
export async function insertPlan(k: Db, input: PlanCreateRequest): Promise<number> {
  const [row] = await k('plans').insert(input).returning('id');
  return row.id;
}

export async function updatePlanRow(k: Db, id: number, patch: PlanUpdateRequest): Promise<void> {
  await k('plans').where({ id }).update({ ...patch, updated_at: k.fn.now() });
}

/** Deletes a plan; one with subscribers fails with a foreign-key violation. */
export async function deletePlanRow(k: Db, id: number): Promise<void> {
  await k('plans').where({ id }).delete();
}

/** A subscription with its plan's name, its owner and the slots its members and invitations take. */
export interface SubscriptionRow {
  id: number;
  id_plan: number;
  plan_name: string;
  /** YYYY-MM-DD. */
  expires_at: string;
  created_at: Date;
  owner_id: number;
  username: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  slots_used: number;
}

/** The slots of subscription `s` its members and pending invitations take. */
const SLOTS_USED = `((select count(*) from plan_members m where m.id_subscription = s.id)
  + (select count(*) from invitations i where i.kind = 'plan' and i.id_subscription = s.id and i.status = 'pending'))`;

/** How many slots a subscription's members and pending invitations take. */
export async function slotsUsed(k: Db, subscriptionId: number): Promise<number> {
  return Number((await k('plan_subscriptions as s').where('s.id', subscriptionId).first(k.raw(`${SLOTS_USED}::int as n`)))?.n ?? 0);
}

/** The subscriptions with this id or of this plan, soonest expiry first. */
export function subscriptionRows(k: Db, where: { id: number } | { planId: number }): Promise<SubscriptionRow[]> {
  const q = k('plan_subscriptions as s')
    .join('plans as p', 'p.id', 's.id_plan')
    .join('users as u', 'u.id', 's.id_owner')
    .select(
      's.id',
      's.id_plan',
      'p.name as plan_name',
      k.raw(`to_char(s.expires_at, 'YYYY-MM-DD') as expires_at`),
      's.created_at',
      'u.id as owner_id',
      'u.username',
      'u.email',
      'u.first_name',
      'u.last_name',
      k.raw(`${SLOTS_USED}::int as slots_used`),
    )
    .orderBy('s.expires_at')
    .orderBy('s.id');
  if ('id' in where) q.where('s.id', where.id);
  else q.where('s.id_plan', where.planId);
  return q;
}

/** Writes a subscription; an owner who already has one fails with a unique violation. */
export async function insertSubscription(k: Db, row: { id_plan: number; id_owner: number; expires_at: string }): Promise<number> {
  const [{ id }] = await k('plan_subscriptions').insert(row).returning('id');
  return id;
}

export async function updateSubscriptionRow(k: Db, id: number, patch: SubscriptionUpdateRequest): Promise<void> {
  await k('plan_subscriptions').where({ id }).update({ ...patch, updated_at: k.fn.now() });
}

/** Deletes a subscription (its members and invitations go with it). */
export async function deleteSubscriptionRow(k: Db, id: number): Promise<void> {
  await k('plan_subscriptions').where({ id }).delete();
}

/** The users who subscribe to this plan. */
export async function ownersOfPlan(k: Db, planId: number): Promise<number[]> {
  const rows: { id_owner: number }[] = await k('plan_subscriptions').where({ id_plan: planId }).select('id_owner');
  return rows.map((r) => r.id_owner);
}

/** The subscription a user owns (role null), or belongs to as a member (with their role). */
export async function subscriptionOfUser(k: Db, userId: number): Promise<{ id: number; id_owner: number; role: PlanMemberRole | null } | null> {
  const owned = await k('plan_subscriptions').where({ id_owner: userId }).first('id', 'id_owner');
  if (owned) return { ...owned, role: null };
  const member = await k('plan_members as m').join('plan_subscriptions as s', 's.id', 'm.id_subscription').where({ 'm.id_user': userId }).first('s.id', 's.id_owner', 'm.role');
  return member ?? null;
}

/** What the profile shows of a subscription's plan: its terms and the expiry day (YYYY-MM-DD). */
export type SubscribedPlanRow = Pick<PlanInfo, 'id_plan' | 'name' | 'currency' | 'period' | 'expires_at' | 'max_projects' | 'max_storage_mb' | 'max_video_minutes'> & {
  price: string;
  member_slots: number;
};

export function subscribedPlan(k: Db, subscriptionId: number): Promise<SubscribedPlanRow> {
  return k('plan_subscriptions as s')
    .join('plans as p', 'p.id', 's.id_plan')
    .where('s.id', subscriptionId)
    .first('s.id_plan', 'p.name', 'p.price', 'p.currency', 'p.period', 'p.member_slots', 'p.max_projects', 'p.max_storage_mb', 'p.max_video_minutes', k.raw(`to_char(s.expires_at, 'YYYY-MM-DD') as expires_at`));
}

/**
 * Locks a subscription for the rest of the transaction and reads its plan's
 * name and slots, so two invitations at once cannot take the last slot twice.
 */
export function lockSubscriptionSlots(k: Db, subscriptionId: number): Promise<{ name: string; member_slots: number; id_owner: number }> {
  return k('plan_subscriptions as s').join('plans as p', 'p.id', 's.id_plan').where('s.id', subscriptionId).forUpdate('s').first('p.name', 'p.member_slots', 's.id_owner');
}

// ---- What billing reads and writes of plans and subscriptions ----

/** A plan of the catalogue as stored (no subscriber count; both prices are columns, null when not sold for that period). */
export type CataloguePlanRow = Omit<PlanRow, 'subscribers' | 'price_month_minor' | 'price_year_minor'> & { price_month_minor: number | null; price_year_minor: number | null };

/** The plan with this id if it is offered (active). */
export async function activePlanRow(k: Db, id: number): Promise<CataloguePlanRow | undefined> {
  return await k('plans').where({ id, active: true }).first();
}

/** The plans offered (active), by name. */
export function activePlanRows(k: Db): Promise<CataloguePlanRow[]> {
  return k('plans').where({ active: true }).orderBy('name');
}

/** A user's own subscription with its days as YYYY-MM-DD: the plan it runs, until when, and the bought plan waiting to start (if any). */
export interface OwnedSubscription {
  id: number;
  id_plan: number;
  expires_at: string;
  next_id_plan: number | null;
  next_plan_from: string | null;
}

/** The subscription the user owns (locked for the rest of the transaction with `lock`). */
export async function ownedSubscription(k: Db, userId: number, opts: { lock?: boolean } = {}): Promise<OwnedSubscription | undefined> {
  const q = k('plan_subscriptions')
    .where({ id_owner: userId })
    .first('id', 'id_plan', 'next_id_plan', k.raw(`to_char(expires_at, 'YYYY-MM-DD') as expires_at`), k.raw(`to_char(next_plan_from, 'YYYY-MM-DD') as next_plan_from`));
  if (opts.lock) q.forUpdate();
  return await q;
}

/** The plan a user runs, by name, and its expiry day: the one they own, or (`asMember`) the one they belong to as an active member. */
export async function runningPlanOf(k: Db, userId: number, asMember: boolean): Promise<{ id_plan: number; name: string; expires_at: string } | undefined> {
  const q = k('plan_subscriptions as s').join('plans as p', 'p.id', 's.id_plan');
  if (asMember) q.join('plan_members as m', 's.id', 'm.id_subscription').where({ 'm.id_user': userId, 'm.status': 'active' });
  else q.where('s.id_owner', userId);
  return await q.first('s.id_plan', 'p.name', k.raw(`to_char(s.expires_at, 'YYYY-MM-DD') as expires_at`));
}

/** Changes what billing changes of a subscription: its plan, expiry and the plan waiting to start. */
export async function patchSubscription(
  k: Db,
  id: number,
  patch: Partial<{ id_plan: number; expires_at: string; next_id_plan: number | null; next_plan_from: string | null }>,
): Promise<void> {
  await k('plan_subscriptions').where({ id }).update({ ...patch, updated_at: k.fn.now() });
}

/** Switches subscriptions whose bought plan starts on or before `today` to it; how many switched. */
export async function startWaitingPlanRows(k: Db, today: string): Promise<number> {
  return k('plan_subscriptions').whereNotNull('next_id_plan').where('next_plan_from', '<=', today).update({ id_plan: k.ref('next_id_plan'), next_id_plan: null, next_plan_from: null, updated_at: k.fn.now() });
}

/** Locks a subscription for the rest of the transaction, so one plan's additions take turns. */
export async function lockSubscription(k: Db, id: number): Promise<void> {
  await k('plan_subscriptions').where({ id }).forUpdate().first('id');
}

/** What the projects of these owners (or one project) hold: how many, the bytes uploaded into them and their video seconds. */
export async function usageOfProjects(k: Db, which: { ownerIds: number[] } | { projectId: number }): Promise<PlanUsageFigures> {
  const [projects, bindings] = 'ownerIds' in which ? ['id_owner = any(:ids)', { ids: which.ownerIds }] : ['id = :id', { id: which.projectId }];
  const { rows } = await k.raw(
    `with p as (select id, cover_bytes from projects where ${projects}),
          v as (select id from visits where id_project in (select id from p))
     select (select count(*) from p)::int as projects,
            (coalesce((select sum(cover_bytes) from p), 0)
           + coalesce((select sum(size_bytes) from pdf_uploads where id_project in (select id from p) and file_key is not null), 0)
           + coalesce((select sum(size_bytes) from rooms where id_visit in (select id from v) and id_video is null), 0)
           + coalesce((select sum(size_bytes) from videos where id_project in (select id from p)), 0)
           + coalesce((select sum(size_bytes) from annotation_files where id_visit in (select id from v)), 0)
           + coalesce((select sum(o.file_size) from pois o join rooms r on r.id = o.id_room where r.id_visit in (select id from v)), 0))::float8 as storage_bytes,
            coalesce((select sum(duration) from videos where id_project in (select id from p)), 0)::float8 as video_seconds`,
    bindings,
  );
  const r = rows[0];
  return { projects: Number(r.projects), storage_bytes: Number(r.storage_bytes), video_seconds: Number(r.video_seconds) };
}

/** Subscriptions whose expiry day lies between `from` and `to` (YYYY-MM-DD, both included), with their plan's name. */
export function subscriptionsExpiringBetween(k: Db, from: string, to: string): Promise<{ id: number; id_owner: number; expires_at: string; plan: string }[]> {
  return k('plan_subscriptions as s')
    .join('plans as p', 'p.id', 's.id_plan')
    .whereBetween('s.expires_at', [from, to])
    .select('s.id', 's.id_owner', k.raw(`to_char(s.expires_at, 'YYYY-MM-DD') as expires_at`), 'p.name as plan');
}

/** Records that a subscription's notice of this kind was sent for this expiry day; false when it already was. */
export async function claimPlanNotice(k: Db, subscriptionId: number, kind: string, periodEnd: string): Promise<boolean> {
  const inserted = await k('plan_notices').insert({ id_subscription: subscriptionId, kind, period_end: periodEnd }).onConflict(['id_subscription', 'kind', 'period_end']).ignore().returning('id_subscription');
  return inserted.length > 0;
}
