import crypto from 'node:crypto';
import type { Context } from 'koa';
import argon2 from 'argon2';
import { loginSchema, type LoginResponse, type RefreshResponse } from '@sitewalk/proto';
import { toUserDto } from '../core/db/index.js';
import { findUserByLogin } from '../core/services/users.service.js';
import { body } from '../http/validate.js';
import { ok } from '../http/envelope.js';
import { forbidden, unauthorized } from '../core/errors.js';
import { requireAuth, type AuthState } from '../http/auth.js';
import { CSRF_COOKIE } from '../http/middleware.js';
import { consume, limiter, refuseWhenBlocked } from '../core/rate-limit.js';
import { config } from '../core/config.js';
import { issueSession, revokeSession, rotateSession } from '../core/services/session.service.js';
import { signedUrl } from '../core/storage/index.js';
import { signalSessionRevoked } from '../core/realtime/emitter.js';
import type { RouteModule } from './types.js';

// A hash to verify against when the account does not exist, so both cases take as long.
const DUMMY_HASH = argon2.hash('not-a-real-password-' + crypto.randomUUID());

const ipLimiter = () => limiter('login-ip', config.loginLimitPerIp, config.loginLimitWindowSec);
const accountLimiter = () => limiter('login-account', config.loginLimitPerAccount, config.loginLimitWindowSec);
const IP_LIMIT_MESSAGE = 'Too many sign-in attempts from this address.';
const ACCOUNT_LIMIT_MESSAGE = 'Too many failed sign-in attempts for this account.';

const authRoutes: RouteModule = (r) => {
  // SPEC §7: the client gets its CSRF token from here (and axios echoes it).
  r.get('/sanctum/csrf-cookie', (ctx) => {
    ctx.cookies.set(CSRF_COOKIE, crypto.randomBytes(24).toString('base64url'), {
      httpOnly: false,
      sameSite: 'lax',
      secure: ctx.secure,
      overwrite: true,
    });
    ctx.status = 204;
  });

  r.post('/login', async (ctx) => {
    const input = body(ctx, loginSchema);
    const account = input.username.toLowerCase();
    // Only failed attempts count, per address and per account: a whole office
    // behind one address signs in freely, a password guesser is stopped.
    await refuseWhenBlocked(ipLimiter(), ctx.ip, IP_LIMIT_MESSAGE);
    await refuseWhenBlocked(accountLimiter(), account, ACCOUNT_LIMIT_MESSAGE);
    const user = await findUserByLogin(input.username);
    const valid = user ? await argon2.verify(user.password_hash, input.password) : (await argon2.verify(await DUMMY_HASH, input.password), false);
    if (!user || !valid) {
      await consume(ipLimiter(), ctx.ip, IP_LIMIT_MESSAGE);
      await consume(accountLimiter(), account, ACCOUNT_LIMIT_MESSAGE);
      throw unauthorized('Wrong username or password.');
    }
    // The account's failures are forgiven; the address's are not, or a guesser
    // could wipe its record by signing in to an account of its own now and then.
    await accountLimiter().delete(account);
    if (!user.active) {
      throw forbidden(user.email_verified_at ? 'This account is disabled. Contact your administrator.' : 'Your account is not active yet. Open the activation link we sent to your e-mail.');
    }
    const s = await issueSession(user.id, { remember: input.remember_me, ip: ctx.ip, userAgent: ctx.get('user-agent') });
    ok<LoginResponse>(ctx, { token: s.token, user: toUserDto(user, signedUrl), expiresAt: s.expiresAt }, 'Signed in.');
  });

  r.post('/logout', requireAuth, async (ctx) => {
    const { session } = ctx.state.auth as AuthState;
    await revokeSession(session.id);
    // Other tabs and devices of this session drop their live connection and sign out.
    signalSessionRevoked(session.id);
    ok(ctx, null, 'Signed out.');
  });

  const refresh = async (ctx: Context) => {
    const s = await rotateSession((ctx.state.auth as AuthState).session).catch(() => {
      throw unauthorized('Your session has expired. Please sign in again.');
    });
    ok<RefreshResponse>(ctx, { token: s.token, expiresAt: s.expiresAt }, 'Session renewed.');
  };
  // POST /autodesk/refresh renews the design-cloud link (autodesk.routes.ts), not the session.
  r.post('/auth/refresh', requireAuth, refresh);
};

export default authRoutes;
