import { describe, expect, it } from 'vitest';
import { effectiveRole, userUpdateSchema } from './users.js';

describe('effectiveRole (SPEC §6)', () => {
  it('is super_admin only with the flag set', () => {
    expect(effectiveRole({ super_admin: true, role: 'guest' })).toBe('super_admin');
    expect(effectiveRole({ super_admin: false, role: 'super_admin' })).toBe('guest');
  });

  it('is the role otherwise, defaulting to guest', () => {
    expect(effectiveRole({ super_admin: false, role: 'editor' })).toBe('editor');
    expect(effectiveRole({ super_admin: false, role: '' })).toBe('guest');
    expect(effectiveRole(null)).toBe('guest');
  });

  it('cannot be given as a role value', () => {
    expect(userUpdateSchema.safeParse({ role: 'super_admin' }).success).toBe(false);
    expect(userUpdateSchema.safeParse({ role: 'editor' }).success).toBe(true);
  });
});
