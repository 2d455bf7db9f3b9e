import { ADSK_NEEDS_CLIENT_MESSAGE, PUBLIC_SETTING_KEYS, SECRET_PLACEHOLDER, SECRET_SETTING_KEYS, SETTINGS_DEFAULTS, SMTP_SETTING_KEYS, STORAGE_SETTING_KEYS, type SettingKey, type Settings } from '@sitewalk/proto';
import type { Knex } from 'knex';
import { db } from '../db/index.js';
import { enqueue } from '../queue/index.js';
import { logger } from '../logger.js';
import { openSetting, sealSetting } from '../settings-crypto.js';
import { badRequest } from '../errors.js';
import { s3OptionsFromSettings } from '../storage/s3-options.js';
import { settingRows, upsertSetting } from '../repositories/settings.repository.js';

const SECRET_SET = new Set<string>(SECRET_SETTING_KEYS);

/**
 * A stored secret in clear. One that no longer opens (SETTINGS_KEY or
 * APP_SECRET changed) reads as not set, so the rest of the app keeps working
 * and the administrator enters it again.
 */
function readSecret(key: string, stored: unknown): unknown {
  try {
    return openSetting(key, stored);
  } catch (err) {
    logger.error({ err, setting: key }, 'a secret setting does not open with the configured key (SETTINGS_KEY or APP_SECRET changed?); it reads as not set');
    return '';
  }
}

/** All settings: stored values over the defaults of SPEC §3, secrets decrypted. */
export async function getSettings(trx: Knex | Knex.Transaction = db()): Promise<Settings> {
  const rows = await settingRows(trx);
  const merged: Record<string, unknown> = { ...SETTINGS_DEFAULTS };
  for (const r of rows) if (r.key in SETTINGS_DEFAULTS) merged[r.key] = SECRET_SET.has(r.key) ? readSecret(r.key, r.value) : r.value;
  return merged as Settings;
}

export async function getSetting<K extends SettingKey>(key: K): Promise<Settings[K]> {
  return (await getSettings())[key];
}

/** The settings someone not signed in sees: the sign-in page's and the public viewer's (PUBLIC_SETTING_KEYS). */
export function anonymousSettings(s: Settings): Partial<Settings> {
  return Object.fromEntries(PUBLIC_SETTING_KEYS.map((k) => [k, s[k]])) as Partial<Settings>;
}

/** Settings as a signed-in user sees them: secrets replaced by the placeholder when set. */
export function publicSettings(s: Settings): Settings {
  const out: Record<string, unknown> = { ...s };
  for (const k of SECRET_SET) out[k] = s[k as SettingKey] ? SECRET_PLACEHOLDER : '';
  return out as Settings;
}

/**
 * Writes the given settings in one transaction. A secret sent back as the
 * placeholder keeps its stored value. Returns the keys that really changed.
 */
export async function saveSettings(patch: Partial<Settings>, trx?: Knex.Transaction): Promise<SettingKey[]> {
  const run = async (t: Knex.Transaction) => {
    const current = await getSettings(t);
    const changed: SettingKey[] = [];
    for (const [k, v] of Object.entries(patch) as [SettingKey, unknown][]) {
      if (v === undefined) continue;
      if (SECRET_SET.has(k) && v === SECRET_PLACEHOLDER) continue;
      if (JSON.stringify(current[k]) === JSON.stringify(v)) continue;
      changed.push(k);
      // Secrets are kept encrypted at rest (see settings-crypto.ts).
      await upsertSetting(t, k, JSON.stringify(SECRET_SET.has(k) ? sealSetting(k, v) : v));
    }
    return changed;
  };
  return trx ? run(trx) : db().transaction(run);
}

const SMTP_KEYS = new Set<string>(SMTP_SETTING_KEYS);
const STORAGE_KEYS = new Set<string>(STORAGE_SETTING_KEYS);

export interface SettingsUpdateResult {
  changed: SettingKey[];
  /** True when the SMTP settings changed and a check of the server was queued. */
  smtp_check_queued: boolean;
}

/**
 * PUT /settings: saves what changed. `smtp_valid` belongs to the server and is
 * ignored in the patch; when any SMTP setting changes it turns false in the
 * same transaction and a mail.verify job checks the server again.
 */
export async function updateSettings(patch: Partial<Settings>, requestedBy: number): Promise<SettingsUpdateResult> {
  const { smtp_valid: _serverOwned, ...rest } = patch;
  const changed = await db().transaction(async (trx) => {
    const changed = await saveSettings(rest, trx);
    if (changed.some((k) => SMTP_KEYS.has(k))) await saveSettings({ smtp_valid: false }, trx);
    if (changed.includes('adsk_enable') || changed.includes('adsk_client')) {
      // Linking on without a client id would only fail later, on every user's "Connect".
      const s = await getSettings(trx);
      if (s.adsk_enable && !s.adsk_client.trim()) throw badRequest(ADSK_NEEDS_CLIENT_MESSAGE);
    }
    if (changed.some((k) => STORAGE_KEYS.has(k))) {
      // Files go to the bucket only with settings that can reach one; nothing is saved otherwise.
      const s = await getSettings(trx);
      const s3 = s.aws_s3_vt_auto && s.aws_s3_type ? s3OptionsFromSettings(s) : null;
      if (s3 && !s3.ok) throw badRequest(`Files cannot be stored in the bucket yet: ${s3.reason}`);
    }
    return changed;
  });
  let smtp_check_queued = false;
  if (changed.some((k) => SMTP_KEYS.has(k))) {
    try {
      await enqueue('mail.verify', { requested_by: requestedBy });
      smtp_check_queued = true;
    } catch (err) {
      logger.error({ err }, 'could not queue the SMTP check');
    }
  }
  return { changed, smtp_check_queued };
}
