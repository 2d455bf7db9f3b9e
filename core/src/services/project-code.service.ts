import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { db } from '../db/index.js';
import { getSettings } from './settings.service.js';
import { projectCodeTaken } from '../repositories/projects.repository.js';

// Lower-case letters and digits without look-alikes (0/o, 1/l/i): easy to read out and type.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** 12 symbols of 31 ≈ 59 bits: public, but not guessable by walking through codes. */
export const PROJECT_CODE_LENGTH = 12;

/** The reserved words of the furl_blacklist setting (comma list), lower-cased. */
export function reservedWords(blacklist: string): string[] {
  return blacklist
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
}

/** A random code; unbiased because it rejects bytes past the last full alphabet cycle. */
export function randomCode(length = PROJECT_CODE_LENGTH): string {
  let out = '';
  const limit = 256 - (256 % ALPHABET.length);
  while (out.length < length) {
    for (const b of crypto.randomBytes(length * 2)) {
      if (b < limit && out.length < length) out += ALPHABET[b % ALPHABET.length];
    }
  }
  return out;
}

/** A code may not be, nor contain, a reserved word: it must never read as one of our URLs. */
export const isAllowedCode = (code: string, reserved: string[]) =>
  !reserved.some((w) => code === w || (w.length >= 3 && code.includes(w)));

/** A fresh project code: random, URL-safe, not reserved and not used by another project. */
export async function newProjectCode(k: Knex | Knex.Transaction = db()): Promise<string> {
  const reserved = reservedWords((await getSettings(k)).furl_blacklist);
  for (let i = 0; i < 20; i++) {
    const code = randomCode();
    if (!isAllowedCode(code, reserved)) continue;
    if (!(await projectCodeTaken(k, code))) return code;
  }
  throw new Error('could not find a free project code');
}
