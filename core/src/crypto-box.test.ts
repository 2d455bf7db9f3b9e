import { describe, expect, it } from 'vitest';
import { CryptoBoxError, SEALED_PREFIX, cryptoBox, isSealed } from './crypto-box.js';

describe('cryptoBox', () => {
  const box = cryptoBox('an app secret of some length', 'settings');

  it('seals a text so it no longer shows, and opens it again', () => {
    const sealed = box.seal('smtp-pass wörd ✓', 'smtp_password');
    expect(sealed.startsWith(SEALED_PREFIX)).toBe(true);
    expect(sealed).not.toContain('smtp-pass');
    expect(isSealed(sealed)).toBe(true);
    expect(box.open(sealed, 'smtp_password')).toBe('smtp-pass wörd ✓');
  });

  it('gives a different sealed text each time (random IV)', () => {
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses another key, another purpose, another context and an altered text', () => {
    const sealed = box.seal('secret', 'adsk_secret');
    expect(() => cryptoBox('another secret', 'settings').open(sealed, 'adsk_secret')).toThrow(CryptoBoxError);
    expect(() => cryptoBox('an app secret of some length', 'tokens').open(sealed, 'adsk_secret')).toThrow(CryptoBoxError);
    expect(() => box.open(sealed, 'smtp_password')).toThrow(CryptoBoxError);
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(() => box.open(SEALED_PREFIX + raw.toString('base64url'), 'adsk_secret')).toThrow(CryptoBoxError);
    expect(() => box.open(`${SEALED_PREFIX}abc`)).toThrow(CryptoBoxError);
  });

  it('tells sealed texts from clear ones and refuses to open a clear one', () => {
    expect(isSealed('plain')).toBe(false);
    expect(isSealed(42)).toBe(false);
    expect(() => box.open('plain')).toThrow(CryptoBoxError);
  });

  it('needs key material', () => {
    expect(() => cryptoBox('', 'settings')).toThrow(CryptoBoxError);
  });
});
