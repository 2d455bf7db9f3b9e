import argon2 from 'argon2';
import { describe, expect, it } from 'vitest';
import { config } from '../config.js';
import { hashPassword, verifyPassword } from './passwords.js';

describe('password hashes', () => {
  it('are argon2id at the configured memory, and only the right password opens them', async () => {
    const hash = await hashPassword('site office 4th floor');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(hash).toContain(`m=${config.passwordHashMemoryKib},`);
    expect(await verifyPassword(hash, 'site office 4th floor')).toBe(true);
    expect(await verifyPassword(hash, 'site office 5th floor')).toBe(false);
  });

  it('made at another cost still open: an account keeps its password when PASSWORD_HASH_MEMORY_KIB changes', async () => {
    const heavier = await argon2.hash('drywall', { type: argon2.argon2id, memoryCost: config.passwordHashMemoryKib * 2 });
    expect(heavier).toContain(`m=${config.passwordHashMemoryKib * 2},`);
    expect(await verifyPassword(heavier, 'drywall')).toBe(true);
  });

  it('never match a malformed stored hash', async () => {
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });
});
