import type { Context } from 'koa';
import { API_KEY_HEADER, type ApiKeyScope } from '@sitewalk/proto';
import type { Session, User } from '@sitewalk/core/db';
import { forbidden, unauthorized } from '@sitewalk/core/errors.js';
import { consume, limiter } from '@sitewalk/core/rate-limit.js';
import { looksLikePersonalKey, resolveApiKey, type ApiKeyPrincipal } from '@sitewalk/core/services/api-keys.service.js';
import { setLogUser } from './middleware.js';

/** Requests one key may make per minute: plenty for an integration, a brake on a runaway script. */
export const API_KEY_REQUESTS_PER_MINUTE = 600;
const keyLimiter = () => limiter('api-key', API_KEY_REQUESTS_PER_MINUTE, 60);

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** ctx.state.auth of a key request: auth.ts's AuthState with the key set (declared here so the two modules do not import each other). */
export interface KeyAuthState {
  user: User;
  session: Session;
  apiKey: ApiKeyAuth;
}

/** What ctx.state.auth says about the key of a key request. */
export interface ApiKeyAuth {
  /** The personal key's id; null for the settings' site-wide key. */
  id: number | null;
  scope: ApiKeyScope;
}

/**
 * The key a request carries in X-Api-Key, or as a bearer token of the
 * personal-key form (sw_…); null otherwise. A bearer token of another form
 * is a session token first (the site-wide key is tried after it, in auth.ts).
 */
export function presentedApiKey(ctx: Context): string | null {
  const header = ctx.get(API_KEY_HEADER).trim();
  if (header) return header;
  const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'));
  return m && looksLikePersonalKey(m[1]) ? m[1] : null;
}

/**
 * True when the request authenticates with a key: such requests come from
 * programs, not from a browser's cookies, so the cookie CSRF check does not
 * apply (another site cannot make a browser send these headers).
 */
export const carriesApiKey = (ctx: Context): boolean => presentedApiKey(ctx) !== null;

/**
 * The auth state of a key request: the owner, with the owner's rights. A key
 * has no session, so a route that needs one (sign-out, sessions, password,
 * keys, the queue monitor) answers 403 with a sentence rather than failing.
 */
function keyAuthState(p: ApiKeyPrincipal): KeyAuthState {
  return {
    user: p.user,
    apiKey: { id: p.keyId, scope: p.scope },
    get session(): Session {
      throw forbidden('An API key cannot do this. Sign in with your password to manage your sign-ins, password and keys.');
    },
  };
}

/**
 * Authenticates a key: 401 when it is unknown or revoked, 429 past its own
 * rate limit, 403 when a read key asks to change something. The key itself
 * is never logged; the log names the user.
 */
export async function authenticateApiKey(ctx: Context, key: string): Promise<KeyAuthState> {
  const p = await resolveApiKey(key);
  if (!p) throw unauthorized('This API key is not valid or has been revoked.');
  return admitPrincipal(ctx, p);
}

/** The site-wide key sent as a bearer token (tried when the token is no session); null when it is not that key. */
export async function authenticateSiteBearer(ctx: Context, token: string): Promise<KeyAuthState | null> {
  const p = await resolveApiKey(token);
  return p ? admitPrincipal(ctx, p) : null;
}

async function admitPrincipal(ctx: Context, p: ApiKeyPrincipal): Promise<KeyAuthState> {
  await consume(keyLimiter(), p.limitKey, 'This API key made too many requests.');
  if (p.scope === 'read' && !READ_METHODS.has(ctx.method)) {
    throw forbidden('This API key may only read. Use a read-write key to make changes.');
  }
  setLogUser(ctx, p.user.id);
  return keyAuthState(p);
}

/** Refuses key requests on routes that manage the account's own ways in (its keys), where only a signed-in person may act. */
export function refuseApiKey(ctx: Context): void {
  if ((ctx.state.auth as { apiKey?: ApiKeyAuth } | undefined)?.apiKey) {
    throw forbidden('An API key cannot do this. Sign in with your password to manage your sign-ins, password and keys.');
  }
}
