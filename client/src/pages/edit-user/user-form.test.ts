import { describe, expect, it } from 'vitest';
import { formMessages, type User } from '@sitewalk/proto';
import { changedValues, setField, startTracking } from '../../lib/changed-fields';
import { planSave } from '../../components/edit-form/edit-form-model';
import { USER_FORM_TEXTS, creationOutcome, roleChoices, userCreateRequest, userFormRules, userFormValues, userUpdateRequest } from './user-form';
import { ruleMessages } from '../../components/edit-form/rules-test-support';

const user: User = {
  id: 7, username: 'hala', email: 'hala@example.test', first_name: 'Hala', last_name: 'Saleh', avatar: null, cover_image: null,
  super_admin: false, role: 'editor', adsk_auth: false, company: 'ACME', tax_id: '', street: '', city: 'Amman', postal_code: '',
  province: '', country: 'Jordan', tel: '', language: 'ar', active: true, created_at: '2026-01-01T00:00:00Z',
};

describe('a new user', () => {
  it('is invited by e-mail by default, or given a password', () => {
    const invited = { ...userFormValues(null), username: ' nadia ', email: 'Nadia@Example.test ', first_name: ' Nadia ' };
    const body = userCreateRequest(invited);
    expect(body).toMatchObject({ username: 'nadia', email: 'Nadia@Example.test', first_name: 'Nadia', role: 'guest', super_admin: false, language: 'en' });
    expect(body).not.toHaveProperty('password');
    expect(body).not.toHaveProperty('active');
    const withPassword = userCreateRequest({ ...invited, invite: false, password: 'a long password' });
    expect(withPassword.password).toBe('a long password');
    expect(userFormValues(null, { invite: false }).invite).toBe(false);
  });

  it('needs a username, an e-mail and, when not invited, a confirmed password of 8 characters', async () => {
    const blank = userFormValues(null);
    expect(await ruleMessages(userFormRules(true), blank)).toEqual({ username: 'Username must be at least 3 characters.', email: 'Email is required' });
    const e = await ruleMessages(userFormRules(true), { ...blank, username: 'nadia', email: 'nadia@example.test', invite: false, password: 'short', password_confirm: 'other' });
    expect(e).toEqual({ password: 'Password must be at least 8 characters.', password_confirm: 'The passwords do not match.' });
    expect(await ruleMessages(userFormRules(true), { ...blank, username: 'nadia', email: 'nadia@', invite: false, password: 'a long password', password_confirm: 'a long password' })).toEqual({
      email: 'Invalid email format',
    });
  });

  it('asks an existing user’s form for no password (it has its own card)', async () => {
    const values = { ...userFormValues(null), username: 'nadia', email: 'nadia@example.test', invite: false };
    expect(await ruleMessages(userFormRules(false), values)).toEqual({});
  });

  it('says what happened: a password set, an invitation queued, or an invitation that could not be queued', () => {
    expect(creationOutcome({ invitation_sent: false }, false)).toBe('password');
    expect(creationOutcome({ invitation_sent: true }, true)).toBe('invited');
    expect(creationOutcome({ invitation_sent: false }, true)).toBe('invitation_failed');
  });
});

describe('an existing user', () => {
  it('starts from the stored values', () => {
    expect(userFormValues(user)).toMatchObject({ username: 'hala', role: 'editor', active: true, language: 'ar', city: 'Amman', invite: false, password: '' });
  });

  it('sends only the changed fields, trimmed, and never the password fields', () => {
    let state = startTracking(userFormValues(user));
    state = setField(state, 'last_name', ' Haddad ');
    state = setField(state, 'active', false);
    state = setField(state, 'city', 'Amman');
    const plan = planSave(user.id, state);
    expect(plan).toEqual({ kind: 'update', id: 7, changes: { last_name: ' Haddad ', active: false } });
    expect(userUpdateRequest(changedValues(state))).toEqual({ last_name: 'Haddad', active: false });
    expect(userUpdateRequest({ password: 'x', invite: true, role: 'viewer' })).toEqual({ role: 'viewer' });
  });

  it('keeps an unusual role selectable so it is not changed by accident', () => {
    expect(roleChoices('editor')).toEqual(['guest', 'editor', 'viewer']);
    expect(roleChoices('super_admin')).toEqual(['guest', 'editor', 'viewer', 'super_admin']);
  });
});

describe('messages', () => {
  it('marks every SPEC §8 form message of a User for translation (a user has no name rule)', () => {
    const { nameRequired: _none, ...m } = formMessages('User');
    expect([...USER_FORM_TEXTS].sort()).toEqual(Object.values(m).sort());
  });
});
