import type { AccountSession } from '@sitewalk/proto';
import { listSessions, revokeOtherSessions, revokeOwnSession, revokeSessionsOf } from '@sitewalk/core/services/account-sessions.service.js';
import { requireAuth, requireSuperAdmin, type AuthState } from '../http/auth.js';
import { ok } from '../http/envelope.js';
import { idParam } from '../http/validate.js';
import type { RouteModule } from './types.js';

/** The devices an account is signed in on, and signing them out (issue 24 "Sessions"). */
const sessionsRoutes: RouteModule = (r) => {
  r.get('/sessions', requireAuth, async (ctx) => {
    const { user, session } = ctx.state.auth as AuthState;
    ok<AccountSession[]>(ctx, await listSessions(user.id, session.id));
  });
  r.post('/sessions/revoke-others', requireAuth, async (ctx) => {
    const { user, session } = ctx.state.auth as AuthState;
    const { revoked } = await revokeOtherSessions(user.id, session.id);
    ok(ctx, { revoked }, revoked ? `Signed out on ${revoked} other device(s).` : 'You were signed in nowhere else.');
  });
  r.post('/users/:id/sessions/revoke', requireAuth, requireSuperAdmin, async (ctx) => {
    const { session } = ctx.state.auth as AuthState;
    const { revoked } = await revokeSessionsOf(idParam(ctx), session.id);
    ok(ctx, { revoked }, revoked ? `Signed out on ${revoked} device(s).` : 'This account was signed in nowhere.');
  });
  r.delete('/sessions/:id', requireAuth, async (ctx) => {
    const { user } = ctx.state.auth as AuthState;
    ok(ctx, await revokeOwnSession(user.id, idParam(ctx)), 'Signed out on that device.');
  });
};

export default sessionsRoutes;
