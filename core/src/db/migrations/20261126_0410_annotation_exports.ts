import type { Knex } from 'knex';

/**
 * Snag-list exports (one row per requested PDF, CSV or BCF file: the state
 * the screen reads, the queue is only the transport) and the daily overdue
 * reminders already sent (one per person per day, whatever runs the job).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('annotation_exports', (t) => {
    t.increments('id');
    t.integer('id_user').notNullable().references('users.id').onDelete('CASCADE');
    t.string('format', 10).notNullable();
    // The filters of GET /annotations as validated when it was asked for.
    t.jsonb('filters').notNullable().defaultTo('{}');
    t.string('status', 20).notNullable().defaultTo('queued');
    t.integer('percent').notNullable().defaultTo(0);
    t.text('message').notNullable().defaultTo('');
    t.integer('total').nullable();
    t.string('file_key', 255).nullable();
    t.string('file_name', 255).nullable();
    t.bigInteger('size_bytes').nullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.timestamps(true, true);
    t.index(['id_user', 'status']);
    t.index(['finished_at']);
  });
  await knex.raw(`ALTER TABLE annotation_exports ADD CONSTRAINT annotation_exports_format_check CHECK (format IN ('pdf', 'csv', 'bcf'))`);
  await knex.raw(
    `ALTER TABLE annotation_exports ADD CONSTRAINT annotation_exports_status_check CHECK (status IN ('queued', 'processing', 'completed', 'failed'))`,
  );

  await knex.schema.createTable('annotation_reminders', (t) => {
    t.integer('id_user').notNullable().references('users.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.integer('snags').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['id_user', 'day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('annotation_reminders');
  await knex.schema.dropTableIfExists('annotation_exports');
}
