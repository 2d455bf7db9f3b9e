import argon2 from 'argon2';
import { config } from '../config.js';
import { randomToken } from '../secrets.js';

/** Hashes a password with argon2id: 3 passes over 64 MiB (the library's defaults) unless PASSWORD_HASH_MEMORY_KIB says otherwise. */
export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id, memoryCost: config.passwordHashMemoryKib });

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
