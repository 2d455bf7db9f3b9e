import { describe, expect, it } from 'vitest';
import { looksLikeTotp, matchTotpStep, newRecoveryCodes, newTotpSecret, normaliseRecoveryCode, totpCodeAt, totpUri } from './two-factor-codes.js';

describe('TOTP codes', () => {
  const secret = newTotpSecret();
  const now = Date.UTC(2026, 10, 29, 12, 0, 10);
  const step = Math.floor(now / 30_000);

  it('accepts the current code and names its time step', () => {
    expect(matchTotpStep(secret, totpCodeAt(secret, now), now)).toBe(step);
  });

  it('accepts a code one step old or one step early (clocks a little off), not two', () => {
    expect(matchTotpStep(secret, totpCodeAt(secret, now - 30_000), now)).toBe(step - 1);
    expect(matchTotpStep(secret, totpCodeAt(secret, now + 30_000), now)).toBe(step + 1);
    const old = totpCodeAt(secret, now - 90_000);
    // (A two-steps-old code may by chance equal a near one; only then would it match.)
    if (![-30_000, 0, 30_000].some((d) => totpCodeAt(secret, now + d) === old)) expect(matchTotpStep(secret, old, now)).toBeNull();
  });

  it('refuses a code of another secret, letters, and too few digits; spaces are fine', () => {
    const code = totpCodeAt(secret, now);
    // Another secret's window of three codes holds this one by chance about 3 times in a million.
    expect(matchTotpStep(newTotpSecret(), code, now)).toBeNull();
    expect(matchTotpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, now)).toBe(step);
    expect(matchTotpStep(secret, code.slice(0, 5), now)).toBeNull();
    expect(matchTotpStep(secret, 'abcdef', now)).toBeNull();
  });

  it('writes the otpauth URI apps scan, with issuer and account', () => {
    const uri = totpUri(secret, 'alice', 'Site Walk');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Site%20Walk:alice\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('period=30');
    expect(uri).toContain('digits=6');
  });
});

describe('recovery codes', () => {
  it('gives ten different codes that are not mistaken for app codes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) {
      expect(c).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
      expect(looksLikeTotp(c)).toBe(false);
    }
    expect(looksLikeTotp('123 456')).toBe(true);
  });

  it('matches a code typed in lower case, with spaces or without the dash', () => {
    expect(normaliseRecoveryCode('k7qpm 3xwzr')).toBe('K7QPM3XWZR');
    expect(normaliseRecoveryCode('K7QPM-3XWZR')).toBe('K7QPM3XWZR');
  });
});
