import crypto from 'node:crypto';
import { UniqueViolationError } from 'objection';
import { ACTIVATION_PATH, ACTIVATION_TTL_MS, FIXED_PERMISSION_ROLES, NOTICE_TERMS, notice, userRoom, type inviteMemberSchema, type MyInvitation, type TeamInvitation } from '@sitewalk/proto';
import type { z } from 'zod';
import { type User, db } from '../db/index.js';
import { conflict, notFound } from '../errors.js';
import { isUniqueViolation, type Db } from '../db/query-types.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { consume, limiter } from '../rate-limit.js';
import { emitTo } from '../realtime/emitter.js';
import { projectInvitationMail } from '../mail/templates.js';
import { mailLanguage, queueMail } from '../mail/mail-queue.js';
import { addMember, lockProject, membershipOf, projectOwnerId } from '../repositories/team.repository.js';
import { acceptPendingJoinRequest } from '../repositories/join-requests.repository.js';
import { markInvitationSent, myProjectInvitationRows, pendingProjectInvitationRows, type ProjectInvitationRow } from '../repositories/invitations.repository.js';
import { insertUser, lastTokenPurpose, userByEmail, userById } from '../repositories/users.repository.js';
import { requireProject } from './access.service.js';
import { notify } from './notifications.service.js';
import { getSettings } from './settings.service.js';
import { unusablePasswordHash } from './passwords.js';
import { issueUserToken } from './user-tokens.service.js';
import { fullName } from './users.service.js';
import { removeIfAbandoned } from './invited-accounts.service.js';
import { cancelPendingInvitation, createInvitation, recordAnswer } from './invitations.service.js';
import { announceTeamChange, tellTeamMember } from './team-events.js';
import { ROLE_NAMES, checkGrant } from './team-grants.js';
import { myInvitationDtos, teamInvitationDtos } from './team-dto.js';
import type { Actor } from './actor.js';

/**
 * Invitations into a project's team: sent by the owner or a team manager,
 * answered by the invited person from "My invitations", or cancelled. The
 * invitation's life cycle is invitations.service.ts's, shared with plans.
 */

type InviteMemberRequest = z.infer<typeof inviteMemberSchema>;

const ALREADY_INVITED = 'This person already has an invitation waiting for an answer.';

const inviteLimiter = () => limiter('team-invite', 60, 60 * 60);

/** An account for an e-mail nobody uses yet: inactive until the person opens the invitation link. */
async function accountForInvitee(trx: Db, email: string, language: string): Promise<User> {
  return insertUser(trx, {
    username: `invited-${crypto.randomBytes(6).toString('hex')}`,
    email,
    password_hash: await unusablePasswordHash(),
    role: 'guest',
    super_admin: false,
    active: false,
    email_verified_at: null,
    invited_at: new Date(),
    language,
  });
}

/**
 * POST /team-members/invite-team-member. A person with an account hears of
 * it in the app and by e-mail (their preferences); an unknown e-mail gets an
 * account waiting for activation and a mail with the activation link, the
 * platform's invitation flow. Either way the invitation then waits in "My
 * invitations" until accepted, declined or cancelled.
 *
 * The answer never tells whether the e-mail has an account: the same
 * status, fields and message for a known, unknown or disabled address.
 * Without a working mail server nothing is mailed to anyone, and every
 * invitation reads "not sent" (people with an account still find it in the
 * app).
 */
export async function inviteMember(user: Actor, input: InviteMemberRequest): Promise<TeamInvitation> {
  const access = await requireProject(user, input.id_project, 'manage-team');
  checkGrant(access, input.role, input.permissions);
  await consume(inviteLimiter(), String(user.id), 'You have sent many invitations in a short time.');
  const settings = await getSettings();
  const inviter = await userById(db(), user.id);
  const email = input.email.toLowerCase();

  const existing = await userByEmail(db(), email);
  const needsAccount = !existing || (!existing.active && !existing.email_verified_at);
  // A disabled account is invited like any other (same answer), but hears nothing.
  const disabled = !!existing && !existing.active && !!existing.email_verified_at;

  const { invitation, invitee, token } = await db()
    .transaction(async (trx) => {
      const project = await lockProject(trx, input.id_project);
      const invitee = existing ?? (await accountForInvitee(trx, email, inviter?.language ?? 'en'));
      if (invitee.id === project.id_owner || (await membershipOf(trx, input.id_project, invitee.id))) throw conflict(`${email} is already in the team.`);
      const stored = FIXED_PERMISSION_ROLES.includes(input.role) ? {} : (input.permissions ?? {});
      const invitation = await createInvitation(trx, { kind: 'project', id_project: input.id_project }, { id_user: invitee.id }, { role: input.role, permissions: stored, invited_by: user.id }, ALREADY_INVITED);
      let token = null;
      if (needsAccount && settings.smtp_valid) {
        // Someone who registered but never activated keeps their chosen name: they get an activation link, not an invitation one.
        const last = existing ? await lastTokenPurpose(trx, invitee.id) : undefined;
        token = await issueUserToken(invitee.id, last === 'activation' ? 'activation' : 'invitation', ACTIVATION_TTL_MS, trx);
      }
      return { invitation, invitee, token };
    })
    .catch((err) => {
      // Also two invitations of one unknown address at once: the second account is refused.
      if (err instanceof UniqueViolationError || isUniqueViolation(err)) throw conflict(ALREADY_INVITED);
      throw err;
    });

  const inviterName = inviter ? fullName(inviter) : 'A team member';
  // "Sent" means mailed, whoever the address belongs to: without a mail server the in-app notice alone is not.
  let sent = settings.smtp_valid;
  if (token) {
    const mail = projectInvitationMail(mailLanguage(invitee.language), {
      siteName: settings.name,
      invitedBy: inviterName,
      projectName: access.project.name,
      role: ROLE_NAMES[input.role],
      link: `${config.appUrl}${ACTIVATION_PATH}?token=${encodeURIComponent(token.token)}`,
      ttlMs: ACTIVATION_TTL_MS,
    });
    sent = await queueMail(invitee.email, mail, 'project-invitation', `project-invitation-${invitation.id}`);
  } else if (!needsAccount && !disabled) {
    await notify(
      invitee.id,
      {
        kind: 'team',
        type: 'info',
        ...notice('teamInvitation', { by: inviterName, project: access.project.name, role: { term: NOTICE_TERMS.role[input.role] } }),
        link: '/invitations',
      },
      { key: `team-invitation-${invitation.id}` },
    ).catch((err) => {
      logger.error({ err, invitation_id: invitation.id }, 'could not queue the invitation notification');
      sent = false;
    });
  }
  await markInvitationSent(db(), invitation.id, sent);
  emitTo(userRoom(invitee.id), 'team:changed', { id_project: input.id_project, change: 'invitation' });
  await announceTeamChange(input.id_project, 'invitation');
  const [dto] = (await teamInvitationDtos(db(), await pendingProjectInvitationRows(db(), input.id_project))).filter((i) => i.id === invitation.id);
  return dto!;
}

/** POST /team-members/cancel-invitation: the pending invitation of this person, by the owner or a team manager. */
export async function cancelInvitation(user: Actor, projectId: number, targetId: number): Promise<{ cancelled: true }> {
  await requireProject(user, projectId, 'manage-team');
  if (!(await cancelPendingInvitation(db(), { kind: 'project', id_project: projectId }, { id_user: targetId }))) throw notFound('There is no pending invitation for this person.');
  // An account the invitation made, never activated and now invited nowhere, goes (its link stops working).
  await removeIfAbandoned(targetId);
  emitTo(userRoom(targetId), 'team:changed', { id_project: projectId, change: 'invitation' });
  await announceTeamChange(projectId, 'invitation');
  return { cancelled: true };
}

/** GET /users/invitations: the signed-in user's invitations waiting for an answer, newest first. */
export async function myInvitations(user: Actor): Promise<MyInvitation[]> {
  const k = db();
  return myInvitationDtos(k, await myProjectInvitationRows(k, user.id, 'pending'));
}

/** POST /users/invitations/accept|decline/{id}: only the invited person answers, once. */
export async function answerInvitation(user: Actor, invitationId: number, accept: boolean): Promise<MyInvitation> {
  const k = db();
  const inv = await k.transaction(async (trx) => {
    const answer = await recordAnswer(trx, 'project', invitationId, user.id, accept);
    if (!answer) throw notFound('Invitation not found.');
    const row = answer.invitation as ProjectInvitationRow;
    if (!answer.answered) throw conflict(`This invitation was already ${row.status}.`);
    if (accept) {
      // Already a member (a join request was accepted meanwhile): the membership stays as it is.
      if ((await projectOwnerId(trx, row.id_project)) !== user.id) await addMember(trx, { id_project: row.id_project, id_user: user.id, role: row.role, permissions: row.permissions }, 'keep');
      await acceptPendingJoinRequest(trx, row.id_project, user.id, row.invited_by);
    }
    return row;
  });
  await announceTeamChange(inv.id_project, accept ? 'member' : 'invitation', [user.id]);
  const [dto] = await myInvitationDtos(k, await myProjectInvitationRows(k, user.id, { id: invitationId }));
  if (inv.invited_by) {
    const who = await userById(db(), user.id);
    await tellTeamMember(
      inv.invited_by,
      {
        kind: 'team',
        title: accept ? 'Invitation accepted' : 'Invitation declined',
        message: `${who ? fullName(who) : 'The person you invited'} ${accept ? 'accepted' : 'declined'} your invitation to the project "${dto!.project.name}".`,
        link: `/project/${inv.id_project}`,
      },
      `team-invitation-answer-${invitationId}`,
    );
  }
  return dto!;
}
