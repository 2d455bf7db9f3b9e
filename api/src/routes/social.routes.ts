import type { Context } from 'koa';
import { z } from 'zod';
import {
  SOCIAL_ERROR_PARAM,
  SOCIAL_LINKED_PARAM,
  SOCIAL_TICKET_PARAM,
  socialExchangeSchema,
  socialProviderSchema,
  socialStartSchema,
  type LinkedAccountsResponse,
  type SocialExchangeResponse,
  type SocialProvider,
  type SocialExchangeStep,
  type SocialStartResponse,
} from '@sitewalk/proto';
import { toUserDto } from '@sitewalk/core/db';
import { signedUrl } from '@sitewalk/core/storage';
import { issueSession } from '@sitewalk/core/services/session.service.js';
import { finishSocial, linkedAccounts, redeemTicket, startSocial, unlinkProvider } from '@sitewalk/core/services/social-sign-in.service.js';
import { challengeMessage, secondFactorStep } from '@sitewalk/core/services/two-factor.service.js';
import { optionalAuth, requireAuth, currentUser, type AuthState } from '../http/auth.js';
import { ok } from '../http/envelope.js';
import { body, parseWith } from '../http/validate.js';
import type { RouteModule } from './types.js';

/** Ties a social sign-in to the browser that started it (see social-sign-in.service.ts). Only the sign-in calls below see it. */
const BINDING_COOKIE = 'sw_social';
const BINDING_PATH = '/api/auth/social';
const BINDING_MAX_AGE_MS = 10 * 60_000;

const providerParam = (ctx: Context): SocialProvider => parseWith(socialProviderSchema, ctx.params.provider, 'sign-in service');

// What a service sends back; anything else it adds is ignored.
const callbackQuerySchema = z
  .object({
    code: z.string().max(2000).optional(),
    state: z.string().max(200).optional(),
    error: z.string().max(200).optional(),
  })
  .passthrough();

/** Sign-in with Google, Facebook and X, and the services linked to an account (issue 24). */
const socialRoutes: RouteModule = (r) => {
  r.post('/auth/social/:provider/start', optionalAuth, async (ctx) => {
    const provider = providerParam(ctx);
    const input = body(ctx, socialStartSchema);
    const auth = ctx.state.auth as AuthState | undefined;
    const { url, binding } = await startSocial(provider, { intent: input.intent, remember: input.remember_me, userId: auth?.user.id ?? null, language: input.language });
    ctx.cookies.set(BINDING_COOKIE, binding, { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: BINDING_PATH, maxAge: BINDING_MAX_AGE_MS, overwrite: true });
    ok<SocialStartResponse>(ctx, { url });
  });

  // The service sends the browser here (a top-level navigation: the SameSite=Lax binding cookie comes along, no session header).
  r.get('/auth/social/:provider/callback', async (ctx) => {
    const provider = providerParam(ctx);
    const q = parseWith(callbackQuerySchema, ctx.query, 'query parameter');
    const outcome = await finishSocial(provider, q, ctx.cookies.get(BINDING_COOKIE) ?? null);
    ctx.set('Cache-Control', 'no-store');
    // The ticket leaves no trace in another site's logs through the Referer.
    ctx.set('Referrer-Policy', 'no-referrer');
    if (outcome.kind === 'signed_in') return ctx.redirect(`/login?${SOCIAL_TICKET_PARAM}=${encodeURIComponent(outcome.ticket)}`);
    ctx.cookies.set(BINDING_COOKIE, null, { path: BINDING_PATH });
    if (outcome.kind === 'linked') return ctx.redirect(`/profile?${SOCIAL_LINKED_PARAM}=${provider}`);
    ctx.redirect(`${outcome.intent === 'link' ? '/profile' : '/login'}?${SOCIAL_ERROR_PARAM}=${outcome.code}`);
  });

  r.post('/auth/social/exchange', async (ctx) => {
    const { ticket } = body(ctx, socialExchangeSchema);
    const { user, remember } = await redeemTicket(ticket, ctx.cookies.get(BINDING_COOKIE) ?? null);
    ctx.cookies.set(BINDING_COOKIE, null, { path: BINDING_PATH });
    // A service vouches for the person as a password does: the code (or the setup the site requires) is still asked, and no session is given before it.
    const step = await secondFactorStep(user.id, remember, user.username.toLowerCase());
    if (step) {
      ok<SocialExchangeStep>(ctx, { ...step, remember_me: remember }, challengeMessage(step));
      return;
    }
    const s = await issueSession(user.id, { remember, ip: ctx.ip, userAgent: ctx.get('user-agent') });
    ok<SocialExchangeResponse>(ctx, { token: s.token, user: toUserDto(user, signedUrl), expiresAt: s.expiresAt, remember_me: remember }, 'Signed in.');
  });

  r.get('/account/social', requireAuth, async (ctx) => {
    ok<LinkedAccountsResponse>(ctx, await linkedAccounts(currentUser(ctx)));
  });

  r.delete('/account/social/:provider', requireAuth, async (ctx) => {
    const provider = providerParam(ctx);
    await unlinkProvider(currentUser(ctx).id, provider);
    ok(ctx, { provider }, 'The account is unlinked.');
  });
};

export default socialRoutes;
