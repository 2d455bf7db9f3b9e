import type { Knex } from 'knex';

/**
 * Social sign-in (issue 24):
 * - user_identities: an account of Google, Facebook or X linked to a SiteWalk
 *   account, by the service's stable subject id (never by e-mail, which can change).
 * - users.password_set: false for an account made through a service, which
 *   has only an unusable password; its last service may not be unlinked.
 *   A trigger turns it true whenever the password changes (reset, change,
 *   activation), so no path that sets a password can forget it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_identities', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('provider', 20).notNullable();
    t.string('subject', 255).notNullable();
    t.string('email', 254).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.unique(['provider', 'subject']);
    t.unique(['user_id', 'provider']);
  });
  await knex.schema.alterTable('users', (t) => {
    t.boolean('password_set').notNullable().defaultTo(true);
  });
  await knex.raw(`
    CREATE FUNCTION users_password_set() RETURNS trigger AS $$
    BEGIN
      NEW.password_set := true;
      RETURN NEW;
    END $$ LANGUAGE plpgsql;
    CREATE TRIGGER users_password_set BEFORE UPDATE OF password_hash ON users
      FOR EACH ROW WHEN (NEW.password_hash IS DISTINCT FROM OLD.password_hash) EXECUTE FUNCTION users_password_set();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS users_password_set ON users; DROP FUNCTION IF EXISTS users_password_set();');
  await knex.schema.alterTable('users', (t) => t.dropColumn('password_set'));
  await knex.schema.dropTableIfExists('user_identities');
}
