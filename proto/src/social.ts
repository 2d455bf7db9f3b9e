import { z } from 'zod';

/** The sign-in services an administrator can turn on (settings "Social login": social_{provider}_enable, _id, _secret). */
export const SOCIAL_PROVIDERS = ['google', 'facebook', 'twitter'] as const;
export const socialProviderSchema = z.enum(SOCIAL_PROVIDERS, { message: 'Choose google, facebook or twitter.' });
export type SocialProvider = z.infer<typeof socialProviderSchema>;

/** How each service is named to people (X was Twitter; the setting keeps its old name). */
export const SOCIAL_PROVIDER_NAMES: Record<SocialProvider, string> = { google: 'Google', facebook: 'Facebook', twitter: 'X' };

/**
 * POST /auth/social/{provider}/start: where the browser goes to sign in at
 * the service. `sign_in` from the sign-in page (no session); `link` from the
 * profile (needs the session: the service is added to that account).
 */
export const socialStartSchema = z
  .object({
    intent: z.enum(['sign_in', 'link'], { message: 'intent must be sign_in or link.' }).default('sign_in'),
    remember_me: z.boolean({ message: 'remember_me must be true or false.' }).default(false),
    /** The language of an account made by this sign-in (its mails). */
    language: z.enum(['en', 'ar'], { message: 'language must be en or ar.' }).default('en'),
  })
  .strict();
export interface SocialStartResponse {
  /** The service's authorization page, with the one-time state and the PKCE challenge. */
  url: string;
}

/**
 * After the service sends the browser back, SiteWalk redirects it to
 * /login?social_ticket=… (a one-time ticket of one minute, never a session
 * token in an address); the sign-in page trades it here for a session.
 */
export const socialExchangeSchema = z
  .object({ ticket: z.string({ message: 'The sign-in ticket is missing.' }).min(20, 'This sign-in ticket is not valid.').max(200, 'This sign-in ticket is not valid.') })
  .strict();
/** POST /auth/social/exchange answer: a sign-in's, with the "remember me" chosen before leaving for the service. */
export interface SocialExchangeResponse {
  token: string;
  user: import('./users.js').User;
  expiresAt: number;
  remember_me: boolean;
}
/**
 * What the exchange answers: the session, or — for an account with two-factor
 * sign-in on — only the challenge of the code step, as the password step does.
 */
export type SocialExchangeStep = SocialExchangeResponse | (import('./two-factor.js').TwoFactorChallengeResponse & { remember_me: boolean });

/** Query parameters SiteWalk's redirect after the service's answer carries. */
export const SOCIAL_TICKET_PARAM = 'social_ticket';
export const SOCIAL_ERROR_PARAM = 'social_error';
export const SOCIAL_LINKED_PARAM = 'social_linked';

/** Why a social sign-in or link did not go through: the code in ?social_error=, and the sentence each stands for. */
export const SOCIAL_REFUSALS = {
  state: 'This sign-in was not started here or has expired. Please try again.',
  denied: 'The sign-in was cancelled at the service.',
  disabled_provider: 'Signing in with this service is not enabled on this site.',
  provider_failed: 'The service did not confirm the sign-in. Please try again.',
  no_verified_email: 'The service did not share a confirmed e-mail address, and no account is linked to it yet. Sign in with your password and link the service from your profile.',
  unconfirmed_account: 'An account with this e-mail address exists but its address was never confirmed. Sign in with its password (or activate it), then link the service from your profile.',
  registration_closed: 'No account is linked to this sign-in, and registration is closed on this site. Ask an administrator for an account.',
  account_disabled: 'This account is disabled. Contact your administrator.',
  linked_elsewhere: 'This service account is already linked to another {site} account.',
  already_linked: 'Your account is already linked to another account of this service. Unlink it first.',
  ticket: 'This sign-in has expired. Please try again.',
} as const;
export type SocialRefusal = keyof typeof SOCIAL_REFUSALS;

/** One service linked to the account (GET /account/social). */
export const linkedAccountSchema = z.object({
  provider: socialProviderSchema,
  /** The e-mail address the service gave when it was linked, if any. */
  email: z.string().nullable(),
  linked_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type LinkedAccount = z.infer<typeof linkedAccountSchema>;
export interface LinkedAccountsResponse {
  accounts: LinkedAccount[];
  /** False for an account made through a service that has never set a password: its last service cannot be unlinked. */
  password_set: boolean;
  /** The services the administrator turned on (only those can be linked). */
  enabled: SocialProvider[];
}
