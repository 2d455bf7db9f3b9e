import { describe, expect, it } from 'vitest';
import { FIELD_REQUIRED, effectiveRole, profileFormSchema, userUpdateSchema } from './users.js';

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

describe('the profile fields of a form', () => {
  it('asks for the required ones only, the first name by name, each within the server’s length', () => {
    const schema = profileFormSchema(['first_name', 'city']);
    const messages = (v: unknown) => {
      const r = schema.safeParse(v);
      return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
    };
    expect(messages({ first_name: '  ', city: '', company: '' })).toEqual({ first_name: 'First name is required', city: FIELD_REQUIRED });
    expect(messages({ first_name: 'Hala', city: 'Amman', company: 'x'.repeat(201) })).toEqual({ company: 'At most 200 characters.' });
    expect(messages({ first_name: 'Hala', city: 'Amman' })).toEqual({});
  });
});
