import crypto from 'node:crypto';
import type { Context } from 'koa';
import {
  loginSchema,
  twoFactorChallengeSchema,
  twoFactorEnrolLoginSchema,
  twoFactorLoginSchema,
  type LoginStepResponse,
  type RecoveryCodesResponse,
  type RefreshResponse,
  type TwoFactorEnrolment,
} from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { userById } from '@sitewalk/core/repositories/users.repository.js';
import { findUserByLogin } from '@sitewalk/core/services/users.service.js';
import { hashPassword, verifyPassword } from '@sitewalk/core/services/passwords.js';
import { body } from '../http/validate.js';
import { ok } from '../http/envelope.js';
import { forbidden, unauthorized } from '@sitewalk/core/errors.js';
import { requireAuth, type AuthState } from '../http/auth.js';
import { CSRF_COOKIE } from '../http/middleware.js';
import { consume, isBlocked, limiter, refuseWhenBlocked } from '@sitewalk/core/rate-limit.js';
import { config } from '@sitewalk/core/config.js';
import { revokeSession, rotateSession } from '@sitewalk/core/services/session.service.js';
import { getSetting } from '@sitewalk/core/services/settings.service.js';
import { verifyCaptcha } from '@sitewalk/core/services/captcha.service.js';
import {
  TWO_FACTOR_MESSAGES,
  challengeMessage,
  checkSecondFactor,
  confirmEnrolment,
  readTwoFactorChallenge,
  secondFactorStep,
  spendTwoFactorChallenge,
  startEnrolment,
} from '@sitewalk/core/services/two-factor.service.js';
import { answerSignedIn } from '../http/sign-in.js';
import { signalSessionRevoked } from '@sitewalk/core/realtime/emitter.js';
import type { RouteModule } from './types.js';

// A hash to verify against when the account does not exist, so both cases take as long.
const DUMMY_HASH = hashPassword('not-a-real-password-' + crypto.randomUUID());

// Failures from one address after which every sign-in from it needs the captcha.
const ipLimiter = () => limiter('login-ip', config.loginLimitPerIp, config.loginLimitWindowSec);
const accountLimiter = () => limiter('login-account', config.loginLimitPerAccount, config.loginLimitWindowSec);
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
    const { altcha, ...input } = body(ctx, loginSchema);
    const account = input.username.toLowerCase();
    // The captcha comes first, before the password is even looked at: always
    // when the site asks for it, and from an address that failed a few times.
    // An address is never locked out (one guesser would lock out a whole
    // office behind it): its people sign in with the captcha solved.
    if ((await getSetting('captcha_login')) || (await isBlocked(ipLimiter(), ctx.ip))) await verifyCaptcha(altcha);
    await refuseWhenBlocked(accountLimiter(), account, ACCOUNT_LIMIT_MESSAGE);
    const user = await findUserByLogin(input.username);
    const valid = user ? await verifyPassword(user.password_hash, input.password) : (await verifyPassword(await DUMMY_HASH, input.password), false);
    if (!user || !valid) {
      // Only failed attempts count, per address and per account.
      await ipLimiter().penalty(ctx.ip, 1);
      await consume(accountLimiter(), account, ACCOUNT_LIMIT_MESSAGE);
      throw unauthorized('Wrong username or password.');
    }
    if (!user.active) {
      throw forbidden(user.email_verified_at ? 'This account is disabled. Contact your administrator.' : 'Your account is not active yet. Open the activation link we sent to your e-mail.');
    }
    const step = await secondFactorStep(user.id, input.remember_me, account);
    if (step) {
      // No session yet: only a short-lived challenge for the code step (or
      // the setup the site requires). The account's failures are forgiven
      // when that step is done, not before.
      ok<LoginStepResponse>(ctx, step, challengeMessage(step));
      return;
    }
    // The account's failures are forgiven; the address's are not, or a guesser
    // could wipe its record by signing in to an account of its own now and then.
    await accountLimiter().delete(account);
    await answerSignedIn(ctx, user, input.remember_me);
  });

  r.post('/login/two-factor', async (ctx) => {
    const { challenge, code } = body(ctx, twoFactorLoginSchema);
    const pending = await readTwoFactorChallenge(challenge, 'code');
    await checkSecondFactor(pending.userId, code, () => unauthorized(TWO_FACTOR_MESSAGES.wrongCode));
    // One challenge gives one session, even to two requests racing with two right codes.
    if (!(await spendTwoFactorChallenge(challenge))) throw unauthorized(TWO_FACTOR_MESSAGES.challengeGone);
    const user = await userById(db(), pending.userId);
    if (!user?.active) throw unauthorized(TWO_FACTOR_MESSAGES.challengeGone);
    await accountLimiter().delete(pending.login);
    await answerSignedIn(ctx, user, pending.remember);
  });

  // The site requires a second factor and the account has none: it is set up
  // with the challenge, as in the profile, and the session starts once the
  // first code proves the app has the secret.
  r.post('/login/two-factor/setup', async (ctx) => {
    const { challenge } = body(ctx, twoFactorChallengeSchema);
    const pending = await readTwoFactorChallenge(challenge, 'enrol');
    const user = await userById(db(), pending.userId);
    if (!user?.active) throw unauthorized(TWO_FACTOR_MESSAGES.challengeGone);
    ok<TwoFactorEnrolment>(ctx, await startEnrolment(user), 'Scan the QR code with your authenticator app, then enter the code it shows.');
  });

  r.post('/login/two-factor/enrol', async (ctx) => {
    const { challenge, code } = body(ctx, twoFactorEnrolLoginSchema);
    const pending = await readTwoFactorChallenge(challenge, 'enrol');
    const { recovery_codes } = await confirmEnrolment(pending.userId, code);
    if (!(await spendTwoFactorChallenge(challenge))) throw unauthorized(TWO_FACTOR_MESSAGES.challengeGone);
    const user = await userById(db(), pending.userId);
    if (!user?.active) throw unauthorized(TWO_FACTOR_MESSAGES.challengeGone);
    await accountLimiter().delete(pending.login);
    await answerSignedIn<RecoveryCodesResponse>(ctx, user, pending.remember, { recovery_codes });
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
