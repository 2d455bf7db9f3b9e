import fs from 'node:fs';
import { Redis } from 'ioredis';
import knexFactory from 'knex';
import { ensureDatabase } from '../api/src/cli/ensure-database.js';
import { migrationSource } from '@sitewalk/core/db/knex.js';
import { startS3StandIn } from './support/s3-stand-in.js';

/** Once per run: a fresh test database at the latest schema, and no stale test keys in Redis. */
export default async function setup() {
  const url = process.env.DATABASE_URL!;
  // Per-engineer test databases (sitewalk_test_b) count too.
  if (!/_test(_[a-z0-9]+)?$/.test(new URL(url).pathname)) throw new Error(`Refusing to reset ${url}: test databases end in _test or _test_<letter>.`);
  await ensureDatabase(url, { recreate: true });
  const k = knexFactory({ client: 'pg', connection: url });
  await k.migrate.latest({ migrationSource });
  await k.destroy();

  const prefix = process.env.REDIS_PREFIX!;
  const r = new Redis(process.env.REDIS_URL!);
  // Exactly this prefix's keys and its test files' sub-prefixes (`prefix.name`,
  // see workers/test/helpers.ts), BullMQ's hash-tagged ones too — never those of
  // a longer prefix such as sitewalk-test-b that another run may be using.
  for (const pattern of [`${prefix}:*`, `{${prefix}}:*`, `${prefix}.*`, `{${prefix}.*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  }
  await r.quit();
  fs.rmSync(process.env.DATA_DIR!, { recursive: true, force: true });

  // STORAGE_DRIVER=s3 with no S3_ENDPOINT: the storage tests run on a local S3-compatible
  // server started here (the test processes inherit its S3_* variables).
  if (process.env.STORAGE_DRIVER === 's3' && !process.env.S3_ENDPOINT) {
    const s3 = await startS3StandIn(`${process.env.DATA_DIR}-s3`);
    Object.assign(process.env, s3.env);
    return async () => {
      await s3.close();
      fs.rmSync(`${process.env.DATA_DIR}-s3`, { recursive: true, force: true });
    };
  }
}
