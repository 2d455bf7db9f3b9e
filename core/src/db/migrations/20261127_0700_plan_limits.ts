import type { Knex } from 'knex';

/**
 * Plan limits and invited accounts.
 *
 * - `projects.cover_bytes`: what the stored cover and its card copy take, so
 *   a plan's storage counts covers (covers stored before this count 0 until
 *   they are replaced).
 * - `users.invited_at`: set on the inactive account an invitation to an
 *   unknown e-mail makes, so such accounts can expire and be removed when
 *   nobody ever activates them. Accounts made that way before this are
 *   recognised by their generated username and never having been activated.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('projects', (t) => {
    t.bigInteger('cover_bytes').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('invited_at', { useTz: true }).nullable();
  });
  await knex.raw(`UPDATE users SET invited_at = created_at WHERE username LIKE 'invited-%' AND NOT active AND email_verified_at IS NULL`);
  await knex.raw('CREATE INDEX users_invited_at ON users (invited_at) WHERE invited_at IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS users_invited_at');
  await knex.schema.alterTable('users', (t) => t.dropColumn('invited_at'));
  await knex.schema.alterTable('projects', (t) => t.dropColumn('cover_bytes'));
}
