import {
  twoFactorConfirmSchema,
  twoFactorDisableSchema,
  type RecoveryCodesResponse,
  type TwoFactorEnrolment,
  type TwoFactorStatus,
} from '@sitewalk/proto';
import { consume, limiter } from '@sitewalk/core/rate-limit.js';
import { newCaptchaChallenge } from '@sitewalk/core/services/captcha.service.js';
import {
  confirmEnrolment,
  disableTwoFactor,
  resetTwoFactor,
  startEnrolment,
  twoFactorStatus,
} from '@sitewalk/core/services/two-factor.service.js';
import { ok } from '../http/envelope.js';
import { currentUser, requireAuth, requireSuperAdmin } from '../http/auth.js';
import { body, idParam } from '../http/validate.js';
import type { RouteModule } from './types.js';

// Handing out challenges is cheap, but not free: a generous limit per address.
const captchaLimiter = () => limiter('captcha-challenge-ip', 120, 15 * 60);

/**
 * Issue 24 items 1 and 2: the captcha's challenges, and the signed-in
 * account's second factor (enrol, confirm, turn off) with the super admin's
 * reset. The two sign-in steps themselves are in auth.routes.ts.
 */
const twoFactorRoutes: RouteModule = (r) => {
  // The ALTCHA widget fetches this itself and reads the challenge as it is (its protocol, not our envelope).
  r.get('/captcha/challenge', async (ctx) => {
    await consume(captchaLimiter(), ctx.ip, 'Too many captcha requests from this address.');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await newCaptchaChallenge();
  });

  r.get('/two-factor', requireAuth, async (ctx) => {
    ok<TwoFactorStatus>(ctx, await twoFactorStatus(currentUser(ctx).id));
  });

  r.post('/two-factor/setup', requireAuth, async (ctx) => {
    const user = currentUser(ctx);
    ok<TwoFactorEnrolment>(ctx, await startEnrolment(user), 'Scan the QR code with your authenticator app, then enter the code it shows.');
  });

  r.post('/two-factor/confirm', requireAuth, async (ctx) => {
    const { code } = body(ctx, twoFactorConfirmSchema);
    ok<RecoveryCodesResponse>(ctx, await confirmEnrolment(currentUser(ctx).id, code), 'Two-factor sign-in is on. Keep your recovery codes somewhere safe.');
  });

  r.post('/two-factor/disable', requireAuth, async (ctx) => {
    const { password, code } = body(ctx, twoFactorDisableSchema);
    await disableTwoFactor(currentUser(ctx), password, code);
    ok(ctx, null, 'Two-factor sign-in is off.');
  });

  r.get('/users/:id/two-factor', requireAuth, requireSuperAdmin, async (ctx) => {
    ok<TwoFactorStatus>(ctx, await twoFactorStatus(idParam(ctx)));
  });

  r.delete('/users/:id/two-factor', requireAuth, requireSuperAdmin, async (ctx) => {
    await resetTwoFactor(idParam(ctx));
    ok(ctx, null, 'Two-factor sign-in of this account is reset. They set it up again at their next sign-in when the site requires it.');
  });
};

export default twoFactorRoutes;
