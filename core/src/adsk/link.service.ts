import type { AdskCallbackResult } from '@sitewalk/proto';
import { config } from '../config.js';
import { cryptoBox, type CryptoBox } from '../crypto-box.js';
import { db } from '../db/index.js';
import { adskLinkOf, deleteAdskLink, upsertAdskLink } from '../repositories/adsk-links.repository.js';
import { setAdskAuth } from '../repositories/users.repository.js';
import { HttpError, forbidden } from '../errors.js';
import { logger } from '../logger.js';
import { redis } from '../redis.js';
import { appSecret, hashToken, randomToken } from '../secrets.js';
import { getSettings } from '../services/settings.service.js';
import { ApsError } from './aps-client.js';
import { GrantRefused, authorizeUrl, exchangeCode, pkcePair, refreshTokens, revokeToken, type ClientCredentials, type TokenSet } from './oauth.js';

/**
 * A user's link to Autodesk: the OAuth round trip, tokens sealed at rest,
 * refresh with rotation under a row lock (a refresh token works once, so two
 * processes must never spend it both), revoke on disconnect. Autodesk's
 * tokens stay here: callers get an opaque handle, or a token handed straight
 * to the Autodesk client.
 */

export const DISABLED_MESSAGE = 'The Autodesk integration is switched off. An administrator can turn it on in Settings.';
export const NOT_CONFIGURED_MESSAGE = 'The Autodesk integration is not set up yet: an administrator must enter the Autodesk client id and secret in Settings.';
export const NOT_LINKED_MESSAGE = 'Your account is not connected to Autodesk. Connect it from your profile first.';
export const LINK_LOST_MESSAGE = 'Your Autodesk link has expired. Please connect again.';
const STATE_TTL_SEC = 600;
/** An access token this close to its end is refreshed before use. */
const EARLY_REFRESH_MS = 60_000;

let box: CryptoBox | null = null;
function tokenBox(): CryptoBox {
  box ??= cryptoBox(config.adskTokenKey || config.settingsKey || appSecret(), 'adsk-tokens');
  return box;
}
const ctxOf = (userId: number, kind: 'access' | 'refresh') => `adsk-link:${userId}:${kind}`;

/** The Autodesk callback address registered with the Autodesk app. */
export const redirectUri = () => `${config.appUrl}/api/autodesk/callback`;

/** The client credentials, or a clear refusal when the integration is off or not set up. */
export async function requireIntegration(): Promise<ClientCredentials> {
  const s = await getSettings();
  if (!s.adsk_enable) throw forbidden(DISABLED_MESSAGE);
  if (!s.adsk_client || !s.adsk_secret) throw new HttpError(409, NOT_CONFIGURED_MESSAGE);
  return { clientId: s.adsk_client, clientSecret: s.adsk_secret, redirectUri: redirectUri() };
}

const stateKey = (state: string) => `${config.redisPrefix}:adsk-oauth:${hashToken(state)}`;

/** GET /autodesk/auth-url: Autodesk's sign-in address, with a one-time state and a PKCE challenge kept for the callback. */
export async function startConnect(userId: number): Promise<string> {
  const creds = await requireIntegration();
  const state = randomToken();
  const { verifier, challenge } = pkcePair();
  await redis().set(stateKey(state), JSON.stringify({ user_id: userId, verifier }), 'EX', STATE_TTL_SEC);
  return authorizeUrl(config.adskBaseUrl, creds, state, challenge);
}

/** Seals a fresh token pair into the user's link (one row per user) and returns the new browser handle. */
async function storeTokens(k: ReturnType<typeof db>, userId: number, t: TokenSet): Promise<{ handle: string; expiresAt: number }> {
  const handle = randomToken();
  const expiresAt = Date.now() + Math.max(60, Number(t.expires_in) || 3600) * 1000;
  const row = {
    id_user: userId,
    access_token: tokenBox().seal(t.access_token, ctxOf(userId, 'access')),
    refresh_token: tokenBox().seal(t.refresh_token, ctxOf(userId, 'refresh')),
    expires_at: new Date(expiresAt),
    handle_hash: hashToken(handle),
    scope: (t.scope ?? '').slice(0, 300),
    updated_at: new Date(),
  };
  await upsertAdskLink(k, row);
  // Through the model, so every API process forgets the cached session that still says 'not linked'.
  await setAdskAuth(k, userId, true);
  return { handle, expiresAt };
}

/** Forgets the link (tokens and flag); the caller revokes first when it can. */
async function dropLink(userId: number, k: ReturnType<typeof db> = db()): Promise<void> {
  await deleteAdskLink(k, userId);
  await setAdskAuth(k, userId, false);
}

export interface CallbackOutcome {
  result: AdskCallbackResult;
  /** The browser handle for the adsk_access_token cookie, on success. */
  handle?: string;
  expiresAt?: number;
}

/**
 * GET /autodesk/callback: the browser comes back from Autodesk. The state
 * must be one this server issued and not yet used (it is spent here, so a
 * replayed callback is refused); the code is traded with the PKCE verifier.
 */
export async function finishConnect(q: { code?: string; state?: string; error?: string; error_description?: string }): Promise<CallbackOutcome> {
  const fail = (message: string): CallbackOutcome => ({ result: { status: 'error', message } });
  if (!q.state) return fail('Failed to connect to Autodesk: the answer from Autodesk was incomplete. Please try again.');
  const raw = await redis().getdel(stateKey(q.state));
  if (!raw) return fail('Failed to connect to Autodesk: this sign-in does not match one started here, or it expired. Please click Connect again.');
  const { user_id: userId, verifier } = JSON.parse(raw) as { user_id: number; verifier: string };
  if (q.error) return fail(q.error === 'access_denied' ? 'Failed to connect to Autodesk: access was not allowed.' : 'Failed to connect to Autodesk.');
  if (!q.code) return fail('Failed to connect to Autodesk: the answer from Autodesk was incomplete. Please try again.');
  let creds: ClientCredentials;
  try {
    creds = await requireIntegration();
  } catch (err) {
    return fail((err as Error).message);
  }
  try {
    const tokens = await exchangeCode(creds, q.code, verifier);
    const { handle, expiresAt } = await storeTokens(db(), userId, tokens);
    logger.info({ user_id: userId }, 'Autodesk account connected');
    return { result: { status: 'success', message: 'Connected to Autodesk.' }, handle, expiresAt };
  } catch (err) {
    logger.warn({ user_id: userId, err: (err as Error).message }, 'Autodesk code exchange failed');
    return fail(err instanceof GrantRefused ? 'Failed to connect to Autodesk: Autodesk did not accept the sign-in. Please try again.' : 'Failed to connect to Autodesk: Autodesk did not answer. Please try again.');
  }
}

/** GET /autodesk/check-auth: a link exists whose access token is still good (an expired one says false: the client then refreshes). */
export async function isLinked(userId: number): Promise<boolean> {
  await requireIntegration();
  const row = await adskLinkOf(db(), userId);
  return !!row && new Date(row.expires_at).getTime() > Date.now();
}

/**
 * Refreshes the user's tokens with rotation, under a row lock. `stale` is
 * the access token that failed (or expired): when the row holds another one,
 * someone else refreshed meanwhile and that one is used. A refused refresh
 * drops the link: the user is no longer connected. Returns null then.
 */
export async function refreshLink(userId: number, opts: { stale?: string; force?: boolean } = {}): Promise<{ access: string; handle: string | null; expiresAt: number } | null> {
  const creds = await requireIntegration();
  return db().transaction(async (trx) => {
    const row = await adskLinkOf(trx, userId, { lock: true });
    if (!row) return null;
    const current = tokenBox().open(row.access_token, ctxOf(userId, 'access'));
    const fresh = new Date(row.expires_at).getTime() - EARLY_REFRESH_MS > Date.now();
    if (!opts.force && fresh && current !== opts.stale) return { access: current, handle: null, expiresAt: new Date(row.expires_at).getTime() };
    let tokens: TokenSet;
    try {
      tokens = await refreshTokens(creds, tokenBox().open(row.refresh_token, ctxOf(userId, 'refresh')));
    } catch (err) {
      if (!(err instanceof GrantRefused)) throw err;
      logger.warn({ user_id: userId }, 'Autodesk refused the token refresh: the link is dropped');
      await dropLink(userId, trx);
      return null;
    }
    const stored = await storeTokens(trx, userId, tokens);
    return { access: tokens.access_token, handle: stored.handle, expiresAt: stored.expiresAt };
  });
}

/** POST /autodesk/refresh: a new token pair; the answer carries the new browser handle (never Autodesk's token). */
export async function refreshForBrowser(userId: number): Promise<{ handle: string; expiresAt: number }> {
  const had = !!(await adskLinkOf(db(), userId));
  const r = had ? await refreshLink(userId, { force: true }) : null;
  if (!r || !r.handle) throw new HttpError(409, had ? LINK_LOST_MESSAGE : NOT_LINKED_MESSAGE);
  return { handle: r.handle, expiresAt: r.expiresAt };
}

/**
 * Runs `fn` with a good access token of the user: refreshed first when it
 * is about to end, and once more when Autodesk still answers 401.
 */
export async function withAccess<T>(userId: number, fn: (token: () => Promise<string>) => Promise<T>): Promise<T> {
  const row = await adskLinkOf(db(), userId);
  if (!row) throw new HttpError(409, NOT_LINKED_MESSAGE);
  // A token with time left is used as read; only one about to end takes the row lock to refresh.
  let token: string | null = new Date(row.expires_at).getTime() - EARLY_REFRESH_MS > Date.now() ? tokenBox().open(row.access_token, ctxOf(userId, 'access')) : null;
  const get = async () => {
    if (token) return token;
    const r = await refreshLink(userId);
    if (!r) throw new HttpError(409, LINK_LOST_MESSAGE);
    return (token = r.access);
  };
  try {
    return await fn(get);
  } catch (err) {
    if (!(err instanceof ApsError) || err.apsStatus !== 401 || !token) throw err;
    const r = await refreshLink(userId, { stale: token });
    if (!r) throw new HttpError(409, LINK_LOST_MESSAGE);
    token = r.access;
    return fn(get);
  }
}

/** POST /autodesk/logout: revokes both tokens at Autodesk (best effort) and forgets the link. */
export async function disconnect(userId: number): Promise<void> {
  const row = await adskLinkOf(db(), userId);
  if (row) {
    try {
      const s = await getSettings();
      if (s.adsk_client && s.adsk_secret) {
        const creds = { clientId: s.adsk_client, clientSecret: s.adsk_secret, redirectUri: redirectUri() };
        await revokeToken(creds, tokenBox().open(row.refresh_token, ctxOf(userId, 'refresh')), 'refresh_token');
        await revokeToken(creds, tokenBox().open(row.access_token, ctxOf(userId, 'access')), 'access_token');
      }
    } catch (err) {
      // The link is forgotten here either way; Autodesk lets the tokens lapse.
      logger.warn({ user_id: userId, err: (err as Error).message }, 'could not revoke the Autodesk tokens');
    }
  }
  await dropLink(userId);
}
