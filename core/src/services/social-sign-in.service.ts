import {
  SOCIAL_PROVIDER_NAMES,
  SOCIAL_PROVIDERS,
  SOCIAL_REFUSALS,
  type LinkedAccountsResponse,
  type Settings,
  type SocialProvider,
  type SocialRefusal,
} from '@sitewalk/proto';
import { type User, db } from '../db/index.js';
import { insertUser, isTaken, lockUser, userByEmail, userById } from '../repositories/users.repository.js';
import { identitiesOfUser, identityBySubject, insertIdentityRow, linkedSubject, touchIdentity, unlinkIdentity } from '../repositories/user-identities.repository.js';
import { conflict, notFound, unauthorized } from '../errors.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { redis } from '../redis.js';
import { hashToken, randomToken, safeEqual } from '../secrets.js';
import { authorizationUrl, identify, newCodeVerifier, providerEndpoints, ProviderError, type ProviderCredentials, type SocialIdentity } from '../social/providers.js';
import { socialUsername } from '../social/social-username.js';
import { announceRegistration } from './account.service.js';
import { unusablePasswordHash } from './passwords.js';
import { getSettings } from './settings.service.js';
import { uniqueViolationToConflict } from './users.service.js';

/**
 * Sign-in with Google, Facebook and X (issue 24). The browser's round trip:
 *
 * 1. start: a one-time state (with the PKCE verifier, the OIDC nonce, what
 *    it is for and for whom) is kept in Redis for ten minutes, and tied to
 *    this browser by a random binding whose hash is stored beside it (the
 *    route sets it as an HttpOnly cookie). A callback from another browser
 *    (a forged or stolen state, "login CSRF") does not match.
 * 2. callback: the state is spent (GETDEL), the code is traded with the
 *    verifier, the identity checked (ID token signature, issuer, audience,
 *    nonce). The account is the one linked to that identity, else the one
 *    with the same e-mail when the service vouches for it and the account's
 *    own address was confirmed, else a new one when registration is open.
 * 3. The browser lands on /login with a one-minute ticket (never a session
 *    token in an address), which the sign-in page trades for a session.
 */

const STATE_TTL_SEC = 600;
const TICKET_TTL_SEC = 60;
const stateKey = (state: string) => `${config.redisPrefix}:social-state:${hashToken(state)}`;
const ticketKey = (ticket: string) => `${config.redisPrefix}:social-ticket:${hashToken(ticket)}`;

/** A refusal the callback turns into ?social_error=code (the client says it in the user's language). */
export class SocialRefused extends Error {
  override name = 'SocialRefused';
  constructor(readonly code: SocialRefusal) {
    super(SOCIAL_REFUSALS[code]);
  }
}

interface PendingState {
  provider: SocialProvider;
  verifier: string;
  nonce: string;
  intent: 'sign_in' | 'link';
  user_id: number | null;
  remember: boolean;
  language: 'en' | 'ar';
  binding: string;
}

const settingOf = (s: Settings, provider: SocialProvider, field: 'enable' | 'id' | 'secret') => s[`social_${provider}_${field}` as keyof Settings];

/** The services turned on, with an id and a secret. */
export function enabledProviders(s: Settings): SocialProvider[] {
  return SOCIAL_PROVIDERS.filter((p) => settingOf(s, p, 'enable') === true && !!settingOf(s, p, 'id') && !!settingOf(s, p, 'secret'));
}

async function credentials(provider: SocialProvider): Promise<ProviderCredentials> {
  const s = await getSettings();
  if (!enabledProviders(s).includes(provider)) throw new SocialRefused('disabled_provider');
  return {
    clientId: String(settingOf(s, provider, 'id')),
    clientSecret: String(settingOf(s, provider, 'secret')),
    redirectUri: `${config.appUrl}/api/auth/social/${provider}/callback`,
  };
}

const endpoints = (provider: SocialProvider) => providerEndpoints(provider, config.socialBaseUrls[provider]);

/**
 * POST /auth/social/{provider}/start: the service's authorization address and
 * the browser binding to set as a cookie. Linking needs the signed-in user.
 */
export async function startSocial(
  provider: SocialProvider,
  a: { intent: 'sign_in' | 'link'; remember: boolean; userId: number | null; language: 'en' | 'ar' },
): Promise<{ url: string; binding: string }> {
  let creds: ProviderCredentials;
  try {
    creds = await credentials(provider);
  } catch (err) {
    if (err instanceof SocialRefused) throw notFound(`Signing in with ${SOCIAL_PROVIDER_NAMES[provider]} is not enabled on this site.`);
    throw err;
  }
  if (a.intent === 'link' && a.userId === null) throw unauthorized('Please sign in to link an account.');
  const state = randomToken();
  const binding = randomToken();
  const pending: PendingState = {
    provider,
    verifier: newCodeVerifier(),
    nonce: randomToken(),
    intent: a.intent,
    user_id: a.intent === 'link' ? a.userId : null,
    remember: a.remember,
    language: a.language,
    binding: hashToken(binding),
  };
  await redis().set(stateKey(state), JSON.stringify(pending), 'EX', STATE_TTL_SEC);
  return { url: authorizationUrl(provider, endpoints(provider), creds, { state, verifier: pending.verifier, nonce: pending.nonce }), binding };
}

export type CallbackOutcome =
  | { kind: 'signed_in'; ticket: string }
  | { kind: 'linked'; provider: SocialProvider }
  | { kind: 'refused'; code: SocialRefusal; intent: 'sign_in' | 'link' };

/**
 * GET /auth/social/{provider}/callback. `binding` is the cookie of the
 * browser that started (or null). Never throws for what the service or the
 * browser sends: every failure is a refusal with a code.
 */
export async function finishSocial(
  provider: SocialProvider,
  q: { code?: string; state?: string; error?: string },
  binding: string | null,
): Promise<CallbackOutcome> {
  const raw = q.state ? await redis().getdel(stateKey(q.state)) : null;
  const pending = raw ? (JSON.parse(raw) as PendingState) : null;
  if (!pending || pending.provider !== provider || !binding || !safeEqual(hashToken(binding), pending.binding)) {
    return { kind: 'refused', code: 'state', intent: pending?.intent ?? 'sign_in' };
  }
  const refuse = (code: SocialRefusal): CallbackOutcome => ({ kind: 'refused', code, intent: pending.intent });
  if (q.error || !q.code) return refuse(q.error ? 'denied' : 'provider_failed');
  try {
    const creds = await credentials(provider);
    const identity = await identify(provider, endpoints(provider), creds, { code: q.code, verifier: pending.verifier, nonce: pending.nonce });
    if (pending.intent === 'link') {
      await linkIdentity(pending.user_id!, provider, identity);
      logger.info({ user_id: pending.user_id, provider }, 'sign-in service linked');
      return { kind: 'linked', provider };
    }
    const user = await accountFor(provider, identity, pending.language);
    const ticket = randomToken();
    await redis().set(ticketKey(ticket), JSON.stringify({ user_id: user.id, remember: pending.remember, binding: pending.binding }), 'EX', TICKET_TTL_SEC);
    logger.info({ user_id: user.id, provider }, 'signed in through a service');
    return { kind: 'signed_in', ticket };
  } catch (err) {
    if (err instanceof SocialRefused) return refuse(err.code);
    if (err instanceof ProviderError) {
      logger.warn({ provider, reason: err.message }, 'a sign-in service did not confirm the sign-in');
      return refuse('provider_failed');
    }
    throw err;
  }
}

/**
 * POST /auth/social/exchange: the user a ticket stands for (spent here), when
 * the same browser that started brings it. The caller issues the session.
 */
export async function redeemTicket(ticket: string, binding: string | null): Promise<{ user: User; remember: boolean }> {
  const raw = await redis().getdel(ticketKey(ticket));
  const found = raw ? (JSON.parse(raw) as { user_id: number; remember: boolean; binding: string }) : null;
  if (!found || !binding || !safeEqual(hashToken(binding), found.binding)) throw unauthorized(SOCIAL_REFUSALS.ticket);
  const user = await userById(db(), found.user_id);
  if (!user || !user.active) throw unauthorized(SOCIAL_REFUSALS.account_disabled);
  return { user, remember: found.remember };
}

/** The account a service's identity signs in to, linking or creating it when the rules allow (see the module comment). */
async function accountFor(provider: SocialProvider, identity: SocialIdentity, language: 'en' | 'ar'): Promise<User> {
  const linked = await identityBySubject(db(), provider, identity.subject);
  if (linked) {
    const user = await userById(db(), linked.user_id);
    if (!user?.active) throw new SocialRefused('account_disabled');
    await touchIdentity(db(), linked.id);
    return user;
  }
  if (!identity.email || !identity.emailVerified) throw new SocialRefused('no_verified_email');
  const existing = await userByEmail(db(), identity.email);
  if (existing) {
    // Someone may have registered this address without owning it: only a confirmed account is joined.
    if (!existing.email_verified_at) throw new SocialRefused('unconfirmed_account');
    if (!existing.active) throw new SocialRefused('account_disabled');
    await insertIdentity(existing.id, provider, identity);
    return existing;
  }
  const settings = await getSettings();
  if (!settings.enable_registration) throw new SocialRefused('registration_closed');
  const password_hash = await unusablePasswordHash();
  const username = await socialUsername([identity.handle, identity.email.split('@')[0]], (c) => isTaken(db(), 'username', c));
  const user = await db()
    .transaction(async (trx) => {
      const u = await insertUser(trx, {
        username,
        email: identity.email!,
        password_hash,
        password_set: false,
        first_name: identity.firstName.slice(0, 200),
        last_name: identity.lastName.slice(0, 200),
        language,
        role: 'guest',
        super_admin: false,
        active: true,
        // The service vouched for the address.
        email_verified_at: new Date(),
      });
      await insertIdentity(u.id, provider, identity, trx);
      return u;
    })
    .catch(uniqueViolationToConflict);
  if (settings.notify_registrations) await announceRegistration(user, false, settings.name, settings.notify_email);
  return user;
}

async function insertIdentity(userId: number, provider: SocialProvider, identity: SocialIdentity, trx = db()): Promise<void> {
  const taken = await linkedSubject(trx, userId, provider);
  if (taken && taken !== identity.subject) throw new SocialRefused('already_linked');
  if (taken) return;
  try {
    await insertIdentityRow(trx, { user_id: userId, provider, subject: identity.subject, email: identity.email?.slice(0, 254) ?? null });
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new SocialRefused('linked_elsewhere');
    // The account went away while its owner was at the service.
    if ((err as { code?: string }).code === '23503') throw new SocialRefused('state');
    throw err;
  }
}

/** Adds a service's identity to a signed-in user's account (the profile's "Link"). */
async function linkIdentity(userId: number, provider: SocialProvider, identity: SocialIdentity): Promise<void> {
  const other = await identityBySubject(db(), provider, identity.subject);
  if (other && other.user_id !== userId) throw new SocialRefused('linked_elsewhere');
  await insertIdentity(userId, provider, identity);
}

/** GET /account/social: the services linked to the account, and whether it has a password. */
export async function linkedAccounts(user: User): Promise<LinkedAccountsResponse> {
  const rows = await identitiesOfUser(db(), user.id);
  const fresh = await userById(db(), user.id);
  return {
    accounts: rows.map((r) => ({ provider: r.provider, email: r.email, linked_at: new Date(r.created_at).toISOString(), last_used_at: r.last_used_at ? new Date(r.last_used_at).toISOString() : null })),
    password_set: fresh?.password_set ?? true,
    enabled: enabledProviders(await getSettings()),
  };
}

/**
 * DELETE /account/social/{provider}: unlinks a service, unless it is the
 * last way into an account without a password. Under a lock of the user's
 * row, so two unlinks at once cannot both pass that check.
 */
export async function unlinkProvider(userId: number, provider: SocialProvider): Promise<void> {
  await db().transaction(async (trx) => {
    const user = await lockUser(trx, userId);
    const rows = await identitiesOfUser(trx, userId);
    const name = SOCIAL_PROVIDER_NAMES[provider];
    if (!rows.some((r) => r.provider === provider)) throw notFound(`Your account is not linked to ${name}.`);
    if (!user?.password_set && rows.length === 1) {
      throw conflict(`${name} is the only way into your account. Set a password first (with "Forgot your password?" on the sign-in page), then unlink ${name}.`);
    }
    await unlinkIdentity(trx, userId, provider);
  });
}
