import argon2 from 'argon2';
import { randomToken } from '../secrets.js';

/** Hashes a password with argon2id (the library's defaults: 64 MiB, 3 passes). */
export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

/** True when the password matches the stored hash; a malformed hash never matches. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a random secret nobody knows: accounts waiting for their
 * invitation hold one, so no password opens them until the person sets theirs.
 */
export const unusablePasswordHash = () => hashPassword(randomToken());
