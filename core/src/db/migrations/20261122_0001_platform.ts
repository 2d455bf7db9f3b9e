import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id');
    t.string('username', 50).notNullable();
    t.string('email', 254).notNullable();
    t.string('password_hash', 255).notNullable();
    for (const f of ['first_name', 'last_name', 'company', 'tax_id', 'street', 'city', 'postal_code', 'province', 'country', 'tel']) {
      t.string(f, 200).notNullable().defaultTo('');
    }
    t.string('avatar', 255).nullable();
    t.string('cover_image', 255).nullable();
    t.boolean('super_admin').notNullable().defaultTo(false);
    t.string('role', 30).notNullable().defaultTo('guest');
    t.boolean('adsk_auth').notNullable().defaultTo(false);
    t.string('language', 5).notNullable().defaultTo('en');
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('email_verified_at', { useTz: true }).nullable();
    t.timestamps(true, true);
  });
  // Usernames and e-mails are unique whatever their case.
  await knex.raw('CREATE UNIQUE INDEX users_username_lower ON users (lower(username))');
  await knex.raw('CREATE UNIQUE INDEX users_email_lower ON users (lower(email))');

  await knex.schema.createTable('sessions', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.boolean('remember').notNullable().defaultTo(false);
    t.string('ip', 64).nullable();
    t.string('user_agent', 300).nullable();
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });

  // One-time tokens: password reset, account activation, invitations.
  await knex.schema.createTable('user_tokens', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('purpose', 30).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'purpose']);
  });

  await knex.schema.createTable('settings', (t) => {
    t.string('key', 100).primary();
    t.jsonb('value').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('notifications', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 60).notNullable().defaultTo('account');
    t.string('title', 200).notNullable();
    t.text('message').notNullable().defaultTo('');
    t.string('type', 20).notNullable().defaultTo('info');
    t.text('link').nullable();
    t.boolean('is_read').notNullable().defaultTo(false);
    // The job that made it: a retried job finds its notification instead of adding another.
    t.string('dedupe_key', 200).nullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'is_read']);
  });

  await knex.schema.createTable('notification_preferences', (t) => {
    t.increments('id');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 60).notNullable();
    t.boolean('in_app').notNullable().defaultTo(true);
    t.boolean('email').notNullable().defaultTo(true);
    t.unique(['user_id', 'kind']);
  });

  await knex.schema.createTable('notification_global_settings', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.boolean('in_app').notNullable().defaultTo(true);
    t.boolean('email').notNullable().defaultTo(true);
    t.boolean('browser').notNullable().defaultTo(true);
  });

  // Mails already handed to the SMTP server, so a retried job never sends twice.
  await knex.schema.createTable('sent_mails', (t) => {
    t.string('job_key', 200).primary();
    t.string('to', 254).notNullable();
    t.string('subject', 300).notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['sent_mails', 'notification_global_settings', 'notification_preferences', 'notifications', 'settings', 'user_tokens', 'sessions', 'users']) {
    await knex.schema.dropTableIfExists(t);
  }
}
