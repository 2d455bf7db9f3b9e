import argon2 from 'argon2';
import type { Knex } from 'knex';
import QRCode from 'qrcode';
import {
  TWO_FACTOR_CHALLENGE_TTL_MS,
  type RecoveryCodesResponse,
  type TwoFactorChallengeResponse,
  type TwoFactorEnrolment,
  type TwoFactorStatus,
} from '@sitewalk/proto';
import { config } from '../config.js';
import { cryptoBox, type CryptoBox } from '../crypto-box.js';
import { db } from '../db/index.js';
import { HttpError, conflict, forbidden, notFound, unauthorized } from '../errors.js';
import { consume, limiter, refuseWhenBlocked } from '../rate-limit.js';
import { redis } from '../redis.js';
import { appSecret, hashToken, randomToken } from '../secrets.js';
import { looksLikeTotp, matchTotpStep, newRecoveryCodes, newTotpSecret, normaliseRecoveryCode, totpUri } from '../two-factor-codes.js';
import { verifyPassword } from './passwords.js';
import { getSettings } from './settings.service.js';
import {
  advanceLastUsedStep,
  countUnusedRecoveryCodes,
  deleteTwoFactor,
  enableEnrolment,
  replaceRecoveryCodes,
  twoFactorRow,
  unusedRecoveryCodes,
  upsertEnrolment,
  useRecoveryCode,
  type TwoFactorRow,
} from '../repositories/two-factor.repository.js';
import { userById } from '../repositories/users.repository.js';

/**
 * Two-factor sign-in (issue 24 item 1): enrolment, the code check with its
 * limit, recovery codes, turning off, the administrator's reset, and the
 * short-lived challenge between the password step and the code step. While
 * the site requires it (2fa_enable), an account without a second factor gets
 * the challenge too, and sets one up with it before any session starts.
 */

export const TWO_FACTOR_MESSAGES = {
  unavailable: 'Two-factor sign-in is not enabled on this site. Ask an administrator to turn it on in Settings.',
  alreadyOn: 'Two-factor sign-in is already on for your account. Turn it off first to set it up again.',
  noEnrolment: 'Start the two-factor setup first: the code is checked against the QR code you scanned.',
  notOn: 'Two-factor sign-in is not on for this account.',
  wrongCode: 'That code is not right. Enter the current code from your authenticator app, or one of your recovery codes.',
  wrongTotp: 'That code is not right. Enter the current 6-digit code from your authenticator app.',
  wrongPassword: 'The password is not right.',
  challengeGone: 'This sign-in has expired. Sign in with your password again.',
  tooMany: 'Too many wrong codes for this account.',
  enterCode: 'Enter the code from your authenticator app.',
  enrolRequired: 'Your administrator requires two-step verification. Set up an authenticator app to finish signing in.',
  enrolFirst: 'Your administrator requires two-step verification: set up an authenticator app before signing in.',
  alreadyEnrolled: 'This account already signs in with a code from an authenticator app: enter that code instead.',
  required: 'Your administrator requires two-step verification for every account, so it cannot be turned off.',
} as const;

let box: CryptoBox | null = null;
/** The same crypto box as settings secrets, with its own derived key; each secret bound to its account. */
const secretBox = (): CryptoBox => (box ??= cryptoBox(config.settingsKey || appSecret(), 'two-factor'));
const sealSecret = (userId: number, secret: string) => secretBox().seal(secret, `user:${userId}`);
const openSecret = (row: TwoFactorRow) => secretBox().open(row.secret_sealed, `user:${row.user_id}`);

// Wrong codes count per account like failed passwords (same number, same window).
const codeLimiter = () => limiter('two-factor-account', config.loginLimitPerAccount, config.loginLimitWindowSec);

// Recovery codes carry ~49 random bits: a lighter argon2id than passwords' (OWASP's minimum, never heavier than a
// password's: PASSWORD_HASH_MEMORY_KIB) keeps checking ten quick.
const hashRecoveryCode = (code: string) =>
  argon2.hash(normaliseRecoveryCode(code), { type: argon2.argon2id, memoryCost: Math.min(19_456, config.passwordHashMemoryKib), timeCost: 2 });

const rowOf = (userId: number, k: Knex | Knex.Transaction = db()) => twoFactorRow(k, userId);

/** True when the account signs in with a second factor. */
export async function hasTwoFactor(userId: number): Promise<boolean> {
  const row = await rowOf(userId);
  return !!row?.enabled_at;
}

/** GET /two-factor. */
export async function twoFactorStatus(userId: number): Promise<TwoFactorStatus> {
  const [settings, row] = await Promise.all([getSettings(), rowOf(userId)]);
  const left = row?.enabled_at ? await countUnusedRecoveryCodes(db(), userId) : 0;
  return { available: !!settings['2fa_enable'], enabled: !!row?.enabled_at, recovery_codes_left: left };
}

/** Starts (or starts again) enrolment: a new secret, kept sealed and unconfirmed until a code proves the app has it. */
export async function startEnrolment(user: { id: number; username: string }): Promise<TwoFactorEnrolment> {
  const settings = await getSettings();
  if (!settings['2fa_enable']) throw forbidden(TWO_FACTOR_MESSAGES.unavailable);
  const existing = await rowOf(user.id);
  if (existing?.enabled_at) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  const secret = newTotpSecret();
  await upsertEnrolment(db(), user.id, sealSecret(user.id, secret));
  const otpauth_url = totpUri(secret, user.username, settings.name || 'SiteWalk');
  const svg = await QRCode.toString(otpauth_url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauth_url, qr_svg: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** Spends a point of the account's wrong-code limit and refuses with `error`. */
async function wrongCode(userId: number, error: HttpError): Promise<never> {
  await consume(codeLimiter(), String(userId), TWO_FACTOR_MESSAGES.tooMany);
  throw error;
}

/** Confirms enrolment with a first code: two-factor is on, and the ten recovery codes are returned this once. */
export async function confirmEnrolment(userId: number, code: string): Promise<RecoveryCodesResponse> {
  await refuseWhenBlocked(codeLimiter(), String(userId), TWO_FACTOR_MESSAGES.tooMany);
  const row = await rowOf(userId);
  if (!row) throw conflict(TWO_FACTOR_MESSAGES.noEnrolment);
  if (row.enabled_at) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  const step = matchTotpStep(openSecret(row), code);
  if (step === null) return wrongCode(userId, new HttpError(422, TWO_FACTOR_MESSAGES.wrongTotp));
  const codes = newRecoveryCodes();
  const hashes = await Promise.all(codes.map(hashRecoveryCode));
  await db().transaction(async (trx) => {
    // Only the enrolment that was checked is switched on (a second confirm, or a new setup meanwhile, changes nothing).
    if (!(await enableEnrolment(trx, userId, row.secret_sealed, step))) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
    await replaceRecoveryCodes(trx, userId, hashes);
  });
  await codeLimiter().delete(String(userId));
  return { recovery_codes: codes };
}

/**
 * Checks a code of an account with two-factor on and spends it: an app code
 * moves the account's last accepted time step forward (so it, or an older
 * one, never works again); a recovery code is marked used. False when wrong.
 */
async function spendSecondFactor(row: TwoFactorRow, code: string): Promise<boolean> {
  if (looksLikeTotp(code)) {
    const step = matchTotpStep(openSecret(row), code);
    if (step === null) return false;
    // Conditional, so two requests racing with one code cannot both pass.
    return advanceLastUsedStep(db(), row.user_id, step);
  }
  const normalised = normaliseRecoveryCode(code);
  if (!/^[A-Z2-9]{10}$/.test(normalised)) return false;
  const unused = await unusedRecoveryCodes(db(), row.user_id);
  for (const c of unused) {
    if (await argon2.verify(c.code_hash, normalised).catch(() => false)) {
      return useRecoveryCode(db(), c.id);
    }
  }
  return false;
}

/**
 * The second factor of an account with two-factor on, under the account's
 * wrong-code limit; throws `wrong` (a spent point) when the code is not right.
 */
export async function checkSecondFactor(userId: number, code: string, wrong: () => HttpError): Promise<void> {
  await refuseWhenBlocked(codeLimiter(), String(userId), TWO_FACTOR_MESSAGES.tooMany);
  const row = await rowOf(userId);
  if (!row?.enabled_at) throw conflict(TWO_FACTOR_MESSAGES.notOn);
  if (!(await spendSecondFactor(row, code))) await wrongCode(userId, wrong());
  await codeLimiter().delete(String(userId));
}

/** Turning it off asks for the password and a code, so a borrowed open session cannot do it. */
export async function disableTwoFactor(user: { id: number; password_hash: string }, password: string, code: string): Promise<void> {
  if ((await getSettings())['2fa_enable']) throw forbidden(TWO_FACTOR_MESSAGES.required);
  await refuseWhenBlocked(codeLimiter(), String(user.id), TWO_FACTOR_MESSAGES.tooMany);
  if (!(await hasTwoFactor(user.id))) throw conflict(TWO_FACTOR_MESSAGES.notOn);
  if (!(await verifyPassword(user.password_hash, password))) await wrongCode(user.id, new HttpError(422, TWO_FACTOR_MESSAGES.wrongPassword));
  await checkSecondFactor(user.id, code, () => new HttpError(422, TWO_FACTOR_MESSAGES.wrongCode));
  await removeTwoFactor(user.id);
}

/**
 * A super admin's reset (lost phone and codes): the account signs in with its
 * password again, and sets up a new second factor then if the site requires it.
 */
export async function resetTwoFactor(userId: number): Promise<void> {
  const exists = await userById(db(), userId);
  if (!exists) throw notFound('User not found.');
  await removeTwoFactor(userId);
  await codeLimiter().delete(String(userId));
}

async function removeTwoFactor(userId: number): Promise<void> {
  await db().transaction(async (trx) => {
    await deleteTwoFactor(trx, userId);
  });
}

// ---- The challenge between the two sign-in steps -------------------------

interface ChallengeData {
  userId: number;
  remember: boolean;
  /** The name the password step was given, whose failures a right code forgives. */
  login: string;
  /** The account had no second factor while the site requires one: the challenge sets one up, it never takes a code. */
  enrol: boolean;
}

/** What a challenge is presented for: the code of an account with a second factor, or the setup of one. */
export type ChallengePurpose = 'code' | 'enrol';

/**
 * The step after a right password (or a service's word at social sign-in):
 * null when the session may start now; otherwise a challenge for the code
 * step, or (site requires it, account has none) for setting one up.
 */
export async function secondFactorStep(userId: number, remember: boolean, login: string): Promise<TwoFactorChallengeResponse | null> {
  const [enabled, settings] = await Promise.all([hasTwoFactor(userId), getSettings()]);
  if (!enabled && !settings['2fa_enable']) return null;
  const step = await issueTwoFactorChallenge({ userId, remember, login, enrol: !enabled });
  return { two_factor_required: true, enrolment_required: !enabled, ...step };
}

/** The message that goes with a challenge answer. */
export const challengeMessage = (step: TwoFactorChallengeResponse): string => (step.enrolment_required ? TWO_FACTOR_MESSAGES.enrolRequired : TWO_FACTOR_MESSAGES.enterCode);
const challengeKey = (token: string) => `${config.redisPrefix}:two-factor-challenge:${hashToken(token)}`;

/** After a right password: a random, short-lived token (only its hash is kept). */
async function issueTwoFactorChallenge(data: ChallengeData): Promise<{ challenge: string; expiresAt: number }> {
  const challenge = randomToken();
  await redis().set(challengeKey(challenge), JSON.stringify(data), 'PX', TWO_FACTOR_CHALLENGE_TTL_MS);
  return { challenge, expiresAt: Date.now() + TWO_FACTOR_CHALLENGE_TTL_MS };
}

/**
 * The account a live challenge belongs to; 401 when it is unknown or expired,
 * 403 when it is presented for the other purpose (a code step skipping the
 * required setup, or a setup replacing the factor an account already has).
 */
export async function readTwoFactorChallenge(challenge: string, purpose: ChallengePurpose): Promise<ChallengeData> {
  const raw = await redis().get(challengeKey(challenge));
  if (!raw) throw unauthorized(TWO_FACTOR_MESSAGES.challengeGone);
  const data = JSON.parse(raw) as ChallengeData;
  if (purpose === 'code' && data.enrol) throw forbidden(TWO_FACTOR_MESSAGES.enrolFirst);
  if (purpose === 'enrol' && !data.enrol) throw forbidden(TWO_FACTOR_MESSAGES.alreadyEnrolled);
  return data;
}

/** Spends the challenge; false when another request already did (it gives one session only). */
export async function spendTwoFactorChallenge(challenge: string): Promise<boolean> {
  return (await redis().del(challengeKey(challenge))) === 1;
}
