import { describe, expect, it } from 'vitest';
import { memoryStore } from './browser-storage';
import { clearStoredAuth, loadStoredAuth, refreshDue, saveStoredAuth, validateStoredAuth } from './stored-auth';

const user = JSON.stringify({ id: 7, username: 'ana' });

describe('validateStoredAuth (SPEC §5)', () => {
  it('accepts a token, a user with an id and a numeric expiry', () => {
    expect(validateStoredAuth({ token: 'tok', user, expiresAt: '1700000000000', rememberMe: 'true' })).toEqual({
      valid: true,
      auth: { token: 'tok', user: { id: 7, username: 'ana' }, expiresAt: 1700000000000, rememberMe: true },
    });
  });

  it('reports missing data', () => {
    expect(validateStoredAuth({ user, expiresAt: '1' })).toEqual({ valid: false, error: 'Missing authentication data' });
    expect(validateStoredAuth({ token: 't', expiresAt: '1' })).toEqual({ valid: false, error: 'Missing authentication data' });
    expect(validateStoredAuth({ token: 't', user })).toEqual({ valid: false, error: 'Missing authentication data' });
  });

  it('reports an expiry that is not a number', () => {
    expect(validateStoredAuth({ token: 't', user, expiresAt: 'tomorrow' })).toEqual({ valid: false, error: 'Invalid expiry time' });
    expect(validateStoredAuth({ token: 't', user, expiresAt: 'NaN' })).toEqual({ valid: false, error: 'Invalid expiry time' });
  });

  it('reports a user without an id', () => {
    expect(validateStoredAuth({ token: 't', user: '{"username":"ana"}', expiresAt: '1' })).toEqual({ valid: false, error: 'Invalid user data format' });
    expect(validateStoredAuth({ token: 't', user: 'not json', expiresAt: '1' })).toEqual({ valid: false, error: 'Invalid user data format' });
    expect(validateStoredAuth({ token: 't', user: 'null', expiresAt: '1' })).toEqual({ valid: false, error: 'Invalid user data format' });
  });
});

describe('the two key sets', () => {
  const auth = { token: 'tok', user: { id: 7 }, expiresAt: 5, rememberMe: false };

  it('keeps a plain sign-in in session storage only', () => {
    const s = memoryStore();
    const l = memoryStore();
    saveStoredAuth(s, l, auth);
    expect(s.dump()).toEqual({ token: 'tok', user: '{"id":7}', expiresAt: '5', rememberMe: 'false' });
    expect(l.dump()).toEqual({});
  });

  it('keeps a remembered sign-in under the ls_ prefix in persistent storage', () => {
    const s = memoryStore({ token: 'old' });
    const l = memoryStore();
    saveStoredAuth(s, l, { ...auth, rememberMe: true });
    expect(l.dump()).toEqual({ ls_token: 'tok', ls_user: '{"id":7}', ls_expiresAt: '5', ls_rememberMe: 'true' });
    expect(s.dump()).toEqual({});
  });

  it('reads this tab’s set first, then the remembered one', () => {
    const s = memoryStore();
    const l = memoryStore({ ls_token: 'remembered', ls_user: user, ls_expiresAt: '9', ls_rememberMe: 'true' });
    expect(loadStoredAuth(s, l)).toMatchObject({ valid: true, auth: { token: 'remembered', rememberMe: true } });
    saveStoredAuth(s, memoryStore(), auth);
    expect(loadStoredAuth(s, l)).toMatchObject({ valid: true, auth: { token: 'tok' } });
  });

  it('clears the sign-in but keeps the language choice', () => {
    const l = memoryStore({ ls_token: 't', ls_user: user, ls_expiresAt: '1', ls_rememberMe: 'true', ls_language: 'ar' });
    clearStoredAuth(l, true);
    expect(l.dump()).toEqual({ ls_language: 'ar' });
  });
});

describe('refreshDue', () => {
  const now = 1_000_000_000;
  it('is due when the token expires in under five minutes or has expired', () => {
    expect(refreshDue(now + 4 * 60_000, now)).toBe(true);
    expect(refreshDue(now - 1, now)).toBe(true);
    expect(refreshDue(now + 5 * 60_000, now)).toBe(false);
    expect(refreshDue(now + 60 * 60_000, now)).toBe(false);
  });
});
