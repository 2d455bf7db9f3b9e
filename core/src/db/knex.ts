import knexFactory, { type Knex } from 'knex';
import { Model } from 'objection';
import pg from 'pg';
import { config } from '../config.js';
import { logger } from '../logger.js';
import { createLogThrottle } from '../log-throttle.js';

// BIGINT counts (count(*)) come back as strings by default; they fit in a JS number here.
pg.types.setTypeParser(20, (v) => Number(v));

import { MIGRATIONS } from './migrations/index.js';

/** Knex reads the migrations from the static list, never from the disk at run time. */
export const migrationSource: Knex.MigrationSource<string> = {
  // By name (their time stamps), whatever order the list was written in.
  getMigrations: async () => Object.keys(MIGRATIONS).sort(),
  getMigrationName: (m) => m,
  getMigration: async (m) => MIGRATIONS[m],
};

let instance: Knex | null = null;

// While the database restarts knex warns once per failed connection attempt: one line per kind per 10 s.
const knexLog = createLogThrottle(10_000);
const throttled = (level: 'warn' | 'error') => (message: unknown) => {
  const text = String(message instanceof Error ? message.message : message);
  const t = knexLog.hit(text.split('\n')[0].slice(0, 160));
  if (t.log) logger[level]({ source: 'knex', suppressed: t.suppressed }, text.split('\n')[0]);
};

const envInt = (name: string, fallback: number): number => {
  const v = process.env[name];
  return v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : fallback;
};

/** The one knex instance of this process, bound to Objection models. */
export function db(): Knex {
  if (!instance) {
    instance = knexFactory({
      client: 'pg',
      connection: {
        connectionString: config.databaseUrl,
        // A server that does not accept the connection within 5 s is away: fail (503) rather than hang.
        connectionTimeoutMillis: envInt('DB_CONNECT_TIMEOUT_MS', 5_000),
        // Finds a connection whose server vanished without closing it (a network cut) instead of waiting on it for ever.
        keepAlive: true,
      },
      pool: { min: 0, max: envInt('DB_POOL_MAX', 10) },
      // Every connection busy for this long means the database cannot keep up: answer 503 well before
      // the 30 s request limit (knex's default is 60 s). Connections that PostgreSQL closed (a restart)
      // are dropped by knex when it next hands them out, so the pool heals by itself.
      acquireConnectionTimeout: envInt('DB_ACQUIRE_TIMEOUT_MS', 10_000),
      // knex would print its connection warnings with their stacks to the console, once per attempt.
      log: { warn: throttled('warn'), error: throttled('error'), deprecate: throttled('warn'), debug: () => undefined },
    });
    Model.knex(instance);
  }
  return instance;
}

type PooledClient = Knex.Client & { acquireConnection(): Promise<pg.Client>; releaseConnection(c: pg.Client): Promise<unknown> };

/**
 * Runs one named prepared statement on a connection of this process's pool,
 * for the few statements every request makes (the session of a bearer token,
 * a page of notifications): PostgreSQL parses and plans each once per
 * connection, and no query builder, runner or model hydration runs per call.
 * Same pool, limits and 503-on-outage as every other query. `name` must be
 * unique to `text`.
 */
export async function preparedQuery<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]> {
  const client = db().client as PooledClient;
  const connection: pg.Client = await client.acquireConnection();
  try {
    // The callback form, not pg's promise form: measured under load (bench/api-bench.ts's pause counts, --trace-gc-nvp),
    // the promise form's results outlived the young generation's collections, about 1 MB promoted at each, which made
    // every scavenge twice as long and the old generation fill; with the callback form nearly nothing is promoted.
    return await new Promise<R[]>((resolve, reject) => {
      connection.query<R>({ name, text, values }, (err: Error | null, result: pg.QueryResult<R>) => (err ? reject(err) : resolve(result.rows)));
    });
  } finally {
    await client.releaseConnection(connection);
  }
}

/** Whether PostgreSQL answers (GET /api/health). */
export async function pingDatabase(): Promise<void> {
  await db().raw('select 1');
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
