/**
 * `make start` runs this before the servers: database, migrations, and the
 * first super administrator.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { config } from '@sitewalk/core/config.js';
import { closeDb, db, migrateLatest, User } from '@sitewalk/core/db';
import { hashPassword } from '@sitewalk/core/services/passwords.js';
import { ensureDatabase } from './ensure-database.js';

async function createFirstAdmin(): Promise<void> {
  // Callers hold SETUP_LOCK, so no other setup creates one between this look and the insert.
  const existing = await User.query().where({ super_admin: true }).first();
  if (existing) return;
  const email = process.env.ADMIN_EMAIL || 'admin@sitewalk.local';
  const username = process.env.ADMIN_USERNAME || 'admin';
  const given = process.env.ADMIN_PASSWORD;
  const password = given || crypto.randomBytes(12).toString('base64url');
  await User.query().insert({
    username,
    email: email.toLowerCase(),
    password_hash: await hashPassword(password),
    // No invented name: the dashboard greets the administrator by username until they give theirs.
    super_admin: true,
    active: true,
    email_verified_at: new Date(),
  });
  if (given) {
    console.log(`\nFirst administrator created: ${username} (${email}) with the password from ADMIN_PASSWORD.\n`);
  } else {
    const file = path.join(config.dataDir, 'initial-admin.txt');
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, `username: ${username}\nemail: ${email}\npassword: ${password}\n`, { mode: 0o600 });
    console.log('\n==============================================================');
    console.log(' First administrator created. Sign in with:');
    console.log(`   username: ${username}`);
    console.log(`   password: ${password}`);
    console.log(` (also written to ${path.relative(process.cwd(), file) || file})`);
    console.log(' Change this password after your first sign-in.');
    console.log('==============================================================\n');
  }
}

/** The advisory lock every setup takes for migrations and the first administrator. */
const SETUP_LOCK = 'sitewalk:setup';

/**
 * Runs `work` while holding a session-level Postgres advisory lock on its own
 * connection: two setups started at once (two `make start`) take turns, so the
 * second finds the schema migrated and the administrator made instead of
 * racing to create them.
 */
async function withSetupLock(work: () => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [SETUP_LOCK]);
    await work();
  } finally {
    // Ending the connection releases the lock even if the unlock fails.
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [SETUP_LOCK]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

async function main() {
  await ensureDatabase(config.databaseUrl);
  await withSetupLock(async () => {
    const done = await migrateLatest(db());
    if (done.length) console.log(`Applied ${done.length} migration(s).`);
    await createFirstAdmin();
  });
  await closeDb();
}

main().catch(async (err) => {
  console.error(`Setup failed: ${err instanceof Error ? err.message : String(err)}`);
  await closeDb().catch(() => undefined);
  process.exit(1);
});
