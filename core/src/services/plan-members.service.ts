import type { PlanInfo, PlanMember, PlanMemberRole, PlanMembersView, PlanSlot } from '@sitewalk/proto';
import { notice } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { config } from '../config.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { isUniqueViolation, type Db } from '../db/query-types.js';
import { mailLanguage, queueMail } from '../mail/mail-queue.js';
import { planInvitationMail } from '../mail/templates.js';
import { lockSubscriptionSlots, slotsUsed, subscribedPlan, subscriptionOfUser } from '../repositories/plans.repository.js';
import {
  activeMemberRole,
  deletePlanMember,
  hasMemberWithEmail,
  insertMemberFromInvitation,
  inviterOfMember,
  planMemberRows,
  setPlanMemberRole,
  type PlanMemberRow,
} from '../repositories/plan-members.repository.js';
import { markInvitationSent, pendingPlanInvitationRows, setInvitationRole } from '../repositories/invitations.repository.js';
import { userByEmail, userColumns } from '../repositories/users.repository.js';
import { getSettings } from './settings.service.js';
import { announceProfileChange } from './profile-events.js';
import { dayInZone, daysBetween } from './plan-expiry-rules.js';
import { usageOfUserPlan } from './plan-limits.service.js';
import { planMemberDto } from './plan-dto.js';
import { tellAboutPlan } from './plan-notify.js';
import { cancelInvitationById, createInvitation, recordAnswer } from './invitations.service.js';
import type { Actor } from './actor.js';

/**
 * The people a plan owner lets use their plan: invitations by e-mail that
 * hold a slot until answered, members and managers. This service decides
 * who may see and change what (a member of another plan is not found); the
 * invitation's life cycle is invitations.service.ts's, shared with teams.
 * The API shows an invitation and the membership it becomes as one plan
 * member with one id.
 */

const num = (v: unknown) => (v == null ? null : Number(v));

async function membersView(k: Db, subscriptionId: number, ownerId: number): Promise<PlanMembersView> {
  const [members, invites] = await Promise.all([planMemberRows(k, { subscriptionId }), pendingPlanInvitationRows(k, { subscriptionId })]);
  return { members: members.map(planMemberDto), invites: invites.map(planMemberDto), id_owner: ownerId };
}

const EMPTY_MEMBERS: PlanMembersView = { members: [], invites: [], id_owner: null };

/** GET /plan-members: the members and invitations of the plan the user owns or belongs to. */
export async function planMembersOf(user: Actor): Promise<PlanMembersView> {
  const k = db();
  const sub = await subscriptionOfUser(k, user.id);
  return sub ? membersView(k, sub.id, sub.id_owner) : EMPTY_MEMBERS;
}

/** SPEC §3 profile load: plan_info, plan_slot and plan_members of a user. */
export async function planProfile(userId: number): Promise<{ plan_info: PlanInfo | null; plan_slot: PlanSlot | null; plan_members: PlanMembersView }> {
  const k = db();
  const sub = await subscriptionOfUser(k, userId);
  if (!sub) return { plan_info: null, plan_slot: null, plan_members: EMPTY_MEMBERS };
  const row = await subscribedPlan(k, sub.id);
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
  return (await activeMemberRole(k, subscriptionId, user.id)) === 'manager';
}

/**
 * POST /plan-members/invite: the owner (or a manager) of a plan invites an
 * e-mail into it. The invitation holds a slot; the person joins only when
 * they accept it (POST /plan-members/{id}/accept). Someone with an account
 * is told in the app, an unknown address gets a mail asking them to create
 * an account. The answer is the same either way: it never tells whether
 * the address has an account, nor whose it is.
 */
export async function inviteMember(user: Actor, email: string): Promise<PlanMember> {
  const k = db();
  const result = await k.transaction(async (trx) => {
    const sub = await subscriptionOfUser(trx, user.id);
    if (!sub || !(await managesSubscription(trx, user, sub.id, sub.id_owner))) throw notFound('You have no plan to invite people into.');
    const plan = await lockSubscriptionSlots(trx, sub.id);
    if ((await slotsUsed(trx, sub.id)) >= plan.member_slots) {
      throw conflict(`All ${plan.member_slots} member slot(s) of your plan are in use. Remove someone or move to a larger plan.`);
    }
    const owner = await userColumns(trx, sub.id_owner, 'email');
    if (owner && owner.email.toLowerCase() === email.toLowerCase()) throw badRequest('The plan owner is already in the plan.');
    const existing = await userByEmail(trx, email);
    const alreadyInvited = `${email} is already invited to your plan.`;
    if (await hasMemberWithEmail(trx, sub.id, email)) throw conflict(alreadyInvited);
    const { id } = await createInvitation(trx, { kind: 'plan', id_subscription: sub.id }, { email }, { role: 'member', invited_by: user.id }, alreadyInvited);
    const inviter = await userColumns(trx, user.id, 'username');
    return { id, planName: plan.name, userId: existing?.active ? existing.id : undefined, hasAccount: !!existing, inviter: inviter?.username ?? 'Someone' };
  });
  announceProfileChange(user.id, result.userId);
  // Whether the person was told: in the app when they have an account, by mail when they have none.
  let sent = false;
  if (result.userId) {
    sent = await tellAboutPlan(result.userId, { kind: 'plan', ...notice('planInvitation', { by: result.inviter, plan: result.planName }), link: '/profile' }, `plan-invite-${result.id}`, null);
  } else if (!result.hasAccount) {
    // No account, so no language of theirs: the inviter's, as they wrote to someone who reads it.
    const inviterLanguage = (await userColumns(k, user.id, 'language'))?.language;
    sent = await queueMail(
      email,
      planInvitationMail(mailLanguage(inviterLanguage), { siteName: (await getSettings()).name, invitedBy: result.inviter, planName: result.planName, link: `${config.appUrl}/register` }),
      'plan-invitation',
      `plan-invite-${result.id}`,
    );
  }
  await markInvitationSent(k, result.id, sent);
  return memberById(k, result.id);
}

/** GET /plan-members/invitations: the plan invitations the signed-in user may accept or decline (sent to their e-mail address). */
export async function myPlanInvitations(user: Actor): Promise<PlanMember[]> {
  return (await pendingPlanInvitationRows(db(), { invitedUserId: user.id })).map(planMemberDto);
}

const NO_INVITATION = 'There is no such invitation waiting for you.';
const IN_A_PLAN = 'You already belong to a plan. Leave it before joining another one.';

/** The plan invitation with this id waiting for the user's answer; anyone else's, or one answered, is not found. */
async function waitingFor(k: Db, user: Actor, id: number): Promise<PlanMemberRow> {
  const row = (await pendingPlanInvitationRows(k, { invitedUserId: user.id })).find((m) => m.id === id);
  if (!row) throw notFound(NO_INVITATION);
  return row;
}

/**
 * POST /plan-members/{id}/accept: the invited person joins the plan. Only
 * the owner of the invited address answers; anyone else gets a 404.
 */
export async function acceptInvitation(user: Actor, id: number): Promise<PlanMember> {
  const k = db();
  const joined = await k.transaction(async (trx) => {
    const mine = await waitingFor(trx, user, id);
    if (await subscriptionOfUser(trx, user.id)) throw conflict(IN_A_PLAN);
    const answer = await recordAnswer(trx, 'plan', id, user.id, true);
    if (!answer?.answered) throw notFound(NO_INVITATION);
    try {
      const { invitation } = answer;
      await insertMemberFromInvitation(trx, { id, id_subscription: mine.id_subscription, email: mine.email, role: invitation.role, invited_by: invitation.invited_by, created_at: invitation.created_at }, user.id);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(IN_A_PLAN);
      throw err;
    }
    return mine;
  });
  const me = await userColumns(k, user.id, 'username');
  const inviter = await inviterOfMember(k, id);
  announceProfileChange(user.id, joined.id_owner, inviter);
  for (const to of new Set([joined.id_owner, inviter].filter((x): x is number => !!x && x !== user.id))) {
    await tellAboutPlan(
      to,
      { kind: 'plan', title: 'Plan invitation accepted', message: `${me?.username ?? 'Someone'} joined the plan "${joined.plan_name}".`, link: '/profile' },
      `plan-invite-accepted-${id}`,
      'notify_useradd',
    );
  }
  return memberById(k, id);
}

/** POST /plan-members/{id}/decline: the invited person says no; the slot is free again. */
export async function declineInvitation(user: Actor, id: number): Promise<{ id: number }> {
  const k = db();
  const mine = await k.transaction(async (trx) => {
    const mine = await waitingFor(trx, user, id);
    if (!(await recordAnswer(trx, 'plan', id, user.id, false))?.answered) throw notFound(NO_INVITATION);
    return mine;
  });
  announceProfileChange(user.id, mine.id_owner);
  const me = await userColumns(k, user.id, 'username');
  await tellAboutPlan(
    mine.id_owner,
    { kind: 'plan', title: 'Plan invitation declined', message: `${me?.username ?? 'Someone'} declined the invitation to the plan "${mine.plan_name}".`, link: '/profile' },
    `plan-invite-declined-${id}`,
    null,
  );
  return { id };
}

/** A member, or a pending invitation (they share one id space). */
async function memberById(k: Db, id: number): Promise<PlanMember> {
  const [row] = (await planMemberRows(k, { id })).concat(await pendingPlanInvitationRows(k, { id }));
  if (!row) throw notFound('Member not found.');
  return planMemberDto(row);
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
  // An invitation accepted meanwhile is the member now.
  if (!(member.status === 'invited' && (await setInvitationRole(k, id, role)))) await setPlanMemberRole(k, id, role);
  announceProfileChange(member.id_user, member.id_owner);
  return memberById(k, id);
}

/** DELETE /plan-members/{id}: removed by the owner, a manager or a super admin; a member may leave by themself. */
export async function removeMember(user: Actor, id: number): Promise<{ id: number }> {
  const k = db();
  const { member, manages } = await visibleMember(k, user, id);
  if (!manages && member.id_user !== user.id) throw notFound('Member not found.');
  // An invitation taken back frees its slot as a member's leaving does; one accepted meanwhile is a member who goes.
  if (!(member.status === 'invited' && (await cancelInvitationById(k, id)))) await deletePlanMember(k, id);
  announceProfileChange(member.id_user, member.id_owner, user.id);
  if (member.id_user && member.id_user !== user.id) {
    await tellAboutPlan(
      member.id_user,
      { kind: 'plan', title: 'You left a plan', message: `You were removed from the plan "${member.plan_name}".`, link: '/profile' },
      `plan-member-removed-${id}`,
      null,
    );
  }
  return { id };
}
