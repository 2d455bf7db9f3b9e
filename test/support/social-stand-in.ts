import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';

/**
 * A local stand-in for the three sign-in services, each under its own path
 * prefix (/google, /facebook, /twitter) and speaking the real paths of its
 * service, so SiteWalk runs the real protocols without the internet
 * (SOCIAL_GOOGLE_URL=<url>/google, …):
 *
 * - the authorization page (a consent page with one button per person of
 *   that service, and Cancel → error=access_denied), checking client_id,
 *   response_type=code, redirect_uri and a PKCE S256 challenge;
 * - the token call: a code works once, for its client (Basic credentials;
 *   Facebook's client_secret parameter), its redirect_uri, and the verifier
 *   whose SHA-256 is the challenge;
 * - Google: an OpenID Connect ID token signed RS256, with the JWKS at
 *   /oauth2/v3/certs; Facebook's /me and X's /2/users/me with the access token.
 *
 * Tests in other processes steer it over HTTP under /__standin/.
 */

export type StandInProvider = 'google' | 'facebook' | 'twitter';
export interface StandInPerson {
  provider: StandInProvider;
  subject: string;
  email: string | null;
  /** Google's email_verified; Facebook and X only ever share a confirmed address. */
  email_verified?: boolean;
  first_name: string;
  last_name: string;
  /** X's @handle. */
  username?: string;
}
export interface SocialStandInOptions {
  clients: Record<StandInProvider, { id: string; secret: string }>;
  people: StandInPerson[];
}
export interface SocialStandIn {
  url: string;
  /** The base URL of one service (what SOCIAL_{PROVIDER}_URL is set to). */
  baseOf(provider: StandInProvider): string;
  addPerson(p: StandInPerson): void;
  /** The next Google ID token is signed with a key that is not in the JWKS. */
  forgeNextIdToken(): void;
  /** Token calls that were answered with tokens, per service. */
  tokensIssued: Record<StandInProvider, number>;
  close(): Promise<void>;
}

/** The real paths under each prefix (as core/src/social/providers.ts moves them). */
const PATHS: Record<StandInProvider, { authorize: string; token: string; me: string }> = {
  google: { authorize: '/o/oauth2/v2/auth', token: '/token', me: '' },
  facebook: { authorize: '/v21.0/dialog/oauth', token: '/v21.0/oauth/access_token', me: '/v21.0/me' },
  twitter: { authorize: '/i/oauth2/authorize', token: '/2/oauth2/token', me: '/2/users/me' },
};
const NAMES: Record<StandInProvider, string> = { google: 'Google', facebook: 'Facebook', twitter: 'X' };

interface Grant {
  provider: StandInProvider;
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce: string | null;
  person: StandInPerson;
  used: boolean;
}

const escapeHtml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function startSocialStandIn(opts: SocialStandInOptions): Promise<SocialStandIn> {
  const people = [...opts.people];
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, StandInPerson>();
  const tokensIssued: Record<StandInProvider, number> = { google: 0, facebook: 0, twitter: 0 };
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256');
  const kid = crypto.randomBytes(8).toString('hex');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  let forgeNext = false;
  let base = '';

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
    res.end(JSON.stringify(body));
  };
  const readBody = async (req: http.IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  function authorizeProblem(provider: StandInProvider, q: URLSearchParams): string | null {
    if (q.get('client_id') !== opts.clients[provider].id) return 'unknown client_id';
    if (q.get('response_type') !== 'code') return 'response_type must be code';
    if (!q.get('redirect_uri') || !q.get('state')) return 'redirect_uri and state are required';
    if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) return 'a PKCE S256 code_challenge is required';
    if (provider === 'google' && !q.get('scope')?.split(' ').includes('openid')) return 'scope must include openid';
    return null;
  }

  function consentPage(provider: StandInProvider, q: URLSearchParams): string {
    const hidden = [...q].map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('');
    const buttons = people
      .filter((p) => p.provider === provider)
      .map((p) => `<button name="person" value="${escapeHtml(p.subject)}">Continue as ${escapeHtml(`${p.first_name} ${p.last_name}`.trim())}${p.email ? ` (${escapeHtml(p.email)})` : ''}</button>`)
      .join('<br>');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${NAMES[provider]} stand-in</title></head><body><main>
<h1>Sign in with ${NAMES[provider]} (stand-in)</h1><form method="post">${hidden}${buttons}<br><button name="person" value="">Cancel</button></form></main></body></html>`;
  }

  function clientOf(provider: StandInProvider, req: http.IncomingMessage, url: URL, form: URLSearchParams): { id: string; secret: string } | null {
    const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const [id, ...rest] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      return { id: decodeURIComponent(id), secret: decodeURIComponent(rest.join(':')) };
    }
    const id = form.get('client_id') ?? url.searchParams.get('client_id');
    const secret = form.get('client_secret') ?? url.searchParams.get('client_secret');
    return id && secret ? { id, secret } : null;
  }

  async function token(provider: StandInProvider, req: http.IncomingMessage, res: http.ServerResponse, url: URL, form: URLSearchParams) {
    const client = clientOf(provider, req, url, form);
    const registered = opts.clients[provider];
    if (!client || client.id !== registered.id || client.secret !== registered.secret) return send(res, 401, { error: 'invalid_client' });
    if (form.get('grant_type') !== 'authorization_code') return send(res, 400, { error: 'unsupported_grant_type' });
    const grant = grants.get(form.get('code') ?? '');
    if (!grant || grant.used || grant.provider !== provider || grant.clientId !== client.id) return send(res, 400, { error: 'invalid_grant', error_description: 'unknown or used code' });
    grant.used = true;
    if (form.get('redirect_uri') !== grant.redirectUri) return send(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri differs' });
    const verifier = form.get('code_verifier') ?? '';
    if (crypto.createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) return send(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
    const accessToken = crypto.randomBytes(24).toString('base64url');
    accessTokens.set(accessToken, grant.person);
    const answer: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 };
    if (provider === 'google') {
      const p = grant.person;
      const now = Math.floor(Date.now() / 1000);
      const claims: Record<string, unknown> = { email: p.email ?? undefined, email_verified: p.email ? p.email_verified !== false : undefined, given_name: p.first_name, family_name: p.last_name, name: `${p.first_name} ${p.last_name}`.trim() };
      if (grant.nonce) claims.nonce = grant.nonce;
      answer.id_token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(`${base}/google`)
        .setAudience(client.id)
        .setSubject(p.subject)
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(forgeNext ? foreign.privateKey : privateKey);
      forgeNext = false;
      answer.scope = 'openid email profile';
    }
    tokensIssued[provider]++;
    return send(res, 200, answer);
  }

  function me(provider: StandInProvider, req: http.IncomingMessage, res: http.ServerResponse) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const p = bearer ? accessTokens.get(bearer[1]) : undefined;
    if (!p || p.provider !== provider) return send(res, 401, { error: { message: 'Invalid OAuth access token.' } });
    if (provider === 'facebook') return send(res, 200, { id: p.subject, name: `${p.first_name} ${p.last_name}`.trim(), first_name: p.first_name, last_name: p.last_name, ...(p.email ? { email: p.email } : {}) });
    return send(res, 200, { data: { id: p.subject, name: `${p.first_name} ${p.last_name}`.trim(), username: p.username ?? p.subject, ...(p.email ? { confirmed_email: p.email } : {}) } });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', base);
    const text = await readBody(req);
    if (url.pathname === '/__standin/people' && req.method === 'POST') {
      people.push(JSON.parse(text) as StandInPerson);
      return send(res, 201, { ok: true });
    }
    const [, prefix, ...rest] = url.pathname.split('/');
    const provider = (['google', 'facebook', 'twitter'] as const).find((p) => p === prefix);
    if (!provider) return send(res, 404, { error: 'not_found' });
    const path = `/${rest.join('/')}`;
    const paths = PATHS[provider];
    if (path === paths.authorize && req.method === 'GET') {
      const problem = authorizeProblem(provider, url.searchParams);
      if (problem) return send(res, 400, { error: 'invalid_request', error_description: problem });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(consentPage(provider, url.searchParams));
    }
    if (path === paths.authorize && req.method === 'POST') {
      const form = new URLSearchParams(text);
      const problem = authorizeProblem(provider, form);
      if (problem) return send(res, 400, { error: 'invalid_request', error_description: problem });
      const target = new URL(form.get('redirect_uri')!);
      target.searchParams.set('state', form.get('state')!);
      const person = people.find((p) => p.provider === provider && p.subject === form.get('person'));
      if (!person) {
        target.searchParams.set('error', 'access_denied');
      } else {
        const code = crypto.randomBytes(24).toString('base64url');
        grants.set(code, { provider, clientId: form.get('client_id')!, redirectUri: form.get('redirect_uri')!, challenge: form.get('code_challenge')!, nonce: form.get('nonce'), person, used: false });
        target.searchParams.set('code', code);
      }
      res.writeHead(302, { location: target.toString() });
      return res.end();
    }
    if (path === paths.token && req.method === 'POST') return token(provider, req, res, url, new URLSearchParams(text));
    if (provider === 'google' && path === '/oauth2/v3/certs' && req.method === 'GET') return send(res, 200, { keys: [jwk] });
    if (paths.me && path === paths.me && req.method === 'GET') return me(provider, req, res);
    return send(res, 404, { error: 'not_found' });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: Error) => send(res, 500, { error: 'server_error', error_description: err.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    baseOf: (provider) => `${base}/${provider}`,
    addPerson: (p) => people.push(p),
    forgeNextIdToken: () => {
      forgeNext = true;
    },
    tokensIssued,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
