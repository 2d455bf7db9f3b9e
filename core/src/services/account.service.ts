import {
  ACTIVATION_PATH,
  ACTIVATION_TTL_MS,
  PASSWORD_RESET_PATH,
  PASSWORD_RESET_TTL_MS,
  userRoom,
  type ActivateAccountResponse,
  type InvitationCheckResponse,
  type RegisterResponse,
  type ResetTokenCheckResponse,
  type activateAccountSchema,
  type changePasswordSchema,
  type registerSchema,
} from '@sitewalk/proto';
import { notice } from '@sitewalk/proto';
import type { z } from 'zod';
import { type User, db } from '../db/index.js';
import { insertUser, lastTokenPurpose, patchUser, setPasswordHash, userByEmail, userById } from '../repositories/users.repository.js';
import { deleteOtherSessions, deleteSessionsOfUser } from '../repositories/sessions.repository.js';
import { deleteUnusedTokens } from '../repositories/user-tokens.repository.js';
import { HttpError, badRequest, forbidden, notFound } from '../errors.js';
import { isSuperAdmin } from './access.service.js';
import { consume, isBlocked, limiter } from '../rate-limit.js';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { emitTo } from '../realtime/emitter.js';
import { activationMail, invitationMail, passwordResetMail, registrationNoticeMail } from '../mail/templates.js';
import { mailLanguage, queueMail } from '../mail/mail-queue.js';
import { getSettings } from './settings.service.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { consumeToken, findLiveToken, issueUserToken } from './user-tokens.service.js';
import { revokeAllSessions } from './session.service.js';
import { assertUnique, displayName, findUserByLogin, uniqueViolationToConflict } from './users.service.js';
import { notifySuperAdmins } from './notifications.service.js';

const link = (path: string, token: string) => `${config.appUrl}${path}?token=${encodeURIComponent(token)}`;

/** Tells the user's open browsers that their sessions ended (they go back to sign-in). */
function announceRevoked(userId: number): void {
  try {
    emitTo(userRoom(userId), 'session:revoked');
  } catch (err) {
    logger.warn({ err, user_id: userId }, 'could not announce revoked sessions');
  }
}

/**
 * Self-registration (only when the setting enable_registration is on). With
 * validate_email the account is created inactive and an activation link is
 * mailed; the answer says whether that mail could be queued.
 */
export async function register(input: z.infer<typeof registerSchema>): Promise<RegisterResponse> {
  const settings = await getSettings();
  if (!settings.enable_registration) {
    throw notFound('Registration is closed on this site. Ask an administrator for an account.');
  }
  await assertUnique({ username: input.username, email: input.email });
  const validate = settings.validate_email;
  const { password, language, ...fields } = input;
  const password_hash = await hashPassword(password);
  const { user, token } = await db()
    .transaction(async (trx) => {
      const user = await insertUser(trx, {
        ...fields,
        language: language ?? 'en',
        password_hash,
        role: 'guest',
        super_admin: false,
        active: !validate,
        email_verified_at: null,
      });
      const token = validate ? await issueUserToken(user.id, 'activation', ACTIVATION_TTL_MS, trx) : null;
      return { user, token };
    })
    .catch(uniqueViolationToConflict);

  let is_email_sent = false;
  let error_mail: string | null = null;
  if (token) {
    if (!settings.smtp_valid) {
      error_mail = 'The activation e-mail cannot be sent because the mail server is not set up yet. Ask an administrator to activate your account.';
    } else {
      const mail = activationMail(mailLanguage(user.language), {
        siteName: settings.name,
        name: displayName(user),
        link: link(ACTIVATION_PATH, token.token),
        ttlMs: ACTIVATION_TTL_MS,
      });
      is_email_sent = await queueMail(user.email, mail, 'activation', `activation-${token.id}`);
      if (!is_email_sent) error_mail = 'The activation e-mail could not be sent. Ask an administrator to activate your account.';
    }
  }

  if (settings.notify_registrations) await announceRegistration(user, validate, settings.name, settings.notify_email);
  return { id: user.id, validate_email: validate, is_email_sent, error_mail };
}

/** notify_registrations: a mail to notify_email, and an in-app notice to the administrators (also for accounts made through a sign-in service). */
export async function announceRegistration(user: User, awaitingActivation: boolean, siteName: string, notifyEmail: string): Promise<void> {
  if (notifyEmail) {
    // Written in the language of the account behind that address, if there is one.
    const reader = await userByEmail(db(), notifyEmail);
    const mail = registrationNoticeMail(mailLanguage(reader?.language), {
      siteName,
      username: user.username,
      email: user.email,
      awaitingActivation,
      link: `${config.appUrl}/users`,
    });
    await queueMail(notifyEmail, mail, 'registration-notice', `registration-${user.id}`);
  }
  await notifySuperAdmins(
    {
      kind: 'registration',
      ...notice(awaitingActivation ? 'registrationAwaiting' : 'registration', { name: user.username, email: user.email }),
      type: 'info',
      link: '/users',
      // The notify_email mail above is the e-mail side of this event.
      email: false,
    },
    { key: `registration-${user.id}` },
  ).catch((err) => logger.error({ err, user_id: user.id }, 'could not notify administrators of a registration'));
}

const INVALID_ACTIVATION = 'This activation link is not valid or has expired. Ask for a new one.';

/** What the activation screen shows for a link, or 404 when the link does not work. */
export async function checkInvitationToken(token: string): Promise<InvitationCheckResponse> {
  const live = await findLiveToken(token, ['invitation', 'activation']);
  const user = live ? await userById(db(), live.user_id) : undefined;
  if (!live || !user) throw notFound(INVALID_ACTIVATION);
  const purpose = live.purpose === 'invitation' ? 'invitation' : 'activation';
  return {
    purpose,
    email: user.email,
    username: user.username,
    needs_credentials: purpose === 'invitation',
    expiresAt: new Date(live.expires_at).getTime(),
  };
}

/**
 * Uses an activation or invitation link once: the account becomes active and
 * its e-mail counts as verified. An invited person sets username and password
 * here; a self-registered one may set a new password.
 */
export async function activateAccount(input: z.infer<typeof activateAccountSchema>): Promise<ActivateAccountResponse> {
  const live = await findLiveToken(input.token, ['invitation', 'activation']);
  if (!live) throw notFound(INVALID_ACTIVATION);
  if (live.purpose === 'invitation' && (!input.username || !input.password)) {
    throw badRequest('Choose a username and a password to activate your account.');
  }
  const user = await userById(db(), live.user_id);
  if (!user) throw notFound(INVALID_ACTIVATION);
  // An account an administrator disabled after it was verified stays disabled.
  if (!user.active && user.email_verified_at) throw forbidden('This account is disabled. Contact your administrator.');
  if (input.username) await assertUnique({ username: input.username }, user.id);
  const password_hash = input.password ? await hashPassword(input.password) : undefined;

  const updated = await db()
    .transaction(async (trx) => {
      const used = await consumeToken(input.token, ['invitation', 'activation'], trx);
      if (!used) throw notFound(INVALID_ACTIVATION);
      const patch: Partial<User> = { active: true, email_verified_at: new Date() };
      if (input.username) patch.username = input.username;
      if (password_hash) patch.password_hash = password_hash;
      const u = await patchUser(trx, used.user_id, patch);
      if (password_hash) await revokeAllSessions(used.user_id, trx);
      return u;
    })
    .catch(uniqueViolationToConflict);
  return { id: updated.id, username: updated.username };
}

// At most this many reset mails per account per window; more requests still get the neutral answer.
const resetMailLimiter = () => limiter('password-reset-mail', 3, 15 * 60);

/**
 * Mails a one-time reset link when the login matches an active account. An
 * account still waiting for its first activation gets a fresh activation (or
 * invitation) link instead, since an expired one would otherwise lock the
 * person out for good. Says nothing about whether it mailed: the caller
 * answers the same either way.
 */
export async function requestPasswordReset(login: string): Promise<void> {
  const settings = await getSettings();
  if (!settings.smtp_valid) {
    throw new HttpError(503, 'Password recovery by e-mail is not available because the mail server is not set up. Contact your administrator.');
  }
  const user = await findUserByLogin(login);
  // An inactive account that was verified once was disabled by an administrator.
  if (!user || (!user.active && user.email_verified_at)) return;
  try {
    await consume(resetMailLimiter(), String(user.id), 'Too many reset mails.');
  } catch {
    // Refusing here would tell that the account exists; the mail is just not sent again.
    logger.info({ user_id: user.id }, 'password reset mail withheld: too many for this account');
    return;
  }
  if (!user.active) return resendActivation(user, settings.name);
  const token = await issueUserToken(user.id, 'password_reset', PASSWORD_RESET_TTL_MS);
  const mail = passwordResetMail(mailLanguage(user.language), {
    siteName: settings.name,
    name: displayName(user),
    link: link(PASSWORD_RESET_PATH, token.token),
    ttlMs: PASSWORD_RESET_TTL_MS,
  });
  await queueMail(user.email, mail, 'password-reset', `password-reset-${token.id}`);
}

/** A new activation link for an account never activated: an invitation if it was invited, else a registration's. */
async function resendActivation(user: User, siteName: string): Promise<void> {
  const last = await lastTokenPurpose(db(), user.id, ['invitation', 'activation']);
  const purpose = last === 'invitation' ? 'invitation' : 'activation';
  const token = await issueUserToken(user.id, purpose, ACTIVATION_TTL_MS);
  const vars = { siteName, name: displayName(user), link: link(ACTIVATION_PATH, token.token), ttlMs: ACTIVATION_TTL_MS };
  const lang = mailLanguage(user.language);
  const mail = purpose === 'invitation' ? invitationMail(lang, vars) : activationMail(lang, vars);
  await queueMail(user.email, mail, purpose, `${purpose}-${token.id}`);
}

const INVALID_RESET = 'This password reset link is not valid or has expired. Ask for a new one.';

export async function checkResetToken(token: string): Promise<ResetTokenCheckResponse> {
  const live = await findLiveToken(token, ['password_reset']);
  if (!live) throw notFound(INVALID_RESET);
  return { valid: true, expiresAt: new Date(live.expires_at).getTime() };
}

/** Sets a new password with a reset link (once); every session of the account ends. */
export async function resetPassword(token: string, password: string): Promise<void> {
  if (!(await findLiveToken(token, ['password_reset']))) throw notFound(INVALID_RESET);
  const password_hash = await hashPassword(password);
  const userId = await db().transaction(async (trx) => {
    const used = await consumeToken(token, ['password_reset'], trx);
    if (!used) throw notFound(INVALID_RESET);
    await setPasswordHash(trx, used.user_id, password_hash);
    await revokeAllSessions(used.user_id, trx);
    return used.user_id;
  });
  announceRevoked(userId);
}

// Wrong current passwords per account before the form is refused for a while.
const currentPasswordLimiter = () => limiter('change-password', 5, 15 * 60);

/**
 * Changes a password. Your own needs the current one (and keeps only the
 * session you are using); a super admin may set anyone else's without it
 * (and that person's sessions end). Anyone else gets 404.
 */
export async function changePassword(
  viewer: User,
  viewerSessionId: number,
  targetId: number,
  input: z.infer<typeof changePasswordSchema>,
): Promise<void> {
  if (input.target_user_id !== undefined && input.target_user_id !== targetId) {
    throw badRequest('target_user_id must be the user of the address.');
  }
  const self = viewer.id === targetId;
  if (!self && !isSuperAdmin(viewer)) throw notFound();
  const target = self ? viewer : await userById(db(), targetId);
  if (!target) throw notFound();

  if (self) {
    if (!input.current_password) throw badRequest('Enter your current password.');
    const key = String(viewer.id);
    const blocked = await isBlocked(currentPasswordLimiter(), key);
    if (blocked) await consume(currentPasswordLimiter(), key, 'Too many wrong current passwords.');
    if (!(await verifyPassword(target.password_hash, input.current_password))) {
      await consume(currentPasswordLimiter(), key, 'Too many wrong current passwords.');
      // Not 401: the client would take it for an expired session and sign the user out.
      throw badRequest('Your current password is not correct.');
    }
    await currentPasswordLimiter().delete(key);
    if (input.current_password === input.new_password) throw badRequest('The new password must be different from the current one.');
  }

  const password_hash = await hashPassword(input.new_password);
  await db().transaction(async (trx) => {
    await setPasswordHash(trx, targetId, password_hash);
    // One's own change keeps the session it was made from.
    if (self) await deleteOtherSessions(trx, targetId, viewerSessionId);
    else await deleteSessionsOfUser(trx, targetId);
    await deleteUnusedTokens(trx, targetId, 'password_reset');
  });
  if (!self) announceRevoked(targetId);
}
