import type { Knex } from 'knex';
import { isSealed } from '../../crypto-box.js';
import { openSetting, sealSetting } from '../../settings-crypto.js';

/**
 * Secret settings were stored in clear: seal them with the settings key
 * (SETTINGS_KEY, or APP_SECRET's). The list is fixed here so this migration
 * means the same whenever it runs; secrets added later are sealed on save.
 */
const SECRET_KEYS = [
  'smtp_password',
  'paypal_client_secret',
  'social_google_secret',
  'social_facebook_secret',
  'social_twitter_secret',
  'turn_password',
  'aws_s3_key',
  'aws_s3_secret',
  'api_key',
  'adsk_secret',
];

async function rewrite(knex: Knex, change: (key: string, value: unknown) => unknown): Promise<void> {
  const rows: { key: string; value: unknown }[] = await knex('settings').whereIn('key', SECRET_KEYS).forUpdate().select('key', 'value');
  for (const r of rows) {
    const next = change(r.key, r.value);
    if (next !== r.value) await knex('settings').where({ key: r.key }).update({ value: JSON.stringify(next) });
  }
}

export async function up(knex: Knex): Promise<void> {
  await rewrite(knex, (key, value) => (typeof value === 'string' && value !== '' && !isSealed(value) ? sealSetting(key, value) : value));
}

export async function down(knex: Knex): Promise<void> {
  await rewrite(knex, (key, value) => openSetting(key, value));
}
