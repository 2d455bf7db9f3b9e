import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { UniqueViolationError } from 'objection';
import {
  ACTIVATION_PATH,
  ACTIVATION_TTL_MS,
  ALL_PERMISSIONS,
  FIXED_PERMISSION_ROLES,
  asMemberRole,
  memberPermissions,
  projectRoom,
  userRoom,
  type inviteMemberSchema,
  type MemberPermissions,
  type MemberRole,
  type MyInvitation,
  type PermissionsPatch,
  type PersonRef,
  type ProjectTeam,
  type removeMemberSchema,
  type TeamChangedEvent,
  type TeamInvitation,
  type TeamJoinRequest,
  type TeamMember,
  type updatePermissionsSchema,
} from '@sitewalk/proto';
import type { z } from 'zod';
import { User, db } from '../db/index.js';
import { badRequest, conflict, forbidden, notFound, unprocessable } from '../errors.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { consume, limiter } from '../rate-limit.js';
import { emitTo, removeUserFromRoom } from '../realtime/emitter.js';
import { signedUrl } from '../storage/index.js';
import { projectInvitationMail } from '../mail/templates.js';
import { mailLanguage, queueMail } from '../mail/mail-queue.js';
import { projectAccess, requireProject, teamManagerIds, type ProjectAccess } from './access.service.js';
import { notify } from './notifications.service.js';
import { getSettings } from './settings.service.js';
import { unusablePasswordHash } from './passwords.js';
import { issueUserToken } from './user-tokens.service.js';
import { fullName } from './users.service.js';
import { removeIfAbandoned } from './invited-accounts.service.js';
import { checkHandOver } from './plan-limits.service.js';

type InviteMemberRequest = z.infer<typeof inviteMemberSchema>;
type RemoveMemberRequest = z.infer<typeof removeMemberSchema>;
type UpdatePermissionsRequest = z.infer<typeof updatePermissionsSchema>;
type Actor = { id: number; super_admin: boolean; username?: string; first_name?: string; last_name?: string };
type Db = Knex | Knex.Transaction;

const iso = (d: Date | string) => new Date(d).toISOString();

/** What people read for a role in notifications and mails. */
export const ROLE_NAMES: Record<MemberRole, string> = { project_admin: 'project admin', editor: 'editor', viewer: 'viewer', guest: 'guest' };

const NOT_A_MEMBER = 'This person is not a member of the project.';
const OWNER_ONLY_GRANT = 'Only the project owner can name project admins or let members manage the team.';

type UserRow = { id: number; username: string; first_name: string; last_name: string; email: string; avatar: string | null };

export const personRef = (u: UserRow): PersonRef => ({
  id: u.id,
  username: u.username,
  first_name: u.first_name,
  last_name: u.last_name,
  email: u.email,
  avatar_url: signedUrl(u.avatar),
});

const PERSON_COLUMNS = ['id', 'username', 'first_name', 'last_name', 'email', 'avatar'] as const;

/** The owner or a super admin: they alone name project admins, grant manage_team and hand the project over. */
const canGrant = (access: ProjectAccess) => access.role === 'owner' || access.role === 'admin';

/** Tells the browsers of the team's managers (and anyone else named) that the team changed. */
export async function announceTeamChange(projectId: number, change: TeamChangedEvent['change'], also: number[] = []): Promise<void> {
  try {
    const ids = new Set([...(await teamManagerIds(projectId)), ...also]);
    for (const id of ids) emitTo(userRoom(id), 'team:changed', { id_project: projectId, change });
  } catch (err) {
    logger.warn({ err, project_id: projectId }, 'could not announce a team change');
  }
}

/** Notifies and never fails the request that caused it: the change is made either way. */
async function tell(userId: number, input: Parameters<typeof notify>[1], key: string): Promise<void> {
  try {
    await notify(userId, { type: 'info', ...input }, { key });
  } catch (err) {
    logger.error({ err, user_id: userId, key }, 'could not queue a team notification');
  }
}

type MemberRow = UserRow & { id_member: number; role: string; permissions: unknown; joined_at: Date };

async function memberRows(k: Db, projectId: number): Promise<MemberRow[]> {
  return k('project_members as pm')
    .join('users as u', 'u.id', 'pm.id_user')
    .where('pm.id_project', projectId)
    .orderBy('pm.created_at')
    .orderBy('pm.id')
    .select('u.id', 'u.username', 'u.first_name', 'u.last_name', 'u.email', 'u.avatar', 'pm.id as id_member', 'pm.role', 'pm.permissions', 'pm.created_at as joined_at');
}

const toMember = (r: MemberRow): TeamMember => ({
  id_member: r.id_member,
  user: personRef(r),
  role: asMemberRole(r.role),
  permissions: memberPermissions(r.role, r.permissions),
  joined_at: iso(r.joined_at),
});

async function ownerMember(k: Db, ownerId: number): Promise<TeamMember> {
  const owner: UserRow = await k('users').where({ id: ownerId }).first(...PERSON_COLUMNS);
  return { id_member: null, user: personRef(owner), role: 'owner', permissions: { ...ALL_PERMISSIONS }, joined_at: null };
}

type InvitationRow = { id: number; id_project: number; id_user: number; email: string; role: string; sent: boolean; created_at: Date; id_invited_by: number | null };

async function pendingInvitations(k: Db, projectId: number): Promise<TeamInvitation[]> {
  const rows: (InvitationRow & { inviter: UserRow | null })[] = await k('project_invitations as i')
    .join('users as u', 'u.id', 'i.id_user')
    .where({ 'i.id_project': projectId, 'i.status': 'pending' })
    .orderBy('i.created_at', 'desc')
    .select('i.*', 'u.email');
  const inviters = await peopleById(k, rows.map((r) => r.id_invited_by));
  return rows.map((r) => ({
    id: r.id,
    id_project: r.id_project,
    id_user: r.id_user,
    email: r.email,
    role: asMemberRole(r.role),
    invited_by: r.id_invited_by ? (inviters.get(r.id_invited_by) ?? null) : null,
    sent: r.sent,
    created_at: iso(r.created_at),
  }));
}

async function peopleById(k: Db, ids: (number | null)[]): Promise<Map<number, PersonRef>> {
  const wanted = [...new Set(ids.filter((i): i is number => !!i))];
  const out = new Map<number, PersonRef>();
  if (!wanted.length) return out;
  const rows: UserRow[] = await k('users').whereIn('id', wanted).select(...PERSON_COLUMNS);
  for (const r of rows) out.set(r.id, personRef(r));
  return out;
}

async function pendingJoinRequests(k: Db, projectId: number): Promise<TeamJoinRequest[]> {
  const rows: (UserRow & { request_id: number; created_at: Date })[] = await k('project_join_requests as j')
    .join('users as u', 'u.id', 'j.id_user')
    .where({ 'j.id_project': projectId, 'j.status': 'pending' })
    .orderBy('j.created_at')
    .select('u.id', 'u.username', 'u.first_name', 'u.last_name', 'u.email', 'u.avatar', 'j.id as request_id', 'j.created_at');
  return rows.map((r) => ({ id: r.request_id, id_project: projectId, user: personRef(r), created_at: iso(r.created_at) }));
}

/** GET /team-members: the owner and members for every member; invitations and join requests for those who manage the team. */
export async function getTeam(user: Actor, projectId: number): Promise<ProjectTeam> {
  const access = await requireProject(user, projectId, 'read');
  const k = db();
  const manages = access.permissions.manage_team;
  const [owner, members, invitations, join_requests] = await Promise.all([
    ownerMember(k, access.project.id_owner),
    memberRows(k, projectId),
    manages ? pendingInvitations(k, projectId) : Promise.resolve([]),
    manages ? pendingJoinRequests(k, projectId) : Promise.resolve([]),
  ]);
  return {
    id_project: projectId,
    owner,
    members: members.map(toMember),
    invitations,
    join_requests,
    can_manage_team: manages,
    can_grant_admin: canGrant(access),
    can_leave: members.some((m) => m.id === user.id),
  };
}

/** GET /team-members/permissions: your own in any project you see; someone else's only for team managers. */
export async function getMemberPermissions(user: Actor, projectId: number, targetId?: number): Promise<MemberPermissions> {
  const access = await requireProject(user, projectId, 'read');
  const id = targetId ?? user.id;
  if (id === user.id) return { id_project: projectId, id_user: id, role: access.role as MemberPermissions['role'], permissions: access.permissions };
  if (!access.permissions.manage_team) throw forbidden('Only the project owner or a team manager can see the permissions of other members.');
  if (id === access.project.id_owner) return { id_project: projectId, id_user: id, role: 'owner', permissions: { ...ALL_PERMISSIONS } };
  const row = await db()('project_members').where({ id_project: projectId, id_user: id }).first('role', 'permissions');
  if (!row) throw notFound(NOT_A_MEMBER);
  return { id_project: projectId, id_user: id, role: asMemberRole(row.role), permissions: memberPermissions(row.role, row.permissions) };
}

/** Refuses what only the owner may grant, and permissions a fixed role cannot have. */
function checkGrant(access: ProjectAccess, role: MemberRole, permissions: PermissionsPatch | undefined) {
  if (!canGrant(access) && (role === 'project_admin' || permissions?.manage_team === true)) throw forbidden(OWNER_ONLY_GRANT);
  if (permissions && Object.keys(permissions).length && FIXED_PERMISSION_ROLES.includes(role)) {
    throw badRequest(`A ${ROLE_NAMES[role]} has the permissions of the role. Choose the editor or viewer role to set them one by one.`);
  }
  if (permissions?.view === false) throw badRequest('Every member can view the project. Remove the member instead.');
}

/** A manager who is not the owner may not change project admins or members who manage the team. */
function checkTouch(access: ProjectAccess, target: { role: string; permissions: unknown }) {
  if (canGrant(access)) return;
  if (asMemberRole(target.role) === 'project_admin' || memberPermissions(target.role, target.permissions).manage_team) throw forbidden(OWNER_ONLY_GRANT);
}

/** PUT /team-members/update-permissions: a member's role and permissions, by the owner or a team manager. */
export async function updatePermissions(user: Actor, input: UpdatePermissionsRequest): Promise<TeamMember> {
  const result = await db().transaction(async (trx) => {
    const access = await requireProject(user, input.id_project, 'manage-team', trx);
    if (input.id_user === access.project.id_owner) throw badRequest('The owner has every permission; they cannot be changed.');
    if (input.id_user === user.id) throw badRequest('You cannot change your own role or permissions. Ask the project owner.');
    const row = await trx('project_members').where({ id_project: input.id_project, id_user: input.id_user }).forUpdate().first();
    if (!row) throw notFound(NOT_A_MEMBER);
    checkTouch(access, row);
    const role = input.role ?? asMemberRole(row.role);
    checkGrant(access, role, input.permissions);
    // A new role starts from its own defaults; otherwise the toggles add to what was stored.
    const stored = FIXED_PERMISSION_ROLES.includes(role) ? {} : { ...(input.role && input.role !== row.role ? {} : row.permissions), ...input.permissions };
    await trx('project_members').where({ id: row.id }).update({ role, permissions: JSON.stringify(stored), updated_at: new Date() });
    const [updated] = (await memberRows(trx, input.id_project)).filter((m) => m.id_member === row.id);
    return toMember(updated!);
  });
  await announceTeamChange(input.id_project, 'member', [input.id_user]);
  return result;
}

/** POST /team-members/remove-team-member: by {id_project, id_user} or {id_member}; never the owner. */
export async function removeMember(user: Actor, input: RemoveMemberRequest): Promise<{ removed: true; id_project: number; id_user: number }> {
  const k = db();
  let projectId: number;
  let targetId: number;
  if ('id_member' in input) {
    const row = await k('project_members').where({ id: input.id_member }).first('id_project', 'id_user');
    // A membership of a project the caller cannot see does not exist for them either.
    if (!row || !(await projectAccess(user, row.id_project))) throw notFound('Member not found.');
    projectId = row.id_project;
    targetId = row.id_user;
  } else {
    projectId = Number(input.id_project);
    targetId = Number(input.id_user);
  }
  const project = await k.transaction(async (trx) => {
    const access = await requireProject(user, projectId, 'manage-team', trx);
    if (targetId === access.project.id_owner) throw badRequest('The project owner cannot be removed.');
    if (targetId === user.id) throw badRequest('To leave the project, use Leave project.');
    const row = await trx('project_members').where({ id_project: projectId, id_user: targetId }).forUpdate().first();
    if (!row) throw notFound(NOT_A_MEMBER);
    checkTouch(access, row);
    await trx('project_members').where({ id: row.id }).delete();
    return access.project;
  });
  removeUserFromRoom(userRoom(targetId), projectRoom(projectId));
  await announceTeamChange(projectId, 'member', [targetId]);
  await tell(targetId, { kind: 'team', title: 'Removed from a project', message: `You are no longer a member of the project "${project.name}".` }, `team-removed-${projectId}-${targetId}-${Date.now()}`);
  return { removed: true, id_project: projectId, id_user: targetId };
}

/** POST /team-members/leave-project: a member leaves; the owner must hand the project over first. */
export async function leaveProject(user: Actor, projectId: number): Promise<{ left: true; id_project: number }> {
  const access = await projectAccess(user, projectId);
  if (!access) throw notFound('Project not found.');
  if (access.role === 'owner') throw badRequest('As the owner you cannot leave this project. Hand it over to another member first.');
  const n = await db()('project_members').where({ id_project: projectId, id_user: user.id }).delete();
  if (!n) throw badRequest('You are not a member of this project.');
  removeUserFromRoom(userRoom(user.id), projectRoom(projectId));
  await announceTeamChange(projectId, 'member', [user.id]);
  const who = await User.query().findById(user.id);
  await tell(
    access.project.id_owner,
    { kind: 'team', title: 'A member left', message: `${who ? fullName(who) : 'A member'} left the project "${access.project.name}".`, link: `/project/${projectId}` },
    `team-left-${projectId}-${user.id}-${Date.now()}`,
  );
  return { left: true, id_project: projectId };
}

/**
 * POST /team-members/transfer-ownership: the owner (or a super admin) hands
 * the project to a member; the former owner stays as a project admin.
 */
export async function transferOwnership(user: Actor, projectId: number, newOwnerId: number): Promise<ProjectTeam> {
  const { project, previous } = await db().transaction(async (trx) => {
    const access = await requireProject(user, projectId, 'manage', trx);
    await trx('projects').where({ id: projectId }).forUpdate().first('id');
    const previous = access.project.id_owner;
    if (newOwnerId === previous) throw badRequest('This person already owns the project.');
    const row = await trx('project_members').where({ id_project: projectId, id_user: newOwnerId }).first('id');
    if (!row) throw notFound(NOT_A_MEMBER);
    await checkHandOver(trx, user, projectId, newOwnerId);
    await trx('project_members').where({ id: row.id }).delete();
    await trx('project_members')
      .insert({ id_project: projectId, id_user: previous, role: 'project_admin', permissions: JSON.stringify({}) })
      .onConflict(['id_project', 'id_user'])
      .merge({ role: 'project_admin', permissions: JSON.stringify({}), updated_at: new Date() });
    await trx('projects').where({ id: projectId }).update({ id_owner: newOwnerId, updated_at: new Date() });
    return { project: access.project, previous };
  });
  await announceTeamChange(projectId, 'member', [previous, newOwnerId]);
  await tell(
    newOwnerId,
    { kind: 'team', title: 'You own a project now', message: `The project "${project.name}" was handed over to you.`, link: `/project/${projectId}` },
    `team-owner-${projectId}-${newOwnerId}-${Date.now()}`,
  );
  return getTeam(user, projectId);
}

const inviteLimiter = () => limiter('team-invite', 60, 60 * 60);

/** An account for an e-mail nobody uses yet: inactive until the person opens the invitation link. */
async function accountForInvitee(trx: Knex.Transaction, email: string, language: string): Promise<User> {
  return User.query(trx).insertAndFetch({
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
 */
export async function inviteMember(user: Actor, input: InviteMemberRequest): Promise<TeamInvitation> {
  const access = await requireProject(user, input.id_project, 'manage-team');
  checkGrant(access, input.role, input.permissions);
  await consume(inviteLimiter(), String(user.id), 'You have sent many invitations in a short time.');
  const settings = await getSettings();
  const inviter = await User.query().findById(user.id);
  const email = input.email.toLowerCase();

  const existing = await User.query().whereRaw('lower(email) = ?', [email]).first();
  const needsAccount = !existing || (!existing.active && !existing.email_verified_at);
  if (needsAccount && !settings.smtp_valid) {
    throw unprocessable('This person has no account yet, and the invitation cannot be mailed because the mail server is not set up. Ask them to create an account first, or ask an administrator to set up the mail server.');
  }
  if (existing && !existing.active && existing.email_verified_at) throw unprocessable('The account of this e-mail address is disabled. Ask an administrator.');

  const { invitation, invitee, token } = await db()
    .transaction(async (trx) => {
      const project = await trx('projects').where({ id: input.id_project }).forUpdate().first('id_owner');
      const invitee = existing ?? (await accountForInvitee(trx, email, inviter?.language ?? 'en'));
      if (invitee.id === project.id_owner || (await trx('project_members').where({ id_project: input.id_project, id_user: invitee.id }).first('id'))) {
        throw conflict(`${email} is already in the team.`);
      }
      if (await trx('project_invitations').where({ id_project: input.id_project, id_user: invitee.id, status: 'pending' }).first('id')) {
        throw conflict('This person already has an invitation waiting for an answer.');
      }
      const stored = FIXED_PERMISSION_ROLES.includes(input.role) ? {} : (input.permissions ?? {});
      const [invitation] = await trx('project_invitations')
        .insert({ id_project: input.id_project, id_user: invitee.id, role: input.role, permissions: JSON.stringify(stored), id_invited_by: user.id })
        .returning('*');
      let token = null;
      if (needsAccount) {
        // Someone who registered but never activated keeps their chosen name: they get an activation link, not an invitation one.
        const last = existing ? await trx('user_tokens').where({ user_id: invitee.id }).orderBy('id', 'desc').first('purpose') : null;
        token = await issueUserToken(invitee.id, last?.purpose === 'activation' ? 'activation' : 'invitation', ACTIVATION_TTL_MS, trx);
      }
      return { invitation: invitation as InvitationRow, invitee, token };
    })
    .catch((err) => {
      if (err instanceof UniqueViolationError || (err as { code?: string }).code === '23505') throw conflict('This person already has an invitation waiting for an answer.');
      throw err;
    });

  const inviterName = inviter ? fullName(inviter) : 'A team member';
  let sent: boolean;
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
  } else {
    sent = true;
    await notify(
      invitee.id,
      {
        kind: 'team',
        type: 'info',
        title: 'Project invitation',
        message: `${inviterName} invited you to join the project "${access.project.name}" as ${ROLE_NAMES[input.role]}.`,
        link: '/invitations',
      },
      { key: `team-invitation-${invitation.id}` },
    ).catch((err) => {
      logger.error({ err, invitation_id: invitation.id }, 'could not queue the invitation notification');
      sent = false;
    });
  }
  await db()('project_invitations').where({ id: invitation.id }).update({ sent });
  emitTo(userRoom(invitee.id), 'team:changed', { id_project: input.id_project, change: 'invitation' });
  await announceTeamChange(input.id_project, 'invitation');
  const [dto] = (await pendingInvitations(db(), input.id_project)).filter((i) => i.id === invitation.id);
  return dto!;
}

/** POST /team-members/cancel-invitation: the pending invitation of this person, by the owner or a team manager. */
export async function cancelInvitation(user: Actor, projectId: number, targetId: number): Promise<{ cancelled: true }> {
  await requireProject(user, projectId, 'manage-team');
  const n = await db()('project_invitations')
    .where({ id_project: projectId, id_user: targetId, status: 'pending' })
    .update({ status: 'cancelled', responded_at: new Date() });
  if (!n) throw notFound('There is no pending invitation for this person.');
  // An account the invitation made, never activated and now invited nowhere, goes (its link stops working).
  await removeIfAbandoned(targetId);
  emitTo(userRoom(targetId), 'team:changed', { id_project: projectId, change: 'invitation' });
  await announceTeamChange(projectId, 'invitation');
  return { cancelled: true };
}

type MyInvitationRow = InvitationRow & { status: MyInvitation['status']; project_name: string; project_code: string };

function myInvitationsQuery(k: Db, userId: number) {
  return k('project_invitations as i')
    .join('projects as p', 'p.id', 'i.id_project')
    .where('i.id_user', userId)
    .select('i.*', 'p.name as project_name', 'p.project_code');
}

async function toMyInvitations(k: Db, rows: MyInvitationRow[]): Promise<MyInvitation[]> {
  const inviters = await peopleById(k, rows.map((r) => r.id_invited_by));
  return rows.map((r) => ({
    id: r.id,
    project: { id: r.id_project, name: r.project_name, project_code: r.project_code },
    role: asMemberRole(r.role),
    invited_by: r.id_invited_by ? (inviters.get(r.id_invited_by) ?? null) : null,
    status: r.status,
    created_at: iso(r.created_at),
  }));
}

/** GET /users/invitations: the signed-in user's invitations waiting for an answer, newest first. */
export async function myInvitations(user: Actor): Promise<MyInvitation[]> {
  const k = db();
  const rows = await myInvitationsQuery(k, user.id).where('i.status', 'pending').orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(200);
  return toMyInvitations(k, rows);
}

/** POST /users/invitations/accept|decline/{id}: only the invited person answers, once. */
export async function answerInvitation(user: Actor, invitationId: number, accept: boolean): Promise<MyInvitation> {
  const k = db();
  const inv = await k.transaction(async (trx) => {
    const row = await trx('project_invitations').where({ id: invitationId, id_user: user.id }).forUpdate().first();
    if (!row) throw notFound('Invitation not found.');
    if (row.status !== 'pending') throw conflict(`This invitation was already ${row.status}.`);
    await trx('project_invitations').where({ id: row.id }).update({ status: accept ? 'accepted' : 'declined', responded_at: new Date() });
    if (accept) {
      const project = await trx('projects').where({ id: row.id_project }).first('id_owner');
      if (project.id_owner !== user.id) {
        // Already a member (a join request was accepted meanwhile): the membership stays as it is.
        await trx('project_members')
          .insert({ id_project: row.id_project, id_user: user.id, role: row.role, permissions: JSON.stringify(row.permissions ?? {}) })
          .onConflict(['id_project', 'id_user'])
          .ignore();
      }
      await trx('project_join_requests')
        .where({ id_project: row.id_project, id_user: user.id, status: 'pending' })
        .update({ status: 'accepted', decided_at: new Date(), id_decided_by: row.id_invited_by });
    }
    return row as InvitationRow;
  });
  await announceTeamChange(inv.id_project, accept ? 'member' : 'invitation', [user.id]);
  const [dto] = await toMyInvitations(k, await myInvitationsQuery(k, user.id).where('i.id', invitationId));
  if (inv.id_invited_by) {
    const who = await User.query().findById(user.id);
    await tell(
      inv.id_invited_by,
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
