import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADSK_NEEDS_CLIENT_MESSAGE, formMessages, SECRET_PLACEHOLDER, SECRET_SETTING_KEYS, SETTINGS_DEFAULTS, type SettingKey } from '@sitewalk/proto';
import { changedValues, setField, startTracking } from './changed-fields';
import {
  SERVER_OWNED_KEYS,
  SETTINGS_MESSAGES,
  SETTINGS_SECTIONS,
  sectionKeys,
  sectionOf,
  sectionsWith,
  setProfileFlag,
  settingField,
  settingsFieldErrors,
  blockingErrors,
  settingsFormValues,
  settingsPatch,
  timezoneChoices,
  type SettingsFormValues,
} from './settings-form';

const defaults = () => settingsFormValues(SETTINGS_DEFAULTS);

describe('the settings screen covers SPEC §3', () => {
  it('shows every setting exactly once, except smtp_valid which only the mail check sets', () => {
    const shown = SETTINGS_SECTIONS.flatMap(sectionKeys);
    expect(new Set(shown).size).toBe(shown.length);
    const expected = (Object.keys(SETTINGS_DEFAULTS) as SettingKey[]).filter((k) => !SERVER_OWNED_KEYS.includes(k));
    expect([...shown].sort()).toEqual(expected.sort());
  });

  it('has the sections an operator looks for', () => {
    expect(SETTINGS_SECTIONS.map((s) => s.label)).toEqual([
      'Branding',
      'Mail server',
      'Registration and legal',
      'Profile fields',
      'Notifications',
      'Security',
      'Social login',
      'Sharing',
      'Map',
      'Real-time',
      'Storage',
      'Integration',
      'Payment',
      'Bank transfer',
    ]);
    expect(sectionOf('smtp_password')).toBe('mail');
    expect(sectionOf('tel_mandatory')).toBe('profile');
    expect(sectionOf('enable_registration')).toBe('registration');
  });

  it('uses the control that fits each value', () => {
    expect(settingField('theme_color')?.control.type).toBe('color');
    expect(settingField('share_providers')?.control.type).toBe('multi');
    expect(settingField('terms_and_conditions')?.control.type).toBe('textarea');
    expect(settingField('timezone')?.control.type).toBe('timezone');
    for (const k of SECRET_SETTING_KEYS) expect(settingField(k)?.control.type).toBe('secret');
    for (const [k, v] of Object.entries(SETTINGS_DEFAULTS) as [SettingKey, unknown][]) {
      const control = settingField(k)?.control.type;
      if (typeof v === 'boolean' && !k.endsWith('_enable') && !k.endsWith('_mandatory') && k !== 'smtp_valid') expect([k, control]).toEqual([k, 'switch']);
      if (typeof v === 'number') expect([k, control]).toEqual([k, 'number']);
    }
  });
});

describe('what a save sends', () => {
  it('sends only the changed keys, numbers as numbers and texts trimmed', () => {
    let state = startTracking(defaults());
    state = setField(state, 'name', '  Site Supervision ');
    state = setField(state, 'smtp_port', '465');
    state = setField(state, 'enable_registration', true);
    expect(settingsPatch(changedValues(state))).toEqual({ name: 'Site Supervision', smtp_port: 465, enable_registration: true });
  });

  it('leaves a secret out while it shows the placeholder, sends a new one and an emptied one', () => {
    const loaded = settingsFormValues({ ...SETTINGS_DEFAULTS, smtp_password: SECRET_PLACEHOLDER, adsk_secret: SECRET_PLACEHOLDER });
    let state = startTracking(loaded);
    state = setField(state, 'smtp_password', 'x');
    state = setField(state, 'smtp_password', SECRET_PLACEHOLDER);
    expect(changedValues(state)).toEqual({});
    state = setField(state, 'adsk_secret', ' new secret ');
    state = setField(state, 'api_key', '');
    expect(settingsPatch({ ...changedValues(state), smtp_password: SECRET_PLACEHOLDER })).toEqual({ adsk_secret: ' new secret ' });
    expect(settingsPatch({ smtp_password: '' })).toEqual({ smtp_password: '' });
  });

  it('never sends smtp_valid, and keeps the line breaks of long texts', () => {
    expect(settingsPatch({ smtp_valid: true, terms_and_conditions: 'First line\nSecond line\n' })).toEqual({ terms_and_conditions: 'First line\nSecond line\n' });
  });

  it('sends the share buttons only when the set changed, not when reordered', () => {
    const state = setField(startTracking(defaults()), 'share_providers', [...SETTINGS_DEFAULTS.share_providers].reverse());
    expect(changedValues(state)).toEqual({});
    const fewer = setField(state, 'share_providers', ['email', 'whatsapp']);
    expect(settingsPatch(changedValues(fewer))).toEqual({ share_providers: ['email', 'whatsapp'] });
  });

  it('sends the theme colour in lower case', () => {
    expect(settingsPatch({ theme_color: '#AA3355' })).toEqual({ theme_color: '#aa3355' });
  });
});

describe('checks before saving', () => {
  it('accepts the defaults', () => {
    expect(Object.values(settingsFieldErrors(defaults())).filter(Boolean)).toEqual([]);
  });

  it('asks for whole port numbers in range and a number for the zoom', () => {
    const v = { ...defaults(), smtp_port: '70000', turn_port: '', peerjs_port: '80.5', maxzoom: 'many' };
    const e = settingsFieldErrors(v);
    expect(e.smtp_port).toBe('Enter a whole number from {min} to {max}.');
    expect(e.turn_port).toBe('Enter a number.');
    expect(e.peerjs_port).toBe('Enter a whole number from {min} to {max}.');
    expect(e.maxzoom).toBe('Enter a number.');
  });

  it('takes a tax rate with up to two decimals, from 0 to 100', () => {
    const rate = (tax_rate: string) => settingsFieldErrors({ ...defaults(), tax_rate }).tax_rate;
    expect(rate('7.25')).toBeUndefined();
    expect(rate('0')).toBeUndefined();
    expect(rate('7.255')).toBe('Enter a number from {min} to {max} with at most two decimals.');
    expect(rate('101')).toBe('Enter a number from {min} to {max} with at most two decimals.');
  });

  it('asks for a hex theme colour and well-formed addresses', () => {
    const e = settingsFieldErrors({ ...defaults(), theme_color: 'blue', notify_email: 'admin at example', contact_email: '' });
    expect(e.theme_color).toBe('The theme colour must be a hex colour like #2987f2.');
    expect(e.notify_email).toBe('Invalid email format');
    expect(e.contact_email).toBeUndefined();
  });

  it("says each of proto's findings under its setting, all at once", () => {
    const e = settingsFieldErrors({ ...defaults(), name: '  ', theme_color: '#12345', smtp_port: '0', timezone: 'Mars/Olympus', aws_s3_bucket: 'My Bucket' });
    expect(e).toEqual({
      name: 'The site name cannot be empty.',
      theme_color: 'The theme colour must be a hex colour like #2987f2.',
      smtp_port: 'Enter a whole number from {min} to {max}.',
      timezone: 'timezone must be a time zone such as Asia/Amman or UTC.',
      aws_s3_bucket: 'aws_s3_bucket must be a bucket name: 3 to 63 lower-case letters, digits, dots and dashes.',
    });
  });

  it('takes the ranges of number settings from proto, so the control and its message say the rule', () => {
    expect(settingField('smtp_port')?.control).toEqual({ type: 'number', min: 1, max: 65535 });
    expect(settingField('maxzoom')?.control).toEqual({ type: 'number', min: 1, max: 30 });
    expect(settingField('tax_rate')?.control).toEqual({ type: 'number', min: 0, max: 100, step: 0.01 });
    expect(settingsFieldErrors({ ...defaults(), maxzoom: '30' }).maxzoom).toBeUndefined();
    expect(settingsFieldErrors({ ...defaults(), maxzoom: '31' }).maxzoom).toBe('Enter a whole number from {min} to {max}.');
  });

  it('says every finding in English and in Arabic', () => {
    const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../proto/translations');
    const wrong: Partial<SettingsFormValues> = {
      name: 'x'.repeat(101),
      theme_color: 'blue',
      smtp_port: '',
      tax_rate: '7.255',
      maxzoom: '0',
      smtp_from_email: 'mail@',
      timezone: 'Mars/Olympus',
      api_key: 'short',
      aws_s3_endpoint: 'ftp://files',
      aws_s3_region: 'EU Central',
      aws_s3_bucket: 'x',
      aws_s3_accountid: '123',
      aws_s3_custom_domain: 'files example com',
      aws_s3_type: 'ftp',
      smtp_secure: 'maybe',
      smtp_auth: true,
      smtp_username: '',
      adsk_enable: true,
      adsk_client: '',
    };
    const found = settingsFieldErrors({ ...defaults(), ...wrong });
    expect(Object.keys(found).sort()).toEqual(Object.keys(wrong).filter((k) => k !== 'smtp_auth' && k !== 'adsk_enable').sort());
    for (const lang of ['en', 'ar']) {
      const dict = JSON.parse(fs.readFileSync(path.join(dir, `${lang}.json`), 'utf8')) as Record<string, string>;
      expect(Object.values(found).filter((m) => !m || !dict[m]?.trim()), lang).toEqual([]);
    }
  });

  it('asks for the SMTP user name when the server needs one', () => {
    expect(settingsFieldErrors({ ...defaults(), smtp_auth: true, smtp_username: ' ' }).smtp_username).toBeTruthy();
    expect(settingsFieldErrors({ ...defaults(), smtp_auth: true, smtp_username: 'mailer' }).smtp_username).toBeUndefined();
  });

  it('asks for the Client ID before design-cloud linking is turned on, in the words the server uses', () => {
    expect(settingsFieldErrors({ ...defaults(), adsk_enable: true, adsk_client: ' ' }).adsk_client).toBe(ADSK_NEEDS_CLIENT_MESSAGE);
    expect(settingsFieldErrors({ ...defaults(), adsk_enable: true, adsk_client: 'abc' }).adsk_client).toBeUndefined();
    expect(settingsFieldErrors({ ...defaults(), adsk_enable: false, adsk_client: '' }).adsk_client).toBeUndefined();
  });

  it('blocks a save on errors of changed settings and of settings a changed switch requires, never on untouched ones', () => {
    const found = settingsFieldErrors({ ...defaults(), adsk_enable: true, adsk_client: '', smtp_auth: true, smtp_username: '' });
    expect(Object.keys(blockingErrors(found, new Set(['adsk_enable'])))).toEqual(['adsk_client']);
    expect(Object.keys(blockingErrors(found, new Set(['smtp_auth'])))).toEqual(['smtp_username']);
    expect(blockingErrors(found, new Set(['name']))).toEqual({});
  });

  it('names the tabs that hold the errors, in screen order', () => {
    expect(sectionsWith(['bank_iban', 'smtp_port', 'theme_color'])).toEqual(['branding', 'mail', 'bank']);
  });
});

describe('profile field switches', () => {
  it('shows a field that becomes mandatory, and stops requiring a field that is hidden', () => {
    let state = startTracking(defaults());
    state = setProfileFlag(state, 'tax_id', 'mandatory', true);
    expect(changedValues(state)).toEqual({ tax_id_mandatory: true, tax_id_enable: true });
    state = setProfileFlag(state, 'first_name', 'enable', false);
    expect(state.values.first_name_mandatory).toBe(false);
    expect(state.values.first_name_enable).toBe(false);
  });

  it('leaves the other switch alone otherwise', () => {
    const state = setProfileFlag(startTracking(defaults()), 'first_name', 'mandatory', false);
    expect(changedValues(state)).toEqual({ first_name_mandatory: false });
  });
});

describe('time zones', () => {
  it('offers the default and keeps an unknown current value', () => {
    expect(timezoneChoices('Asia/Amman')).toContain('Asia/Amman');
    expect(timezoneChoices('Mars/Olympus')).toContain('Mars/Olympus');
    expect(timezoneChoices('')).toContain('UTC');
  });
});

describe('messages', () => {
  it('toasts with the SPEC §8 form messages for the Settings entity', () => {
    const m = formMessages('Settings');
    expect(SETTINGS_MESSAGES).toEqual({ updated: m.updated, updateFailed: m.updateFailed, loadFailed: m.loadFailed });
  });
});
