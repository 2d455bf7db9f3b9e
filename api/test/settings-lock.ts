import pg from 'pg';
import type { Settings } from '@sitewalk/proto';
import { db } from '../src/core/db/index.js';
import { saveSettings } from '../src/core/services/settings.service.js';

/**
 * Settings are global, and test files run in parallel. A file that needs
 * particular settings (registration open, SMTP pointing at its sink) holds
 * this Postgres advisory lock while it runs, so no other such file changes
 * them underneath; on release the touched keys get their old values back.
 */
export interface SettingsLock {
  set(patch: Partial<Settings>): Promise<void>;
  release(): Promise<void>;
}

const LOCK_KEY = 'sitewalk:test:settings';

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
        await client.query('select pg_advisory_unlock(hashtext($1))', [LOCK_KEY]).catch(() => undefined);
        await client.end();
      }
    },
  };
}
