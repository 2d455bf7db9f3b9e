import { z } from 'zod';
import { idOf } from './ids.js';
import { captchaSolutionSchema } from './captcha.js';
import { emailSchema, passwordSchema, profileFieldsSchema, usernameSchema, type User } from './users.js';

export const loginSchema = z.object({
  /** Username or e-mail. */
  username: z.string().trim().min(1, 'Enter your username or e-mail.').max(254),
  password: z.string().min(1, 'Enter your password.').max(200),
  remember_me: z.boolean().optional().default(false),
  /** The captcha's solution (captcha.ts), when the site or the address's failures ask for it. */
  altcha: captchaSolutionSchema.optional(),
});
export type LoginRequest = z.input<typeof loginSchema>;

/** POST /login answer. expiresAt is a millisecond timestamp (SPEC §3). */
export interface LoginResponse {
  token: string;
  user: User;
  expiresAt: number;
}

/** POST /auth/refresh answer for a session token (POST /autodesk/refresh renews the design-cloud link: autodesk.ts). */
export interface RefreshResponse {
  token: string;
  expiresAt: number;
}

export const registerSchema = profileFieldsSchema.extend({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  /** The language the new account's mails are written in. */
  language: z.enum(['en', 'ar']).optional(),
  /** The captcha's solution when captcha_register is on. */
  altcha: captchaSolutionSchema.optional(),
});
export type RegisterRequest = z.input<typeof registerSchema>;

/** SPEC §3 Register response. */
export interface RegisterResponse {
  id: number;
  validate_email: boolean;
  is_email_sent: boolean;
  error_mail: string | null;
}

/**
 * POST /activate-account. An invited user chooses username and password here
 * (both required); a self-registered user activating by e-mail may leave them
 * out, or give a new password.
 */
export const activateAccountSchema = z.object({
  username: usernameSchema.optional(),
  password: passwordSchema.optional(),
  token: z.string().min(10, 'The activation link is not valid.').max(200),
});
export type ActivateAccountRequest = z.input<typeof activateAccountSchema>;

/** What a one-time account token is for. */
export type AccountTokenPurpose = 'invitation' | 'activation';

/** GET /check-invitation-token answer: what the activation screen needs to show. */
export interface InvitationCheckResponse {
  purpose: AccountTokenPurpose;
  email: string;
  /** The account's current username (an invited user may choose another). */
  username: string;
  /** True for invitations: the form must ask for username and password. */
  needs_credentials: boolean;
  /** Millisecond timestamp after which the link no longer works. */
  expiresAt: number;
}

/** POST /activate-account answer. */
export interface ActivateAccountResponse {
  id: number;
  username: string;
}

/** GET /password/check-token answer. */
export interface ResetTokenCheckResponse {
  valid: true;
  expiresAt: number;
}

export const tokenQuerySchema = z.object({
  token: z.string().min(10, 'The link is not valid.').max(200),
}).strict();

/**
 * The one answer of POST /password/email, whether an account matched or not,
 * so the form never tells who has an account here.
 */
export const PASSWORD_EMAIL_NEUTRAL_MESSAGE =
  'If an account matches, a link to reset its password has been sent to its e-mail address. The link works once, for one hour.';

/** The screen the mailed reset link opens: `${APP_URL}/reset-password?token=...`. */
export const PASSWORD_RESET_PATH = '/reset-password';
/** The screen the activation and invitation links open: `${APP_URL}/activate?token=...`. */
export const ACTIVATION_PATH = '/activate';

export const passwordEmailSchema = z.object({
  /** Username or e-mail of the account to recover. */
  username_f: z.string().trim().min(1, 'Enter your username or e-mail.').max(254),
});

export const passwordResetSchema = z.object({
  token: z.string().min(10, 'The reset link is not valid.').max(200),
  password: passwordSchema,
});

/**
 * POST /users/{id}/change-password. target_user_id, when given, must be the
 * {id} of the path; current_password is required when changing your own.
 */
export const changePasswordSchema = z.object({
  target_user_id: idOf('target_user_id').optional(),
  current_password: z.string().max(200).optional(),
  new_password: passwordSchema,
});
export type ChangePasswordRequest = z.input<typeof changePasswordSchema>;

export const languageSchema = z.object({
  locale: z.enum(['en', 'ar'], { message: 'locale must be one of: en, ar.' }),
});
export type LanguageRequest = z.input<typeof languageSchema>;

/** Session lifetimes: a plain sign-in lasts a day, remember-me a month. */
export const SESSION_TTL_MS = 24 * 60 * 60_000;
export const SESSION_REMEMBER_TTL_MS = 30 * 24 * 60 * 60_000;
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
export const ACTIVATION_TTL_MS = 7 * 24 * 60 * 60_000;
