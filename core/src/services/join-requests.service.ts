import { JOIN_REQUEST_COOLDOWN_MS, NOTICE_TERMS, notice, type JoinStatus, type MemberRole, type MyJoinRequest, type TeamMember } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { conflict, forbidden, notFound, tooManyRequests } from '../errors.js';
import { logger } from '../logger.js';
import { consume, limiter } from '../rate-limit.js';
import { projectAccess, requireProject, teamManagerIds } from './access.service.js';
import { notify } from './notifications.service.js';
import { announceTeamChange } from './team-events.js';
import { getTeam } from './team-members.service.js';
import { fullName } from './users.service.js';
import type { Actor } from './actor.js';
import { iso, isoOrNull, isUniqueViolation } from '../db/query-types.js';
import {
  activeProjectByCode,
  cancelPendingJoinRequest,
  decideJoinRequestRow,
  insertJoinRequest,
  lastJoinRequest,
  lockPendingJoinRequest,
  recentJoinRequests,
  type JoinRequestRow,
} from '../repositories/join-requests.repository.js';
import { hasPendingInvitation } from '../repositories/invitations.repository.js';
import { acceptedAnotherWay } from './invitations.service.js';
import { addMember } from '../repositories/team.repository.js';
import { userById } from '../repositories/users.repository.js';

/**
 * Join requests by project code (SPEC §4, §7). A code answers only for an
 * active project: for any other code, existing or not, the answer is the
 * same "no active project", so nobody learns which codes exist.
 */

const NO_ACTIVE_PROJECT = 'No active project has this code. Check the code with the person who gave it to you.';

// Sending counts against the sender whatever the answer, so codes cannot be tried in bulk.
const sendLimiter = () => limiter('join-request-send', 20, 60 * 60);

type RequestRow = JoinRequestRow;

/** When the person may ask again after a decline (null when they may now). */
const retryAfter = (r: Pick<RequestRow, 'status' | 'decided_at'>, now = Date.now()): string | null => {
  if (r.status !== 'declined' || !r.decided_at) return null;
  const at = new Date(r.decided_at).getTime() + JOIN_REQUEST_COOLDOWN_MS;
  return at > now ? new Date(at).toISOString() : null;
};

const toMine = (r: RequestRow): MyJoinRequest => ({
  id: r.id,
  project: { id: r.id_project, name: r.project_name, project_code: r.project_code },
  status: r.status,
  created_at: iso(r.created_at),
  decided_at: isoOrNull(r.decided_at),
  retry_after: retryAfter(r),
});

/** POST /join-requests/send: asks the owner and team managers of the active project with this code to let the user in. */
export async function sendJoinRequest(user: Actor, code: string): Promise<MyJoinRequest> {
  await consume(sendLimiter(), String(user.id), 'You have sent many join requests in a short time.');
  const k = db();
  const project = await activeProjectByCode(k, code);
  if (!project) throw notFound(NO_ACTIVE_PROJECT);
  const access = await projectAccess(user, project.id);
  if (access && access.role !== 'admin') throw conflict('You are already a member of this project.');
  if (await hasPendingInvitation(k, { kind: 'project', id_project: project.id }, { id_user: user.id })) {
    throw conflict('You are already invited to this project. Accept the invitation from My invitations.');
  }
  const last = await lastJoinRequest(k, user.id, project.id);
  if (last?.status === 'pending') throw conflict('You have already asked to join this project. Wait for the answer.');
  const wait = last ? retryAfter(last) : null;
  if (wait) {
    const sec = Math.ceil((new Date(wait).getTime() - Date.now()) / 1000);
    throw tooManyRequests(`Your request to join this project was declined. You can ask again after ${new Date(wait).toUTCString()}.`, sec);
  }
  const row = await insertJoinRequest(k, project.id, user.id).catch((err) => {
    if (isUniqueViolation(err)) throw conflict('You have already asked to join this project. Wait for the answer.');
    throw err;
  });

  const who = await userById(db(), user.id);
  const name = who ? fullName(who) : 'Someone';
  const managers = await teamManagerIds(project.id);
  await Promise.all(
    managers.map((id) =>
      notify(
        id,
        { kind: 'team', type: 'info', ...notice('joinRequest', { name, project: project.name }), link: `/project/${project.id}` },
        { key: `join-request-${row.id}-u${id}` },
      ).catch((err) => logger.error({ err, user_id: id }, 'could not queue a join request notification')),
    ),
  );
  await announceTeamChange(project.id, 'join_request');
  return toMine({ ...row, project_name: project.name, project_code: code.trim().toLowerCase() });
}

/**
 * GET /join-requests/check-join-status: with a code, where the user stands
 * with that project ('none' for an unknown or inactive one); without, the
 * user's recent requests.
 */
export async function checkJoinStatus(user: Actor, code?: string): Promise<JoinStatus | MyJoinRequest[]> {
  const k = db();
  if (!code) {
    return (await recentJoinRequests(k, user.id)).map(toMine);
  }
  const project = await activeProjectByCode(k, code);
  if (!project) return { status: 'none', request: null };
  const access = await projectAccess(user, project.id);
  if (access && access.role !== 'admin') return { status: 'member', request: null };
  if (await hasPendingInvitation(k, { kind: 'project', id_project: project.id }, { id_user: user.id })) return { status: 'invited', request: null };
  const last = await lastJoinRequest(k, user.id, project.id);
  if (!last) return { status: 'none', request: null };
  return { status: last.status, request: toMine(last) };
}

/** POST /join-requests/cancel: the user withdraws their pending request. */
export async function cancelJoinRequest(user: Actor, projectId: number): Promise<{ cancelled: true }> {
  if (!(await cancelPendingJoinRequest(db(), projectId, user.id))) throw notFound('You have no pending request to join this project.');
  await announceTeamChange(projectId, 'join_request');
  return { cancelled: true };
}

/** POST /join-requests/accept|decline: the owner or a team manager answers a pending request. */
export async function decideJoinRequest(user: Actor, input: { id_project: number; id_user: number; role?: MemberRole }, accept: boolean): Promise<TeamMember | { declined: true }> {
  const role: MemberRole = input.role ?? 'viewer';
  const project = await db().transaction(async (trx) => {
    const access = await requireProject(user, input.id_project, 'manage-team', trx);
    if (accept && role === 'project_admin' && access.role !== 'owner' && access.role !== 'admin') {
      throw forbidden('Only the project owner can name project admins or let members manage the team.');
    }
    const row = await lockPendingJoinRequest(trx, input.id_project, input.id_user);
    if (!row) throw notFound('This person has no pending request to join the project.');
    await decideJoinRequestRow(trx, row.id, accept ? 'accepted' : 'declined', user.id);
    if (accept) {
      await addMember(trx, { id_project: input.id_project, id_user: input.id_user, role, permissions: {} }, 'keep');
      // An invitation still waiting is answered by the same fact.
      await acceptedAnotherWay(trx, { kind: 'project', id_project: input.id_project }, { id_user: input.id_user });
    }
    return access.project;
  });
  await announceTeamChange(input.id_project, accept ? 'member' : 'join_request', [input.id_user]);
  await notify(
    input.id_user,
    accept
      ? { kind: 'team', type: 'success', ...notice('joinAccepted', { project: project.name, role: { term: NOTICE_TERMS.role[role] } }), link: `/project/${project.id}` }
      : { kind: 'team', type: 'info', ...notice('joinDeclined', { project: project.name }), link: '/join' },
    { key: `join-answer-${input.id_project}-${input.id_user}-${Date.now()}` },
  ).catch((err) => logger.error({ err }, 'could not queue a join request answer'));
  if (!accept) return { declined: true };
  const team = await getTeam(user, input.id_project);
  return team.members.find((m) => m.user.id === input.id_user)!;
}
