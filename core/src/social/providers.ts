import { CodeChallengeMethod, OAuth2Client, generateCodeVerifier, type OAuth2Tokens } from 'arctic';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { SocialProvider } from '@sitewalk/proto';

/**
 * The three sign-in services and how each says who signed in: Google by an
 * OpenID Connect ID token (RS256, checked against its JWKS, issuer, audience
 * and nonce), Facebook and X by their "me" call with the access token. All
 * three use the authorization-code flow with PKCE (S256) through arctic's
 * OAuth2Client, whose endpoints are given here so a base URL can replace the
 * real hosts (config.socialBaseUrls; tests use test/support/social-stand-in.ts).
 */

export interface ProviderEndpoints {
  authorize: string;
  token: string;
  /** The "who am I" call (Facebook, X). */
  userinfo?: string;
  /** The signing keys of ID tokens (Google). */
  jwks?: string;
  /** Accepted `iss` values of ID tokens (Google). */
  issuers?: string[];
}

const REAL_ENDPOINTS: Record<SocialProvider, ProviderEndpoints> = {
  google: {
    authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
    token: 'https://oauth2.googleapis.com/token',
    jwks: 'https://www.googleapis.com/oauth2/v3/certs',
    issuers: ['https://accounts.google.com', 'accounts.google.com'],
  },
  facebook: {
    authorize: 'https://www.facebook.com/v21.0/dialog/oauth',
    token: 'https://graph.facebook.com/v21.0/oauth/access_token',
    userinfo: 'https://graph.facebook.com/v21.0/me?fields=id,name,email,first_name,last_name',
  },
  twitter: {
    authorize: 'https://x.com/i/oauth2/authorize',
    token: 'https://api.x.com/2/oauth2/token',
    userinfo: 'https://api.x.com/2/users/me?user.fields=confirmed_email,name,username',
  },
};

const SCOPES: Record<SocialProvider, string[]> = {
  google: ['openid', 'email', 'profile'],
  facebook: ['email', 'public_profile'],
  // users.email gives confirmed_email; tweet.read is required beside users.read by X.
  twitter: ['users.read', 'tweet.read', 'users.email'],
};

/**
 * The endpoints of a service: the real ones, or the same paths under `base`
 * (whose issuer is then `base` itself).
 */
export function providerEndpoints(provider: SocialProvider, base: string): ProviderEndpoints {
  const real = REAL_ENDPOINTS[provider];
  if (!base) return real;
  const moved = (u: string | undefined) => {
    if (!u) return undefined;
    const url = new URL(u);
    return `${base}${url.pathname}${url.search}`;
  };
  return { authorize: moved(real.authorize)!, token: moved(real.token)!, userinfo: moved(real.userinfo), jwks: moved(real.jwks), issuers: real.issuers ? [base] : undefined };
}

export interface ProviderCredentials {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** Who signed in at the service. */
export interface SocialIdentity {
  /** The service's stable id of the person (`sub`, Facebook's id, X's id). */
  subject: string;
  email: string | null;
  /** Whether the service vouches that the person owns `email`. */
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  /** A handle to suggest a username from (X's @name), if any. */
  handle: string | null;
}

/** The service refused, or answered something SiteWalk cannot trust. Its message goes to the log only. */
export class ProviderError extends Error {
  override name = 'ProviderError';
}

/** Facebook takes the client secret as a parameter of the token call, not as Basic credentials. */
const sendsSecretInBasic = (provider: SocialProvider) => provider !== 'facebook';

function oauthClient(provider: SocialProvider, creds: ProviderCredentials): OAuth2Client {
  return new OAuth2Client(creds.clientId, sendsSecretInBasic(provider) ? creds.clientSecret : null, creds.redirectUri);
}

/** A new PKCE verifier (RFC 7636): kept server-side with the state, its S256 challenge goes into the URL. */
export const newCodeVerifier = () => generateCodeVerifier();

/** The service's authorization page for one sign-in. */
export function authorizationUrl(
  provider: SocialProvider,
  endpoints: ProviderEndpoints,
  creds: ProviderCredentials,
  a: { state: string; verifier: string; nonce: string },
): string {
  const url = oauthClient(provider, creds).createAuthorizationURLWithPKCE(endpoints.authorize, a.state, CodeChallengeMethod.S256, a.verifier, SCOPES[provider]);
  if (provider === 'google') {
    url.searchParams.set('nonce', a.nonce);
    url.searchParams.set('prompt', 'select_account');
  }
  return url.toString();
}

const jwksByUrl = new Map<string, JWTVerifyGetKey>();
/** One key set per URL and process: jose caches the keys and fetches again when an unknown key id appears. */
function jwks(url: string): JWTVerifyGetKey {
  let set = jwksByUrl.get(url);
  if (!set) {
    set = createRemoteJWKSet(new URL(url), { timeoutDuration: 10_000 });
    jwksByUrl.set(url, set);
  }
  return set;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

async function getJson(url: string, accessToken: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
  if (!res.ok) {
    await res.body?.cancel();
    throw new ProviderError(`the profile call answered ${res.status}`);
  }
  const body: unknown = await res.json();
  if (!body || typeof body !== 'object') throw new ProviderError('the profile call answered no object');
  return body as Record<string, unknown>;
}

/** Trades the code (with the PKCE verifier) for tokens and finds out who signed in. */
export async function identify(
  provider: SocialProvider,
  endpoints: ProviderEndpoints,
  creds: ProviderCredentials,
  a: { code: string; verifier: string; nonce: string },
): Promise<SocialIdentity> {
  let tokenUrl = endpoints.token;
  if (!sendsSecretInBasic(provider)) {
    const u = new URL(tokenUrl);
    u.searchParams.set('client_secret', creds.clientSecret);
    tokenUrl = u.toString();
  }
  let tokens: OAuth2Tokens;
  try {
    tokens = await oauthClient(provider, creds).validateAuthorizationCode(tokenUrl, a.code, a.verifier);
  } catch (err) {
    throw new ProviderError(`the token call failed: ${(err as Error).message}`);
  }
  if (provider === 'google') {
    let idToken: string;
    try {
      idToken = tokens.idToken();
    } catch {
      throw new ProviderError('the token answer has no ID token');
    }
    const { payload } = await jwtVerify(idToken, jwks(endpoints.jwks!), { issuer: endpoints.issuers, audience: creds.clientId, algorithms: ['RS256'] }).catch((err: Error) => {
      throw new ProviderError(`the ID token does not verify: ${err.message}`);
    });
    if (payload.nonce !== a.nonce) throw new ProviderError('the ID token is not the one of this sign-in (nonce)');
    if (!payload.sub) throw new ProviderError('the ID token names nobody');
    return {
      subject: payload.sub,
      email: str(payload.email) || null,
      emailVerified: payload.email_verified === true,
      firstName: str(payload.given_name),
      lastName: str(payload.family_name),
      handle: null,
    };
  }
  let accessToken: string;
  try {
    accessToken = tokens.accessToken();
  } catch {
    throw new ProviderError('the token answer has no access token');
  }
  const me = await getJson(endpoints.userinfo!, accessToken);
  if (provider === 'facebook') {
    if (!str(me.id)) throw new ProviderError('the profile names nobody');
    // Facebook shares only an address its user has confirmed.
    return { subject: str(me.id), email: str(me.email) || null, emailVerified: !!str(me.email), firstName: str(me.first_name), lastName: str(me.last_name), handle: null };
  }
  const data = (me.data ?? {}) as Record<string, unknown>;
  if (!str(data.id)) throw new ProviderError('the profile names nobody');
  const [first, ...rest] = str(data.name).trim().split(/\s+/);
  return { subject: str(data.id), email: str(data.confirmed_email) || null, emailVerified: !!str(data.confirmed_email), firstName: first ?? '', lastName: rest.join(' '), handle: str(data.username) || null };
}
