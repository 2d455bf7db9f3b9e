import type { Context, Next } from 'koa';
import type { Session, User } from '@sitewalk/core/db';
import { resolveToken } from '@sitewalk/core/services/session.service.js';
import { touchSession } from '@sitewalk/core/services/account-sessions.service.js';
import { isSuperAdmin } from '@sitewalk/core/services/access.service.js';
import { forbidden, unauthorized } from '@sitewalk/core/errors.js';
import { setLogUser } from './middleware.js';
import { authenticateApiKey, authenticateSiteBearer, presentedApiKey, type ApiKeyAuth } from './api-key-auth.js';

export interface AuthState {
  user: User;
  session: Session;
  /** Set when the request authenticated with an API key (api-key-auth.ts) rather than a session. */
  apiKey?: ApiKeyAuth;
}

/** Reads the bearer token (or the socket/auth cookie-less clients) from the request. */
export function bearerToken(ctx: Context): string | null {
  const h = ctx.get('authorization');
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

/** Requires a valid session or API key (api-key-auth.ts); sets ctx.state.auth. */
export async function requireAuth(ctx: Context, next: Next): Promise<void> {
  const key = presentedApiKey(ctx);
  if (key !== null) {
    ctx.state.auth = await authenticateApiKey(ctx, key);
    return next();
  }
  const token = bearerToken(ctx);
  if (!token) throw unauthorized('Please sign in to continue.');
  const found = await resolveToken(token);
  if (!found) {
    // Not a session: perhaps the settings' site-wide key, sent as a bearer token.
    const site = await authenticateSiteBearer(ctx, token);
    if (!site) throw unauthorized('Your session has expired. Please sign in again.');
    ctx.state.auth = site;
    return next();
  }
  ctx.state.auth = found satisfies AuthState;
  setLogUser(ctx, found.user.id);
  touchSession(found.session);
  return next();
}

/** Sets ctx.state.auth when a valid token is present, without requiring one. */
export async function optionalAuth(ctx: Context, next: Next): Promise<void> {
  const key = presentedApiKey(ctx);
  if (key !== null) {
    ctx.state.auth = await authenticateApiKey(ctx, key);
    return next();
  }
  const token = bearerToken(ctx);
  if (token) {
    const found = await resolveToken(token);
    if (found) ctx.state.auth = found;
    else {
      const site = await authenticateSiteBearer(ctx, token);
      if (site) ctx.state.auth = site;
    }
  }
  return next();
}

/** Requires the super_admin flag (after requireAuth). */
export async function requireSuperAdmin(ctx: Context, next: Next): Promise<void> {
  const auth = ctx.state.auth as AuthState | undefined;
  if (!auth) throw unauthorized();
  if (!isSuperAdmin(auth.user)) throw forbidden('Only administrators can do this.');
  await next();
}

/** The signed-in user of a request that passed requireAuth. */
export function currentUser(ctx: Context): User {
  const auth = ctx.state.auth as AuthState | undefined;
  if (!auth) throw unauthorized();
  return auth.user;
}

