import crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SEC } from '@sitewalk/proto';

/**
 * The arithmetic of two-factor sign-in, framework- and database-free: TOTP
 * (RFC 6238) through `otpauth`, and the single-use recovery codes.
 */

/** A fresh TOTP secret (160 bits, as RFC 4226 recommends), base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totpOf = (secretBase32: string, label = 'account', issuer = 'SiteWalk') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SEC, secret: Secret.fromBase32(secretBase32) });

/** The otpauth:// URI an authenticator app reads from the QR code. */
export const totpUri = (secretBase32: string, label: string, issuer: string): string => totpOf(secretBase32, label, issuer).toString();

/** The code an app shows at `timestampMs` (tests and the browser test's stand-in phone). */
export const totpCodeAt = (secretBase32: string, timestampMs = Date.now()): string => totpOf(secretBase32).generate({ timestamp: timestampMs });

/**
 * The time step (30 s slot since the epoch) the code belongs to, accepting
 * one step either side for clocks a little off; null when it matches none.
 * Callers refuse a step at or before the last one accepted, so a code
 * (or an older one) is never taken twice.
 */
export function matchTotpStep(secretBase32: string, code: string, timestampMs = Date.now()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(token)) return null;
  const delta = totpOf(secretBase32).validate({ token, timestamp: timestampMs, window: 1 });
  return delta === null ? null : Math.floor(timestampMs / 1000 / TOTP_PERIOD_SEC) + delta;
}

/** True when the text has the shape of an authenticator code rather than of a recovery code. */
export const looksLikeTotp = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s+/g, ''));

// No 0/O or 1/I/L: people copy these from paper.
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Ten codes like `K7QPM-3XWZR` (about 49 bits each): shown once, stored hashed. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const one = () => Array.from({ length: 10 }, () => RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: count }, () => {
    const c = one();
    return `${c.slice(0, 5)}-${c.slice(5)}`;
  });
}

/** The form a recovery code is hashed in: upper case, without spaces or dashes, so "k7qpm 3xwzr" matches. */
export const normaliseRecoveryCode = (code: string): string => code.toUpperCase().replace(/[\s-]+/g, '');
