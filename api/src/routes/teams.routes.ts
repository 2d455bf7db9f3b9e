import {
  inviteMemberSchema,
  joinAcceptSchema,
  joinSendSchema,
  joinStatusQuerySchema,
  memberPermissionsQuerySchema,
  projectOnlySchema,
  projectUserSchema,
  removeMemberSchema,
  teamQuerySchema,
  updatePermissionsSchema,
  type JoinStatus,
  type MemberPermissions,
  type MyInvitation,
  type MyJoinRequest,
  type ProjectTeam,
  type TeamInvitation,
  type TeamMember,
} from '@sitewalk/proto';
import { currentUser, requireAuth } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { body, idParam, query } from '../http/validate.js';
import { getMemberPermissions, getTeam, leaveProject, removeMember, transferOwnership, updatePermissions } from '@sitewalk/core/services/team-members.service.js';
import { answerInvitation, cancelInvitation, inviteMember, myInvitations } from '@sitewalk/core/services/team-invitations.service.js';
import { cancelJoinRequest, checkJoinStatus, decideJoinRequest, sendJoinRequest } from '@sitewalk/core/services/join-requests.service.js';
import type { RouteModule } from './types.js';

/**
 * SPEC §7 "Team members and join requests", and the signed-in user's
 * invitations. Mounted before the users routes: /users/invitations must not
 * be read as /users/{id}.
 */
const teamsRoutes: RouteModule = (r) => {
  r.get('/team-members', requireAuth, async (ctx) => {
    const { id_project } = query(ctx, teamQuerySchema);
    ok<ProjectTeam>(ctx, await getTeam(currentUser(ctx), id_project));
  });

  r.get('/team-members/permissions', requireAuth, async (ctx) => {
    const { id_project, id_user } = query(ctx, memberPermissionsQuerySchema);
    ok<MemberPermissions>(ctx, await getMemberPermissions(currentUser(ctx), id_project, id_user));
  });

  r.put('/team-members/update-permissions', requireAuth, async (ctx) => {
    ok<TeamMember>(ctx, await updatePermissions(currentUser(ctx), body(ctx, updatePermissionsSchema)), 'Permissions updated.');
  });

  r.post('/team-members/remove-team-member', requireAuth, async (ctx) => {
    ok(ctx, await removeMember(currentUser(ctx), body(ctx, removeMemberSchema)), 'The member was removed from the project.');
  });

  r.post('/team-members/leave-project', requireAuth, async (ctx) => {
    const { id_project } = body(ctx, projectOnlySchema);
    ok(ctx, await leaveProject(currentUser(ctx), id_project), 'You left the project.');
  });

  r.post('/team-members/invite-team-member', requireAuth, async (ctx) => {
    const invitation = await inviteMember(currentUser(ctx), body(ctx, inviteMemberSchema));
    created<TeamInvitation>(ctx, invitation, invitation.sent ? 'Invitation sent.' : 'The invitation is saved, but no e-mail could be sent. Someone who already has an account finds it under My invitations.');
  });

  r.post('/team-members/cancel-invitation', requireAuth, async (ctx) => {
    const { id_project, id_user } = body(ctx, projectUserSchema);
    ok(ctx, await cancelInvitation(currentUser(ctx), id_project, id_user), 'Invitation cancelled.');
  });

  r.post('/team-members/transfer-ownership', requireAuth, async (ctx) => {
    const { id_project, id_user } = body(ctx, projectUserSchema);
    ok<ProjectTeam>(ctx, await transferOwnership(currentUser(ctx), id_project, id_user), 'The project was handed over.');
  });

  r.post('/join-requests/send', requireAuth, async (ctx) => {
    const { project_code } = body(ctx, joinSendSchema);
    created<MyJoinRequest>(ctx, await sendJoinRequest(currentUser(ctx), project_code), 'Join request sent. The project owner will answer it.');
  });

  r.get('/join-requests/check-join-status', requireAuth, async (ctx) => {
    const { project_code } = query(ctx, joinStatusQuerySchema);
    ok<JoinStatus | MyJoinRequest[]>(ctx, await checkJoinStatus(currentUser(ctx), project_code));
  });

  r.post('/join-requests/cancel', requireAuth, async (ctx) => {
    const { id_project } = body(ctx, projectOnlySchema);
    ok(ctx, await cancelJoinRequest(currentUser(ctx), id_project), 'Join request cancelled.');
  });

  r.post('/join-requests/accept', requireAuth, async (ctx) => {
    ok(ctx, (await decideJoinRequest(currentUser(ctx), body(ctx, joinAcceptSchema), true)) as TeamMember, 'Join request accepted.');
  });

  r.post('/join-requests/decline', requireAuth, async (ctx) => {
    ok(ctx, await decideJoinRequest(currentUser(ctx), body(ctx, projectUserSchema), false), 'Join request declined.');
  });

  r.get('/users/invitations', requireAuth, async (ctx) => {
    ok<MyInvitation[]>(ctx, await myInvitations(currentUser(ctx)));
  });

  r.post('/users/invitations/accept/:id', requireAuth, async (ctx) => {
    ok<MyInvitation>(ctx, await answerInvitation(currentUser(ctx), idParam(ctx), true), 'Invitation accepted. You are now a member of the project.');
  });

  r.post('/users/invitations/decline/:id', requireAuth, async (ctx) => {
    ok<MyInvitation>(ctx, await answerInvitation(currentUser(ctx), idParam(ctx), false), 'Invitation declined.');
  });
};

export default teamsRoutes;
