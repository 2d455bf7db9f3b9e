import { z } from 'zod';
import { emailSchema, passwordSchema, profileFieldsSchema, usernameSchema, type User } from './users.js';

export const loginSchema = z.object({
  /** Username or e-mail. */
  username: z.string().trim().min(1, 'Enter your username or e-mail.').max(254),
  password: z.string().min(1, 'Enter your password.').max(200),
  remember_me: z.boolean().optional().default(false),
});
export type LoginRequest = z.input<typeof loginSchema>;

/** POST /login answer. expiresAt is a millisecond timestamp (SPEC §3). */
export interface LoginResponse {
  token: string;
  user: User;
  expiresAt: number;
}

/** POST /auth/refresh and POST /autodesk/refresh answer for a session token. */
export interface RefreshResponse {
  token: string;
  expiresAt: number;
}

export const registerSchema = profileFieldsSchema.extend({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type RegisterRequest = z.input<typeof registerSchema>;

/** SPEC §3 Register response. */
export interface RegisterResponse {
  id: number;
  validate_email: boolean;
  is_email_sent: boolean;
  error_mail: string | null;
}

export const activateAccountSchema = z.object({
  username: usernameSchema.optional(),
  password: passwordSchema.optional(),
  token: z.string().min(10, 'The activation link is not valid.').max(200),
});

export const tokenQuerySchema = z.object({
  token: z.string().min(10, 'The link is not valid.').max(200),
});

export const passwordEmailSchema = z.object({
  /** Username or e-mail of the account to recover. */
  username_f: z.string().trim().min(1, 'Enter your username or e-mail.').max(254),
});

export const passwordResetSchema = z.object({
  token: z.string().min(10, 'The reset link is not valid.').max(200),
  password: passwordSchema,
});

export const changePasswordSchema = z.object({
  target_user_id: z.coerce.number().int().positive().optional(),
  current_password: z.string().max(200).optional(),
  new_password: passwordSchema,
});

export const languageSchema = z.object({ locale: z.enum(['en', 'ar']) });

/** Session lifetimes: a plain sign-in lasts a day, remember-me a month. */
export const SESSION_TTL_MS = 24 * 60 * 60_000;
export const SESSION_REMEMBER_TTL_MS = 30 * 24 * 60 * 60_000;
export const PASSWORD_RESET_TTL_MS = 60 * 60_000;
export const ACTIVATION_TTL_MS = 7 * 24 * 60 * 60_000;
