import type { Knex } from 'knex';

/**
 * Notifications as message keys with parameters (issue 25): a new
 * notification keeps the keys of its title and message and the values put
 * into them, so each reader sees it in their language (the list, the live
 * push, the e-mail). title and message still hold a rendering, for rows
 * written before and for whatever reads the table directly; older rows have
 * no keys and keep their text.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notifications', (t) => {
    t.text('title_key').nullable();
    t.text('message_key').nullable();
    t.jsonb('params').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('notifications', (t) => {
    t.dropColumn('params');
    t.dropColumn('message_key');
    t.dropColumn('title_key');
  });
}
