import type { Knex } from 'knex';

/**
 * Two-factor sign-in (issue 24 item 1). One row per account that started
 * enrolment: the TOTP secret sealed with the crypto box (never in clear),
 * when it was confirmed (null while enrolment waits for its first code), and
 * the last time step a code was accepted for, so a code is never taken twice.
 * Recovery codes are stored only as argon2 hashes, each used at most once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('two_factor', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.text('secret_sealed').notNullable();
    t.timestamp('enabled_at', { useTz: true }).nullable();
    t.bigInteger('last_used_step').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('two_factor_recovery_codes', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('code_hash').notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('two_factor_recovery_codes');
  await knex.schema.dropTableIfExists('two_factor');
}
