import crypto from 'node:crypto';
import { apsJson, apsRaw, ApsError } from './aps-client.js';

/**
 * OAuth 2.0 three-legged with PKCE against Autodesk's authentication v2
 * (/authentication/v2/authorize, /token, /revoke). Pure request building
 * plus the three token calls; where tokens are kept is link.service.ts.
 */

/** What SiteWalk asks for: reading files and their viewables. */
export const ADSK_SCOPES = 'data:read viewables:read';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface TokenSet {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope?: string;
}

/** A PKCE pair (RFC 7636, S256): the verifier stays on the server, the challenge goes in the URL. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(48).toString('base64url'); // 64 characters, within 43..128
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

/** The address of Autodesk's sign-in page for this request. */
export function authorizeUrl(base: string, creds: ClientCredentials, state: string, challenge: string): string {
  const u = new URL(`${base}/authentication/v2/authorize`);
  u.searchParams.set('response_type', 'code');
  u.searchParams.set('client_id', creds.clientId);
  u.searchParams.set('redirect_uri', creds.redirectUri);
  u.searchParams.set('scope', ADSK_SCOPES);
  u.searchParams.set('state', state);
  u.searchParams.set('code_challenge', challenge);
  u.searchParams.set('code_challenge_method', 'S256');
  return u.toString();
}

const basic = (c: ClientCredentials) => `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;

/** Autodesk refused the grant (bad, used or expired code or refresh token): the link cannot go on. */
export class GrantRefused extends Error {
  override name = 'GrantRefused';
}

async function tokenCall(creds: ClientCredentials, form: Record<string, string>): Promise<TokenSet> {
  try {
    const t = await apsJson<TokenSet>('/authentication/v2/token', { method: 'POST', headers: { authorization: basic(creds) }, form });
    if (!t.access_token || !t.refresh_token) throw new GrantRefused('Autodesk answered without tokens.');
    return t;
  } catch (err) {
    // 400 invalid_grant, 401 invalid_client: no retry will change that.
    if (err instanceof ApsError && (err.apsStatus === 400 || err.apsStatus === 401)) throw new GrantRefused(err.message);
    throw err;
  }
}

/** Trades the authorization code (and the PKCE verifier) for tokens. */
export const exchangeCode = (creds: ClientCredentials, code: string, verifier: string) =>
  tokenCall(creds, { grant_type: 'authorization_code', code, redirect_uri: creds.redirectUri, code_verifier: verifier });

/** A new token pair; the refresh token given is spent (Autodesk's refresh tokens are single-use). */
export const refreshTokens = (creds: ClientCredentials, refreshToken: string) =>
  tokenCall(creds, { grant_type: 'refresh_token', refresh_token: refreshToken, scope: ADSK_SCOPES });

/** Revokes one token at Autodesk; true when Autodesk confirmed. */
export async function revokeToken(creds: ClientCredentials, token: string, hint: 'access_token' | 'refresh_token'): Promise<boolean> {
  const res = await apsRaw('/authentication/v2/revoke', { method: 'POST', headers: { authorization: basic(creds) }, form: { token, token_type_hint: hint } });
  await res.body?.cancel();
  return res.ok;
}
