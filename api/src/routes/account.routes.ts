import {
  PASSWORD_EMAIL_NEUTRAL_MESSAGE,
  activateAccountSchema,
  changePasswordSchema,
  languageSchema,
  passwordEmailSchema,
  passwordResetSchema,
  registerSchema,
  tokenQuerySchema,
  type ActivateAccountResponse,
  type InvitationCheckResponse,
  type RegisterResponse,
  type ResetTokenCheckResponse,
} from '@sitewalk/proto';
import { ok, created } from '../http/envelope.js';
import { currentUser, requireAuth, type AuthState } from '../http/auth.js';
import { body, idParam, query } from '../http/validate.js';
import { consume, limiter } from '@sitewalk/core/rate-limit.js';
import {
  activateAccount,
  changePassword,
  checkInvitationToken,
  checkResetToken,
  register,
  requestPasswordReset,
  resetPassword,
} from '@sitewalk/core/services/account.service.js';
import { setLanguage } from '@sitewalk/core/services/users.service.js';
import { getSetting } from '@sitewalk/core/services/settings.service.js';
import { verifyCaptcha } from '@sitewalk/core/services/captcha.service.js';
import type { RouteModule } from './types.js';

// Per client address: enough for a person who mistypes, too few for a script.
const registerLimiter = () => limiter('register-ip', 10, 60 * 60);
const passwordEmailLimiter = () => limiter('password-email-ip', 5, 15 * 60);
const tokenLimiter = () => limiter('account-token-ip', 30, 15 * 60);

/** SPEC §7 "Authentication and account" beyond sign-in: registration, activation, recovery, passwords, language. */
const accountRoutes: RouteModule = (r) => {
  r.post('/register', async (ctx) => {
    await consume(registerLimiter(), ctx.ip, 'Too many registrations from this address.');
    const { altcha, ...input } = body(ctx, registerSchema);
    // Checked before anything of the account is looked at.
    if (await getSetting('captcha_register')) await verifyCaptcha(altcha);
    const res = await register(input);
    created<RegisterResponse>(
      ctx,
      res,
      res.validate_email
        ? res.is_email_sent
          ? 'Your account is created. Open the link we sent to your e-mail to activate it.'
          : 'Your account is created but waits for activation.'
        : 'Your account is created. You can sign in now.',
    );
  });

  r.get('/check-invitation-token', async (ctx) => {
    await consume(tokenLimiter(), ctx.ip, 'Too many attempts with links from this address.');
    const { token } = query(ctx, tokenQuerySchema);
    ok<InvitationCheckResponse>(ctx, await checkInvitationToken(token), 'The link is valid.');
  });

  r.post('/activate-account', async (ctx) => {
    await consume(tokenLimiter(), ctx.ip, 'Too many attempts with links from this address.');
    const input = body(ctx, activateAccountSchema);
    ok<ActivateAccountResponse>(ctx, await activateAccount(input), 'Your account is active. You can sign in now.');
  });

  r.post('/password/email', async (ctx) => {
    await consume(passwordEmailLimiter(), ctx.ip, 'Too many password recovery requests from this address.');
    const { username_f } = body(ctx, passwordEmailSchema);
    await requestPasswordReset(username_f);
    ok(ctx, null, PASSWORD_EMAIL_NEUTRAL_MESSAGE);
  });

  r.get('/password/check-token', async (ctx) => {
    await consume(tokenLimiter(), ctx.ip, 'Too many attempts with links from this address.');
    const { token } = query(ctx, tokenQuerySchema);
    ok<ResetTokenCheckResponse>(ctx, await checkResetToken(token), 'The link is valid.');
  });

  r.post('/password/reset', async (ctx) => {
    await consume(tokenLimiter(), ctx.ip, 'Too many attempts with links from this address.');
    const { token, password } = body(ctx, passwordResetSchema);
    await resetPassword(token, password);
    ok(ctx, null, 'Your password has been changed. Sign in with your new password.');
  });

  r.post('/users/:id/change-password', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const input = body(ctx, changePasswordSchema);
    const auth = ctx.state.auth as AuthState;
    await changePassword(auth.user, auth.session.id, id, input);
    ok(ctx, null, 'The password has been changed.');
  });

  r.post('/language', requireAuth, async (ctx) => {
    const { locale } = body(ctx, languageSchema);
    await setLanguage(currentUser(ctx).id, locale);
    ok(ctx, { locale }, 'Language saved.');
  });
};

export default accountRoutes;
