import { z } from 'zod';
import type { LoginResponse } from './auth.js';

/**
 * Two-factor sign-in (TOTP, RFC 6238), issue 24 item 1. The setting
 * 2fa_enable requires a second factor of every account: one without it sets
 * it up during sign-in, before any session (captcha.ts has the captcha of
 * sign-in and registration).
 */

/** Digits of a code from an authenticator app, and how long one code lives. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SEC = 30;
/** How many single-use recovery codes an account gets (shown once). */
export const RECOVERY_CODE_COUNT = 10;
/** How long the password step's challenge may be exchanged for a session. */
export const TWO_FACTOR_CHALLENGE_TTL_MS = 5 * 60_000;

/** An authenticator code (6 digits, spaces allowed) or a recovery code (xxxxx-xxxxx). */
export const secondFactorCodeSchema = z
  .string({ message: 'Enter the code from your authenticator app or a recovery code.' })
  .trim()
  .min(1, 'Enter the code from your authenticator app or a recovery code.')
  .max(40, 'That is not a code from an authenticator app nor a recovery code.');

/** Only a code from the authenticator app (enrolment proves the app has the secret). */
export const totpCodeSchema = z
  .string({ message: 'Enter the 6-digit code from your authenticator app.' })
  .trim()
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'));

/**
 * The answer of POST /login when a second factor is needed: no session yet.
 * With `enrolment_required` the account has none while the site requires one:
 * it sets it up with the challenge (POST /login/two-factor/setup, then
 * /login/two-factor/enrol), as the code step does with a code.
 */
export interface TwoFactorChallengeResponse {
  two_factor_required: true;
  enrolment_required: boolean;
  /** Short-lived, single-use; exchanged with a code at POST /login/two-factor (or /login/two-factor/enrol). */
  challenge: string;
  /** Millisecond timestamp after which the challenge no longer works. */
  expiresAt: number;
}

/** POST /login answers a session, or (account with 2FA) a challenge for the code step. */
export type LoginStepResponse = LoginResponse | TwoFactorChallengeResponse;

export const isTwoFactorChallenge = (r: LoginStepResponse): r is TwoFactorChallengeResponse =>
  (r as TwoFactorChallengeResponse).two_factor_required === true;

/** POST /login/two-factor: the challenge of the password step and a code. */
export const twoFactorLoginSchema = z
  .object({
    challenge: z.string({ message: 'Sign in with your password first.' }).min(10, 'Sign in with your password first.').max(200, 'Sign in with your password first.'),
    code: secondFactorCodeSchema,
  })
  .strict();
export type TwoFactorLoginRequest = z.input<typeof twoFactorLoginSchema>;

/** POST /login/two-factor/setup: the challenge of the password step of an account that must set up a second factor. */
export const twoFactorChallengeSchema = twoFactorLoginSchema.pick({ challenge: true }).strict();
export type TwoFactorChallengeRequest = z.input<typeof twoFactorChallengeSchema>;

/** POST /login/two-factor/enrol: the challenge and the first code of the app just set up. */
export const twoFactorEnrolLoginSchema = twoFactorLoginSchema.extend({ code: totpCodeSchema }).strict();
export type TwoFactorEnrolLoginRequest = z.input<typeof twoFactorEnrolLoginSchema>;

/** GET /two-factor: the signed-in account's second factor. */
export interface TwoFactorStatus {
  /** The site requires it of every account (setting 2fa_enable): it can be set up, and not turned off. */
  available: boolean;
  enabled: boolean;
  /** Unused recovery codes left (0 when off). */
  recovery_codes_left: number;
}

/** POST /two-factor/setup answer: what the authenticator app needs, shown once until confirmed. */
export interface TwoFactorEnrolment {
  /** The secret in base32, for typing into an app that cannot scan. */
  secret: string;
  /** otpauth://totp/… URI the QR code holds. */
  otpauth_url: string;
  /** The QR code of otpauth_url as an SVG data URL. */
  qr_svg: string;
}

export const twoFactorConfirmSchema = z.object({ code: totpCodeSchema }).strict();
export type TwoFactorConfirmRequest = z.input<typeof twoFactorConfirmSchema>;

/** POST /two-factor/confirm answer: the recovery codes, shown this once. */
export interface RecoveryCodesResponse {
  recovery_codes: string[];
}

/** POST /login/two-factor/enrol answer: the session, and the recovery codes to show before it starts. */
export type EnrolledLoginResponse = LoginResponse & RecoveryCodesResponse;

/** POST /two-factor/disable: the password and a code (or a recovery code). */
export const twoFactorDisableSchema = z
  .object({
    password: z.string({ message: 'Enter your password.' }).min(1, 'Enter your password.').max(200),
    code: secondFactorCodeSchema,
  })
  .strict();
export type TwoFactorDisableRequest = z.input<typeof twoFactorDisableSchema>;
