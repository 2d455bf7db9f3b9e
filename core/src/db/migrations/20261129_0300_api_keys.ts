import type { Knex } from 'knex';

/**
 * Personal API keys (issue 24 "The open API"). The key itself is shown once
 * and never stored: `prefix` (sw_ and 12 hex digits, unique) finds the row,
 * `key_hash` (SHA-256 of the whole key, which holds 256 random bits) proves
 * it. A revoked key keeps its row (revoked_at) so the owner sees what was
 * ended; it never authenticates again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.increments('id').primary();
    t.integer('id_user').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('scope', 16).notNullable();
    t.string('prefix', 32).notNullable().unique();
    t.string('key_hash', 64).notNullable();
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['id_user']);
  });
  await knex.raw(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_scope CHECK (scope IN ('read', 'read-write'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('api_keys');
}
