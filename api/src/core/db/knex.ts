import knexFactory, { type Knex } from 'knex';
import { Model } from 'objection';
import pg from 'pg';
import { config } from '../config.js';

// BIGINT counts (count(*)) come back as strings by default; they fit in a JS number here.
pg.types.setTypeParser(20, (v) => Number(v));

import { MIGRATIONS } from './migrations/index.js';

/** Knex reads the migrations from the static list, never from the disk at run time. */
export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS),
  getMigrationName: (m) => m,
  getMigration: async (m) => MIGRATIONS[m],
};

let instance: Knex | null = null;

/** The one knex instance of this process, bound to Objection models. */
export function db(): Knex {
  if (!instance) {
    instance = knexFactory({
      client: 'pg',
      connection: config.databaseUrl,
      pool: { min: 0, max: Number(process.env.DB_POOL_MAX ?? 10) },
    });
    Model.knex(instance);
  }
  return instance;
}

export async function closeDb(): Promise<void> {
  if (instance) {
    await instance.destroy();
    instance = null;
  }
}

export async function migrateLatest(k: Knex = db()): Promise<string[]> {
  const [, done] = await k.migrate.latest({ migrationSource });
  return done as string[];
}
