import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_SETTING_KEYS, SECRET_PLACEHOLDER, SECRET_SETTING_KEYS, SETTINGS_DEFAULTS, type SettingKey } from '@sitewalk/proto';
import { getSettings } from '@sitewalk/core/services/settings.service.js';
import * as encryptSettings from '@sitewalk/core/db/migrations/20261124_0150_encrypt_settings.js';
import { db } from '@sitewalk/core/db';
import { queue } from '@sitewalk/core/queue';
import { api, createUser } from './helpers.js';
import { lockSettings, type SettingsLock } from './settings-lock.js';

let settings: SettingsLock;
beforeAll(async () => {
  settings = await lockSettings();
  // Every key this file changes is restored when it ends.
  await settings.set({
    smtp_server: '', smtp_port: 587, smtp_password: '', smtp_valid: false,
    adsk_secret: '', api_key: '', theme_color: '#2987f2', name: 'SiteWalk', enable_registration: false,
    smtp_secure: 'tls', contact_email: '', turn_port: 5349, maxzoom: 20, timezone: 'Asia/Amman',
  });
}, 180_000);
afterAll(() => settings.release());

const stored = async (key: string) => (await db()('settings').where({ key }).first('value'))?.value;
/** A secret as the server reads it — and proof that the table itself never holds it in clear. */
async function clearSecret(key: SettingKey): Promise<unknown> {
  const value = (await getSettings())[key];
  const row = await stored(key);
  if (value) {
    expect(row).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row)).not.toContain(String(value));
  }
  return value;
}
const verifyJobsBy = async (adminId: number) =>
  (await queue('mail').getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed', 'paused'])).filter(
    (j) => j?.name === 'mail.verify' && j.data.requested_by === adminId,
  );

describe('GET /api/settings', () => {
  it('gives someone not signed in only the public settings: no mail server, client ids or secrets', async () => {
    await settings.set({ smtp_server: 'mail.internal.example', smtp_username: 'mailer', adsk_client: 'client-id-123', adsk_secret: 'the-real-adsk-secret' });
    const res = await api().get('/api/settings');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual([...PUBLIC_SETTING_KEYS].sort());
    expect(res.body.data).toMatchObject({ theme_color: '#2987f2', timezone: 'Asia/Amman', maxzoom: 20, first_name_mandatory: true });
    const text = JSON.stringify(res.body);
    for (const leak of ['mail.internal.example', 'mailer', 'client-id-123', 'the-real-adsk-secret', 'smtp_server', 'smtp_username', 'smtp_password', 'adsk_client', 'api_key']) expect(text).not.toContain(leak);
    // Whether mail works is public on purpose: the sign-in page offers password recovery only then.
    expect(res.body.data.smtp_valid).toBe(false);
  });

  it('gives a signed-in user every setting, never a secret in clear: the placeholder when set, empty when not', async () => {
    await settings.set({ adsk_secret: 'the-real-adsk-secret', api_key: '' });
    const user = await createUser();
    const res = await api().get('/api/settings').set(user.auth);
    expect(Object.keys(res.body.data).sort()).toEqual(Object.keys(SETTINGS_DEFAULTS).sort());
    expect(res.body.data.adsk_secret).toBe(SECRET_PLACEHOLDER);
    expect(res.body.data.api_key).toBe('');
    expect(JSON.stringify(res.body)).not.toContain('the-real-adsk-secret');
    for (const k of SECRET_SETTING_KEYS) expect(['', SECRET_PLACEHOLDER]).toContain(res.body.data[k]);
  });
});

describe('PUT /api/settings', () => {
  it('saves the changed settings for a super admin and answers with the public settings', async () => {
    const admin = await createUser({ super_admin: true });
    const res = await api().put('/api/settings').set(admin.auth).send({ name: 'Site Supervision', theme_color: '#112233', enable_registration: true });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Settings saved.');
    expect(res.body.data).toMatchObject({ name: 'Site Supervision', theme_color: '#112233', enable_registration: true });
    expect((await api().get('/api/settings')).body.data.name).toBe('Site Supervision');
  });

  it('keeps a stored secret when the placeholder comes back, and replaces it with a new value', async () => {
    const admin = await createUser({ super_admin: true });
    await settings.set({ adsk_secret: 'kept-secret' });
    const keep = await api().put('/api/settings').set(admin.auth).send({ adsk_secret: SECRET_PLACEHOLDER, name: 'With secret' });
    expect(keep.status).toBe(200);
    expect(keep.body.data.adsk_secret).toBe(SECRET_PLACEHOLDER);
    expect(await clearSecret('adsk_secret')).toBe('kept-secret');
    await api().put('/api/settings').set(admin.auth).send({ adsk_secret: 'new-secret' });
    expect(await clearSecret('adsk_secret')).toBe('new-secret');
  });

  it('marks SMTP unverified and queues a check of the mail server when an SMTP setting changes', async () => {
    const admin = await createUser({ super_admin: true });
    await settings.set({ smtp_valid: true });
    const res = await api().put('/api/settings').set(admin.auth).send({ smtp_server: '127.0.0.1', smtp_port: 1, smtp_password: 'mail-pass' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Settings saved. The mail server is being checked; you will be notified of the result.');
    expect(res.body.data.smtp_valid).toBe(false);
    expect(res.body.data.smtp_password).toBe(SECRET_PLACEHOLDER);
    expect(await clearSecret('smtp_password')).toBe('mail-pass');
    expect(await verifyJobsBy(admin.user.id)).toHaveLength(1);
  });

  it('leaves smtp_valid to the server: a client cannot set it, and other changes do not reset it', async () => {
    const admin = await createUser({ super_admin: true });
    await settings.set({ smtp_valid: false });
    const res = await api().put('/api/settings').set(admin.auth).send({ smtp_valid: true, name: 'Renamed' });
    expect(res.body.data.smtp_valid).toBe(false);
    await settings.set({ smtp_valid: true });
    const other = await api().put('/api/settings').set(admin.auth).send({ name: 'Renamed again' });
    expect(other.body.data.smtp_valid).toBe(true);
    expect(await verifyJobsBy(admin.user.id)).toHaveLength(0);
  });

  it('refuses to turn on design-cloud linking without a client id, with a sentence, storing nothing', async () => {
    await settings.set({ adsk_enable: false, adsk_client: '' });
    const admin = await createUser({ super_admin: true });
    const refused = await api().put('/api/settings').set(admin.auth).send({ adsk_enable: true, adsk_client: '  ' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Enter the Client ID of your Autodesk app before letting people link their accounts.');
    expect((await getSettings()).adsk_enable).toBe(false);
    // Emptying the client id of a site where linking is on is refused too.
    const on = await api().put('/api/settings').set(admin.auth).send({ adsk_enable: true, adsk_client: 'client-id-123' });
    expect(on.status).toBe(200);
    const emptied = await api().put('/api/settings').set(admin.auth).send({ adsk_client: '' });
    expect(emptied.status).toBe(400);
    expect((await getSettings()).adsk_client).toBe('client-id-123');
    await settings.set({ adsk_enable: false, adsk_client: '' });
  });

  it('answers 403 to a user who is not a super admin and 401 without a token', async () => {
    const { auth } = await createUser();
    const res = await api().put('/api/settings').set(auth).send({ name: 'Taken over' });
    expect(res.status).toBe(403);
    expect((await api().put('/api/settings').send({ name: 'Taken over' })).status).toBe(401);
    expect((await api().get('/api/settings')).body.data.name).not.toBe('Taken over');
  });

  it('answers 400 to unknown keys, wrong types, a bad colour or nothing at all', async () => {
    const admin = await createUser({ super_admin: true });
    const cases: [unknown, RegExp][] = [
      [{ no_such_setting: 1 }, /^Unknown field: no_such_setting\.$/],
      [{ smtp_port: 'five' }, /^smtp_port/],
      [{ theme_color: 'blue' }, /^The theme colour must be a hex colour like #2987f2\.$/],
      [{}, /^Give at least one setting to change\.$/],
    ];
    for (const [input, message] of cases) {
      const res = await api().put('/api/settings').set(admin.auth).send(input as object);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect(await stored('theme_color')).not.toBe('blue');
  });

  it('gives each setting its real type and range: ports are whole numbers 1–65535, the site needs a name', async () => {
    const admin = await createUser({ super_admin: true });
    const before = await getSettings();
    const port = /^smtp_port must be a whole number from 1 to 65535\.$/;
    const cases: [unknown, RegExp][] = [
      [{ smtp_port: -1 }, port],
      [{ smtp_port: 0 }, port],
      [{ smtp_port: 1.5 }, port],
      [{ smtp_port: 1e20 }, port],
      [{ smtp_port: 65536 }, port],
      [{ smtp_port: '587' }, port],
      [{ turn_port: 70000 }, /^turn_port must be a whole number from 1 to 65535\.$/],
      [{ maxzoom: 99 }, /^maxzoom must be a whole number from 1 to 30\.$/],
      [{ name: '' }, /^The site name cannot be empty\.$/],
      [{ name: '   ' }, /^The site name cannot be empty\.$/],
      [{ smtp_secure: 'maybe' }, /^smtp_secure must be one of: tls, ssl, none\.$/],
      [{ timezone: 'Mars/Olympus' }, /^timezone must be a time zone/],
      [{ contact_email: 'not-an-address' }, /^contact_email must be an e-mail address\.$/],
      [{ notify_email: 'admin at example' }, /^notify_email must be an e-mail address\.$/],
    ];
    for (const [input, message] of cases) {
      const res = await api().put('/api/settings').set(admin.auth).send(input as object);
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect(await getSettings()).toEqual(before);
    const good = await api().put('/api/settings').set(admin.auth).send({ smtp_port: 465, smtp_secure: 'ssl', name: '  Site Office  ', contact_email: '' });
    expect(good.status).toBe(200);
    expect(good.body.data).toMatchObject({ smtp_port: 465, smtp_secure: 'ssl', name: 'Site Office', contact_email: '' });
  });

  it('refuses a NUL byte or half a Unicode character with 400 and a clear message, storing nothing', async () => {
    const admin = await createUser({ super_admin: true });
    await settings.set({ name: 'SiteWalk' });
    for (const name of ['a\u0000b', '\ud800', 'x\udc00y']) {
      const res = await api().put('/api/settings').set(admin.auth).send({ name });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('The field "name" contains a character that cannot be stored (a NUL byte or a broken Unicode character). Remove it and try again.');
    }
    // The same as the raw JSON a client would send, escapes and all.
    const raw = await api().put('/api/settings').set(admin.auth).set('Content-Type', 'application/json').send('{"name":"\\ud800"}');
    expect(raw.status).toBe(400);
    expect(await stored('name')).toBe('SiteWalk');
    // A whole character outside the basic plane (a surrogate pair) is fine.
    const emoji = await api().put('/api/settings').set(admin.auth).send({ name: 'Site 🏗️' });
    expect(emoji.status).toBe(200);
    expect(emoji.body.data.name).toBe('Site 🏗️');
  });
});

describe('secret settings at rest', () => {
  it('are encrypted in the table, read in clear by the server, and never answered in clear', async () => {
    await settings.set({ smtp_password: 'p@ss-in-the-table' });
    expect(await clearSecret('smtp_password')).toBe('p@ss-in-the-table');
    const res = await api().get('/api/settings').set((await createUser()).auth);
    expect(res.body.data.smtp_password).toBe(SECRET_PLACEHOLDER);
    expect(JSON.stringify(res.body)).not.toContain('p@ss-in-the-table');
  });

  it('the migration encrypts values stored in clear before it, and its down step decrypts them', async () => {
    // As a database from before the migration holds it.
    await db()('settings').insert({ key: 'adsk_secret', value: JSON.stringify('clear-before') }).onConflict('key').merge();
    await db()('settings').insert({ key: 'api_key', value: JSON.stringify('') }).onConflict('key').merge();
    await db().transaction((trx) => encryptSettings.up(trx));
    expect(await clearSecret('adsk_secret')).toBe('clear-before');
    expect(await stored('api_key')).toBe('');
    // Running it again changes nothing that is already sealed.
    const sealed = await stored('adsk_secret');
    await db().transaction((trx) => encryptSettings.up(trx));
    expect(await stored('adsk_secret')).toBe(sealed);
    await db().transaction((trx) => encryptSettings.down(trx));
    expect(await stored('adsk_secret')).toBe('clear-before');
    await db().transaction((trx) => encryptSettings.up(trx));
    expect(await clearSecret('adsk_secret')).toBe('clear-before');
  });
});
