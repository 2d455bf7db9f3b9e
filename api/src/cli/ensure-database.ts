import pg from 'pg';

/**
 * Creates the database named in the URL when it does not exist yet, by
 * connecting to the server's maintenance database.
 */
export async function ensureDatabase(url: string, opts: { recreate?: boolean } = {}): Promise<void> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Database name "${name}" must use letters, digits and underscores.`);
  // Only throw-away databases of tests and benches are ever dropped, whatever the caller says.
  if (opts.recreate && !/_(test|bench)(_[a-z0-9]+)?$/.test(name)) {
    throw new Error(`Refusing to recreate "${name}": only databases whose names end in _test or _bench are recreated.`);
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    if (opts.recreate) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${name}"`).catch((err: { code?: string }) => {
        // Another process created it between the look and here (two setups at once): that is fine.
        // 42P04 duplicate_database; 23505 when both inserted into pg_database at the same moment.
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
    }
  } finally {
    await client.end();
  }
}
