/**
 * `make start` runs this before the servers: database, migrations, and the
 * first super administrator.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import argon2 from 'argon2';
import { config } from '../core/config.js';
import { closeDb, db, migrateLatest, User } from '../core/db/index.js';
import { ensureDatabase } from './ensure-database.js';

async function createFirstAdmin(): Promise<void> {
  const existing = await User.query().where({ super_admin: true }).first();
  if (existing) return;
  const email = process.env.ADMIN_EMAIL || 'admin@sitewalk.local';
  const username = process.env.ADMIN_USERNAME || 'admin';
  const given = process.env.ADMIN_PASSWORD;
  const password = given || crypto.randomBytes(12).toString('base64url');
  await User.query().insert({
    username,
    email: email.toLowerCase(),
    password_hash: await argon2.hash(password, { type: argon2.argon2id }),
    first_name: 'Site',
    last_name: 'Administrator',
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

async function main() {
  await ensureDatabase(config.databaseUrl);
  const done = await migrateLatest(db());
  if (done.length) console.log(`Applied ${done.length} migration(s).`);
  await createFirstAdmin();
  await closeDb();
}

main().catch(async (err) => {
  console.error(`Setup failed: ${err instanceof Error ? err.message : String(err)}`);
  await closeDb().catch(() => undefined);
  process.exit(1);
});
