import type { Context, Next } from 'koa';
import type { Session, User } from '../core/db/index.js';
import { resolveToken } from '../core/services/session.service.js';
import { isSuperAdmin } from '../core/services/access.service.js';
import { forbidden, unauthorized } from '../core/errors.js';
import { setLogUser } from './middleware.js';

export interface AuthState {
  user: User;
  session: Session;
}

/** Reads the bearer token (or the socket/auth cookie-less clients) from the request. */
export function bearerToken(ctx: Context): string | null {
  const h = ctx.get('authorization');
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

/** Requires a valid session; sets ctx.state.auth. */
export async function requireAuth(ctx: Context, next: Next): Promise<void> {
  const token = bearerToken(ctx);
  if (!token) throw unauthorized('Please sign in to continue.');
  const found = await resolveToken(token);
  if (!found) throw unauthorized('Your session has expired. Please sign in again.');
  ctx.state.auth = found satisfies AuthState;
  setLogUser(ctx, found.user.id);
  await next();
}

/** Sets ctx.state.auth when a valid token is present, without requiring one. */
export async function optionalAuth(ctx: Context, next: Next): Promise<void> {
  const token = bearerToken(ctx);
  if (token) {
    const found = await resolveToken(token);
    if (found) ctx.state.auth = found;
  }
  await next();
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

