import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROFILE_FIELDS, type ProfileField } from '@sitewalk/proto';
import { allRules, rulesWhen } from './edit-form-model';
import { CAPTCHA_MISSING, captchaRules, emailRules, newPasswordRules, profileRules, recoverRules, signInRules, usernameRules } from './account-rules';
import { ruleMessages } from './rules-test-support';

type Values = Record<ProfileField, string> & { username: string; email: string; password: string; confirm: string };

const blank = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, ''])) as Record<ProfileField, string>;
const valid: Values = { ...blank, first_name: 'Hala', username: 'hala.saleh', email: ' Hala@Example.test ', password: 'a long password', confirm: 'a long password' };

/** The sign-up form's rules with first name and city shown, the city required by the settings. */
const signUp = allRules<Values>(usernameRules(), emailRules(), newPasswordRules(), profileRules(['first_name', 'city'], ['first_name', 'city']));

/** Wrong values of every kind, and the messages the form shows for them. */
const WRONG: [Partial<Values>, Partial<Record<keyof Values, string>>][] = [
  [{ username: '  ab ' }, { username: 'Username must be at least 3 characters.' }],
  [{ username: 'x'.repeat(51) }, { username: 'Username must be at most 50 characters.' }],
  [{ username: 'hala saleh' }, { username: 'Username may use letters, digits, dot, dash and underscore only.' }],
  [{ email: ' ' }, { email: 'Email is required' }],
  [{ email: 'hala@' }, { email: 'Invalid email format' }],
  [{ password: 'short', confirm: 'short' }, { password: 'Password must be at least 8 characters.' }],
  [{ password: 'x'.repeat(201), confirm: 'x'.repeat(201) }, { password: 'Password must be at most 200 characters.' }],
  [{ confirm: 'another password' }, { confirm: 'The passwords do not match.' }],
  [{ first_name: '  ', city: '' }, { first_name: 'First name is required', city: 'This field is required.' }],
  [{ city: 'x'.repeat(201), company: 'x'.repeat(201) }, { city: 'At most 200 characters.' }],
];

const SIGN_IN_MESSAGES = { username: 'Enter your username or e-mail.', password: 'Enter your password.' };

describe("the account forms' rules are proto's", () => {
  it('accept a complete sign-up, the e-mail as typed with spaces and capitals', async () => {
    expect(await ruleMessages(signUp, { ...valid, city: 'Amman' })).toEqual({});
  });

  it('say what is wrong under each field, only for the fields the form shows', async () => {
    for (const [change, messages] of WRONG) expect(await ruleMessages(signUp, { ...valid, city: 'Amman', ...change })).toEqual(messages);
  });

  it('say a short password and a different confirmation at once', async () => {
    expect(await ruleMessages(signUp, { ...valid, city: 'Amman', password: 'short', confirm: 'other' })).toEqual({
      password: 'Password must be at least 8 characters.',
      confirm: 'The passwords do not match.',
    });
  });

  it('ask a sign-in for both credentials, and the captcha while one is shown', async () => {
    type SignIn = { username: string; password: string; captcha: string; captchaShown: boolean };
    const rules = allRules<SignIn>(signInRules(), rulesWhen((v) => v.captchaShown, captchaRules()));
    expect(await ruleMessages(rules, { username: '  ', password: '', captcha: '', captchaShown: false })).toEqual(SIGN_IN_MESSAGES);
    expect(await ruleMessages(rules, { username: 'hala', password: 'secret', captcha: '', captchaShown: true })).toEqual({ captcha: CAPTCHA_MISSING });
    expect(await ruleMessages(rules, { username: 'hala', password: 'secret', captcha: 'solved', captchaShown: true })).toEqual({});
  });

  it('ask a reset link for a username or e-mail, under the form’s own field', async () => {
    expect(await ruleMessages(recoverRules<{ login: string }>(), { login: ' ' })).toEqual({ login: 'Enter your username or e-mail.' });
    expect(await ruleMessages(recoverRules<{ login: string }>(), { login: 'hala' })).toEqual({});
  });

  it('say every message in English and in Arabic', () => {
    const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../proto/translations');
    const shown = [...WRONG.flatMap(([, m]) => Object.values(m) as string[]), ...Object.values(SIGN_IN_MESSAGES), CAPTCHA_MISSING];
    for (const lang of ['en', 'ar']) {
      const dict = JSON.parse(fs.readFileSync(path.join(dir, `${lang}.json`), 'utf8')) as Record<string, string>;
      expect(shown.filter((m) => !dict[m]?.trim()), lang).toEqual([]);
    }
  });
});
