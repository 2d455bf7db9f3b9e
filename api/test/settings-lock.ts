import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { Settings } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { saveSettings } from '@sitewalk/core/services/settings.service.js';

/**
 * Settings are global, and test files run in parallel. A file that needs
 * particular settings (registration open, SMTP pointing at its sink) holds
 * this Postgres advisory lock while it runs, so no other such file changes
 * them underneath; on release the touched keys get their old values back.
 *
 * Files that do not change settings but rely on one staying as it is (a
 * password alone gives a session only while 2fa_enable is off) say so with
 * keepSettingsSteady: they hold a shared lock on that key, and a file setting
 * it takes the key's exclusive lock first, so the two never run at once.
 */
export interface SettingsLock {
  set(patch: Partial<Settings>): Promise<void>;
  release(): Promise<void>;
}

const LOCK_KEY = 'sitewalk:test:settings';
const keyLock = (key: string) => `sitewalk:test:setting:${key}`;

export async function lockSettings(): Promise<SettingsLock> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query('select pg_advisory_lock(hashtext($1))', [LOCK_KEY]);
  // The stored row of each key before we first touched it (undefined: there was none).
  const original = new Map<string, unknown>();
  return {
    async set(patch) {
      for (const key of Object.keys(patch)) {
        if (original.has(key)) continue;
        // Waits while a file that relies on this key runs (keepSettingsSteady); held until release.
        await client.query('select pg_advisory_lock(hashtext($1))', [keyLock(key)]);
        const row = await db()('settings').where({ key }).first('value');
        original.set(key, row ? row.value : undefined);
      }
      await saveSettings(patch);
    },
    async release() {
      try {
        await db().transaction(async (trx) => {
          for (const [key, value] of original) {
            if (value === undefined) await trx('settings').where({ key }).delete();
            else await trx('settings').insert({ key, value: JSON.stringify(value) }).onConflict('key').merge();
          }
        });
      } finally {
        // Ending the connection also lets go of the keys' locks.
        await client.query('select pg_advisory_unlock(hashtext($1))', [LOCK_KEY]).catch(() => undefined);
        await client.end();
      }
    },
  };
}

/**
 * For the whole test file, keeps `keys` as they are: a file that would change
 * one (lockSettings().set) waits until this one is done, and this one waits
 * for it. Call at the top of a file, e.g. one that signs in with a password;
 * not in a file that holds lockSettings (it already has the settings to itself,
 * and holding both could make two files wait on each other).
 */
export function keepSettingsSteady(...keys: (keyof Settings)[]): void {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  beforeAll(async () => {
    await client.connect();
    for (const key of keys) await client.query('select pg_advisory_lock_shared(hashtext($1))', [keyLock(key)]);
  });
  afterAll(() => client.end());
}
