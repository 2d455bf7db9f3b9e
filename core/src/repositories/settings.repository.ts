import type { Db } from '../db/query-types.js';

/**
 * Every query of the site's settings (`settings`: one row per key, its value
 * as JSON; secrets are sealed and opened by settings.service, never here).
 */

/** Every stored setting. */
export function settingRows(k: Db): Promise<{ key: string; value: unknown }[]> {
  return k('settings').select('key', 'value');
}

/** The stored value of one setting (undefined when it was never saved). */
export async function settingValue(k: Db, key: string): Promise<unknown> {
  return ((await k('settings').where({ key }).first('value')) as { value: unknown } | undefined)?.value;
}

/** Writes one setting's value (JSON text, sealed already when secret). */
export async function upsertSetting(k: Db, key: string, json: string): Promise<void> {
  await k('settings').insert({ key, value: json, updated_at: k.fn.now() }).onConflict('key').merge();
}

/** These settings' stored values (a setting never saved is absent). */
export function settingRowsOf(k: Db, keys: readonly string[]): Promise<{ key: string; value: unknown }[]> {
  return k('settings').whereIn('key', keys).select('key', 'value');
}
