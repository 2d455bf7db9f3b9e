import type { Knex } from 'knex';
import type {
  Plan,
  PlanCreateRequest,
  PlanDetail,
  PlanInfo,
  PlanMember,
  PlanMemberRole,
  PlanMembersView,
  PlanSlot,
  PlanSubscription,
  PlanUpdateRequest,
  PlanUserRef,
  SubscriptionCreateRequest,
  SubscriptionUpdateRequest,
} from '@sitewalk/proto';
import { db } from '../db/index.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { queueMail } from '../mail/mail-queue.js';
import { notify, notifySuperAdmins, type NotifyInput } from './notifications.service.js';
import { getSettings } from './settings.service.js';
import { dayInZone, daysBetween } from './plan-expiry-rules.js';
import { usageOfUserPlan } from './plan-limits.service.js';

/**
 * Subscription plans: the catalogue (super admins), the subscriptions that
 * give a user a plan until a date, and the people a plan owner lets use it.
 * Routes check "super admin" before calling the catalogue functions; the
 * member functions decide here who may see and change what (a member of
 * another plan is not found).
 */

type Actor = { id: number; super_admin: boolean };
type Db = Knex | Knex.Transaction;
const iso = (d: Date | string) => new Date(d).toISOString();
const num = (v: unknown) => (v == null ? null : Number(v));

const isCode = (err: unknown, code: string) =>
  (err as { code?: string }).code === code || (err as { nativeError?: { code?: string } }).nativeError?.code === code;

// ---- The catalogue ----

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
  'p.created_at',
  'p.updated_at',
];

type PlanRow = Omit<Plan, 'price' | 'created_at' | 'updated_at'> & { price: string; created_at: Date; updated_at: Date };

const planDto = (r: PlanRow): Plan => ({
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
  subscribers: Number(r.subscribers ?? 0),
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

function planRows(k: Db, id?: number): Promise<PlanRow[]> {
  const q = k('plans as p')
    .select(...PLAN_COLUMNS, k.raw('(select count(*) from plan_subscriptions s where s.id_plan = p.id)::int as subscribers'))
    .orderBy('p.price')
    .orderByRaw('lower(p.name)');
  if (id) q.where('p.id', id);
  return q;
}

const duplicatePlan = (name: string) => `A plan named "${name}" already exists.`;

async function uniquePlanName<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isCode(err, '23505')) throw conflict(duplicatePlan(name ?? ''));
    throw err;
  }
}

export const listPlans = async (): Promise<Plan[]> => (await planRows(db())).map(planDto);

async function planOrNotFound(k: Db, id: number): Promise<Plan> {
  const [row] = await planRows(k, id);
  if (!row) throw notFound('Plan not found.');
  return planDto(row);
}

export async function getPlan(id: number): Promise<PlanDetail> {
  const k = db();
  const plan = await planOrNotFound(k, id);
  return { ...plan, subscriptions: await subscriptionRows(k, (q) => q.where('s.id_plan', id)) };
}

export async function createPlan(input: PlanCreateRequest): Promise<Plan> {
  const [row] = await uniquePlanName(input.name, () => db()('plans').insert(input).returning('id'));
  return planOrNotFound(db(), row.id);
}

/** PUT /plans/{id}; owners of the plan hear of a change to what they pay or get. */
export async function updatePlan(id: number, patch: PlanUpdateRequest): Promise<Plan> {
  const before = await planOrNotFound(db(), id);
  await uniquePlanName(patch.name, () => db()('plans').where({ id }).update({ ...patch, updated_at: db().fn.now() }));
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
    await db()('plans').where({ id }).delete();
  } catch (err) {
    // A subscription made in the meantime.
    if (isCode(err, '23503')) throw conflict(`The plan "${plan.name}" has subscribers. Move or cancel their subscriptions first.`);
    throw err;
  }
  return { id };
}

// ---- Subscriptions ----

const userRef = (r: { id: number; username: string; email: string; first_name?: string | null; last_name?: string | null }): PlanUserRef => ({
  id: r.id,
  username: r.username,
  email: r.email,
  name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || r.username,
});

async function subscriptionRows(k: Db, where: (q: Knex.QueryBuilder) => void): Promise<PlanSubscription[]> {
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
      k.raw('(select count(*) from plan_members m where m.id_subscription = s.id)::int as slots_used'),
    )
    .orderBy('s.expires_at')
    .orderBy('s.id');
  where(q);
  const rows: Array<Record<string, never>> = await q;
  return rows.map((r: Record<string, unknown>) => ({
    id: r.id as number,
    id_plan: r.id_plan as number,
    plan_name: r.plan_name as string,
    owner: userRef({ id: r.owner_id as number, username: r.username as string, email: r.email as string, first_name: r.first_name as string, last_name: r.last_name as string }),
    expires_at: r.expires_at as string,
    slots_used: Number(r.slots_used),
    created_at: iso(r.created_at as Date),
  }));
}

async function subscriptionOrNotFound(k: Db, id: number): Promise<PlanSubscription> {
  const [s] = await subscriptionRows(k, (q) => q.where('s.id', id));
  if (!s) throw notFound('Subscription not found.');
  return s;
}

/** POST /plans/{id}/subscriptions: a super admin gives a user (by username or e-mail) the plan until a date. */
export async function createSubscription(planId: number, input: SubscriptionCreateRequest): Promise<PlanSubscription> {
  return db().transaction(async (trx) => {
    const plan = await planOrNotFound(trx, planId);
    const who = input.user.trim();
    const user = await trx('users').whereRaw('lower(username) = lower(?) or lower(email) = lower(?)', [who, who]).first('id', 'username', 'active');
    if (!user) throw notFound(`No user is called "${who}" or has that e-mail.`);
    const member = await trx('plan_members').where({ id_user: user.id }).first('id');
    if (member) throw conflict(`${user.username} is a member of another plan. Remove them from it first.`);
    let id: number;
    try {
      [{ id }] = await trx('plan_subscriptions').insert({ id_plan: plan.id, id_owner: user.id, expires_at: input.expires_at }).returning('id');
    } catch (err) {
      if (isCode(err, '23505')) throw conflict(`${user.username} already has a plan. Change that subscription instead.`);
      throw err;
    }
    return subscriptionOrNotFound(trx, id);
  });
}

/** PUT /plan-subscriptions/{id}: a new expiry date (a renewal) or another plan. */
export async function updateSubscription(id: number, patch: SubscriptionUpdateRequest): Promise<PlanSubscription> {
  const after = await db().transaction(async (trx) => {
    await subscriptionOrNotFound(trx, id);
    if (patch.id_plan) await planOrNotFound(trx, patch.id_plan);
    await trx('plan_subscriptions').where({ id }).update({ ...patch, updated_at: trx.fn.now() });
    return subscriptionOrNotFound(trx, id);
  });
  await tell(after.owner.id, { kind: 'plan', title: 'Your plan changed', message: `Your plan is now "${after.plan_name}", until ${after.expires_at}.`, link: '/profile' }, `plan-sub-${id}-${after.id_plan}-${after.expires_at}`, 'notify_plan_changes');
  return after;
}

/** DELETE /plan-subscriptions/{id}: the owner loses the plan, and its members with it. */
export async function cancelSubscription(id: number): Promise<{ id: number }> {
  const sub = await subscriptionOrNotFound(db(), id);
  await db()('plan_subscriptions').where({ id }).delete();
  await tell(sub.owner.id, { kind: 'plan', title: 'Your plan was cancelled', message: `Your plan "${sub.plan_name}" was cancelled.`, link: '/profile' }, `plan-cancel-${id}`, 'notify_plan_cancels');
  return { id };
}

/**
 * Tells the person concerned (their "plan" preference decides in-app and
 * e-mail), and super admins too when the setting `trigger` is on. Best
 * effort: the change is made either way.
 */
async function tell(userId: number, input: NotifyInput, key: string, trigger: 'notify_plan_changes' | 'notify_plan_cancels' | 'notify_useradd' | null) {
  try {
    await notify(userId, input, { key: `${key}-u${userId}` });
    if (trigger && (await getSettings())[trigger]) await notifySuperAdmins({ ...input, link: '/plans' }, { key: `${key}-admins` });
  } catch (err) {
    logger.error({ err, key }, 'could not send a plan notification');
  }
}

async function tellPlanChanged(plan: Plan) {
  const owners: { id_owner: number }[] = await db()('plan_subscriptions').where({ id_plan: plan.id }).select('id_owner');
  const stamp = new Date(plan.updated_at).getTime();
  for (const o of owners) {
    await tell(
      o.id_owner,
      { kind: 'plan', title: 'Your plan changed', message: `The plan "${plan.name}" now costs ${plan.price} ${plan.currency} per ${plan.period} with ${plan.member_slots} member slot(s).`, link: '/profile' },
      `plan-changed-${plan.id}-${stamp}`,
      'notify_plan_changes',
    );
  }
}

// ---- Members of a subscription ----

interface MemberRow {
  id: number;
  id_subscription: number;
  id_user: number | null;
  email: string;
  role: PlanMemberRole;
  status: 'invited' | 'active';
  created_at: Date;
  joined_at: Date | null;
  plan_name: string;
  id_owner: number;
  username: string | null;
  user_email: string | null;
  first_name: string | null;
  last_name: string | null;
}

function memberQuery(k: Db) {
  return k('plan_members as m')
    .join('plan_subscriptions as s', 's.id', 'm.id_subscription')
    .join('plans as p', 'p.id', 's.id_plan')
    .leftJoin('users as u', 'u.id', 'm.id_user')
    .select('m.id', 'm.id_subscription', 'm.id_user', 'm.email', 'm.role', 'm.status', 'm.created_at', 'm.joined_at', 'p.name as plan_name', 's.id_owner', 'u.username', 'u.email as user_email', 'u.first_name', 'u.last_name')
    .orderBy('m.created_at')
    .orderBy('m.id');
}

const memberDto = (r: MemberRow): PlanMember => ({
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
  joined_at: r.joined_at ? iso(r.joined_at) : null,
});

/**
 * Invitations to an e-mail that now has an account become memberships (the
 * person registered after being invited). Skipped for people who already
 * own or belong to a plan; the unique index settles a race.
 */
async function claimInvites(k: Db, where: { id_subscription?: number; email?: string }) {
  try {
    await k.raw(
      `update plan_members pm set id_user = u.id, status = 'active', joined_at = now()
         from users u
        where pm.id_user is null and u.active and lower(u.email) = lower(pm.email)
          ${where.id_subscription ? 'and pm.id_subscription = :sub' : ''}
          ${where.email ? 'and lower(pm.email) = lower(:email)' : ''}
          and not exists (select 1 from plan_members x where x.id_user = u.id)
          and not exists (select 1 from plan_subscriptions o where o.id_owner = u.id)`,
      { sub: where.id_subscription ?? null, email: where.email ?? null },
    );
  } catch (err) {
    if (!isCode(err, '23505')) throw err;
  }
}

/** The subscription a user owns, or belongs to as a member (with their role). */
async function subscriptionOfUser(k: Db, userId: number): Promise<{ id: number; id_owner: number; role: PlanMemberRole | null } | null> {
  const owned = await k('plan_subscriptions').where({ id_owner: userId }).first('id', 'id_owner');
  if (owned) return { ...owned, role: null };
  const member = await k('plan_members as m').join('plan_subscriptions as s', 's.id', 'm.id_subscription').where({ 'm.id_user': userId, 'm.status': 'active' }).first('s.id', 's.id_owner', 'm.role');
  return member ?? null;
}

async function membersView(k: Db, subscriptionId: number, ownerId: number): Promise<PlanMembersView> {
  await claimInvites(k, { id_subscription: subscriptionId });
  const rows: MemberRow[] = await memberQuery(k).where('m.id_subscription', subscriptionId);
  const all = rows.map(memberDto);
  return { members: all.filter((m) => m.status === 'active'), invites: all.filter((m) => m.status === 'invited'), id_owner: ownerId };
}

const EMPTY_MEMBERS: PlanMembersView = { members: [], invites: [], id_owner: null };

/** GET /plan-members: the members and invitations of the plan the user owns or belongs to. */
export async function planMembersOf(user: Actor): Promise<PlanMembersView> {
  const k = db();
  const u = await k('users').where({ id: user.id }).first('email');
  if (u) await claimInvites(k, { email: u.email });
  const sub = await subscriptionOfUser(k, user.id);
  return sub ? membersView(k, sub.id, sub.id_owner) : EMPTY_MEMBERS;
}

/** SPEC §3 profile load: plan_info, plan_slot and plan_members of a user. */
export async function planProfile(userId: number): Promise<{ plan_info: PlanInfo | null; plan_slot: PlanSlot | null; plan_members: PlanMembersView }> {
  const k = db();
  const u = await k('users').where({ id: userId }).first('email');
  if (u) await claimInvites(k, { email: u.email });
  const sub = await subscriptionOfUser(k, userId);
  if (!sub) return { plan_info: null, plan_slot: null, plan_members: EMPTY_MEMBERS };
  const row = await k('plan_subscriptions as s')
    .join('plans as p', 'p.id', 's.id_plan')
    .where('s.id', sub.id)
    .first('s.id_plan', 'p.name', 'p.price', 'p.currency', 'p.period', 'p.member_slots', 'p.max_projects', 'p.max_storage_mb', 'p.max_video_minutes', k.raw(`to_char(s.expires_at, 'YYYY-MM-DD') as expires_at`));
  const [members, settings, usage] = await Promise.all([membersView(k, sub.id, sub.id_owner), getSettings(), usageOfUserPlan(userId, k)]);
  const daysLeft = daysBetween(dayInZone(new Date(), settings.timezone), row.expires_at);
  const used = members.members.length + members.invites.length;
  return {
    plan_info: {
      id_subscription: sub.id,
      id_plan: row.id_plan,
      name: row.name,
      price: Number(row.price),
      currency: row.currency,
      period: row.period,
      expires_at: row.expires_at,
      days_left: daysLeft,
      expired: daysLeft <= 0,
      is_owner: sub.id_owner === userId,
      role: sub.role,
      max_projects: num(row.max_projects),
      max_storage_mb: num(row.max_storage_mb),
      max_video_minutes: num(row.max_video_minutes),
      usage: usage ?? { projects: 0, storage_bytes: 0, video_seconds: 0 },
    },
    plan_slot: { total: row.member_slots, used, free: Math.max(0, row.member_slots - used) },
    plan_members: members,
  };
}

/** Who may invite into and remove from a subscription: its owner, its managers, super admins. */
async function managesSubscription(k: Db, user: Actor, subscriptionId: number, ownerId: number): Promise<boolean> {
  if (user.super_admin || ownerId === user.id) return true;
  const m = await k('plan_members').where({ id_subscription: subscriptionId, id_user: user.id, status: 'active' }).first('role');
  return m?.role === 'manager';
}

/**
 * POST /plan-members/invite: the owner (or a manager) of a plan lets an
 * e-mail into it. Someone with an account joins at once and is told; an
 * unknown address gets a mail asking them to create an account, and joins
 * when they have one. A pending invitation holds a slot.
 */
export async function inviteMember(user: Actor, email: string): Promise<PlanMember> {
  const k = db();
  const result = await k.transaction(async (trx) => {
    const sub = await subscriptionOfUser(trx, user.id);
    if (!sub || !(await managesSubscription(trx, user, sub.id, sub.id_owner))) throw notFound('You have no plan to invite people into.');
    // One invitation at a time per plan, so two at once cannot take the last slot twice.
    const plan = await trx('plan_subscriptions as s').join('plans as p', 'p.id', 's.id_plan').where('s.id', sub.id).forUpdate('s').first('p.name', 'p.member_slots', 's.id_owner');
    const used = Number((await trx('plan_members').where({ id_subscription: sub.id }).count<{ n: number }[]>({ n: '*' }).first())?.n ?? 0);
    if (used >= plan.member_slots) throw conflict(`All ${plan.member_slots} member slot(s) of your plan are in use. Remove someone or move to a larger plan.`);
    const existing = await trx('users').whereRaw('lower(email) = lower(?)', [email]).first('id', 'username', 'active');
    if (existing?.id === sub.id_owner) throw badRequest('The plan owner is already in the plan.');
    if (existing) {
      const elsewhere =
        (await trx('plan_members').where({ id_user: existing.id }).first('id_subscription')) ?? (await trx('plan_subscriptions').where({ id_owner: existing.id }).first('id'));
      if (elsewhere) throw conflict(`${email} already belongs to a plan.`);
    }
    let id: number;
    try {
      [{ id }] = await trx('plan_members')
        .insert({
          id_subscription: sub.id,
          id_user: existing?.active ? existing.id : null,
          email,
          status: existing?.active ? 'active' : 'invited',
          joined_at: existing?.active ? trx.fn.now() : null,
          invited_by: user.id,
        })
        .returning('id');
    } catch (err) {
      if (isCode(err, '23505')) throw conflict(`${email} is already invited to your plan.`);
      throw err;
    }
    const inviter = await trx('users').where({ id: user.id }).first('username');
    return { id, planName: plan.name as string, joined: !!existing?.active, userId: existing?.id as number | undefined, inviter: inviter?.username ?? 'Someone' };
  });
  if (result.joined && result.userId) {
    await tell(
      result.userId,
      { kind: 'plan', title: 'You joined a plan', message: `${result.inviter} added you to the plan "${result.planName}".`, link: '/profile' },
      `plan-member-${result.id}`,
      'notify_useradd',
    );
  } else {
    const link = `${config.appUrl}/register`;
    const text = `${result.inviter} invited you to use their SiteWalk plan "${result.planName}".\n\nCreate an account with this e-mail address to join:\n${link}`;
    await queueMail(
      email,
      { subject: `${result.inviter} invited you to SiteWalk`, text, html: text.split('\n\n').map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n/g, '<br>')}</p>`).join('') },
      'plan-invitation',
      `plan-invite-${result.id}`,
    );
  }
  return memberById(k, result.id);
}

async function memberById(k: Db, id: number): Promise<PlanMember> {
  const row: MemberRow | undefined = await memberQuery(k).where('m.id', id).first();
  if (!row) throw notFound('Member not found.');
  return memberDto(row);
}

/** A membership the user may see: their own, one of a plan they own or manage, or any for a super admin; else 404. */
async function visibleMember(k: Db, user: Actor, id: number): Promise<{ member: PlanMember; manages: boolean }> {
  const member = await memberById(k, id).catch(() => null);
  if (!member) throw notFound('Member not found.');
  const manages = await managesSubscription(k, user, member.id_subscription, member.id_owner);
  if (!manages && member.id_user !== user.id) throw notFound('Member not found.');
  return { member, manages };
}

export async function getMember(user: Actor, id: number): Promise<PlanMember> {
  return (await visibleMember(db(), user, id)).member;
}

/** PUT /plan-members/{id}: the owner or a super admin makes a member a manager (who may invite and remove) or not. */
export async function updateMember(user: Actor, id: number, role: PlanMemberRole): Promise<PlanMember> {
  const k = db();
  const { member } = await visibleMember(k, user, id);
  if (!user.super_admin && member.id_owner !== user.id) throw notFound('Member not found.');
  await k('plan_members').where({ id }).update({ role });
  return memberById(k, id);
}

/** DELETE /plan-members/{id}: removed by the owner, a manager or a super admin; a member may leave by themself. */
export async function removeMember(user: Actor, id: number): Promise<{ id: number }> {
  const k = db();
  const { member, manages } = await visibleMember(k, user, id);
  if (!manages && member.id_user !== user.id) throw notFound('Member not found.');
  await k('plan_members').where({ id }).delete();
  if (member.id_user && member.id_user !== user.id) {
    await tell(
      member.id_user,
      { kind: 'plan', title: 'You left a plan', message: `You were removed from the plan "${member.plan_name}".`, link: '/profile' },
      `plan-member-removed-${id}`,
      null,
    );
  }
  return { id };
}
