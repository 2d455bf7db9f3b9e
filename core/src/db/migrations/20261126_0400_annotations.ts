import type { Knex } from 'knex';

/**
 * The snag list: annotations pinned in a room's 360 view and/or on a sheet,
 * the files attached to them (uploaded per visit under server-chosen names,
 * then named by a snag), and the history of who changed what, when.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('annotations', (t) => {
    t.increments('id');
    t.integer('id_project').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('id_visit').notNullable().references('visits.id').onDelete('CASCADE');
    // The pin survives its room or sheet going away; it just stops being shown there.
    t.integer('id_room').nullable().references('rooms.id').onDelete('SET NULL');
    t.double('yaw').nullable();
    t.double('pitch').nullable();
    t.double('zoom').nullable();
    t.integer('id_map').nullable().references('maps.id').onDelete('SET NULL');
    t.double('x').nullable();
    t.double('y').nullable();
    t.string('title', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('status', 20).notNullable().defaultTo('open');
    t.string('priority', 10).notNullable().defaultTo('medium');
    t.integer('id_assignee').nullable().references('users.id').onDelete('SET NULL');
    t.date('due_date').nullable();
    t.integer('id_author').nullable().references('users.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.index(['id_project', 'status']);
    t.index(['id_visit', 'id_room']);
    t.index(['id_map']);
    t.index(['id_assignee', 'status']);
    t.index(['due_date']);
  });
  await knex.raw(
    `ALTER TABLE annotations ADD CONSTRAINT annotations_status_check CHECK (status IN ('open', 'in_progress', 'ready_for_review', 'closed', 'rejected'))`,
  );
  await knex.raw(`ALTER TABLE annotations ADD CONSTRAINT annotations_priority_check CHECK (priority IN ('low', 'medium', 'high', 'critical'))`);

  await knex.schema.createTable('annotation_files', (t) => {
    t.increments('id');
    t.integer('id_visit').notNullable().references('visits.id').onDelete('CASCADE');
    // Null until a snag names it (an upload made while the snag is being written).
    t.integer('id_annotation').nullable().references('annotations.id').onDelete('SET NULL');
    // The server-chosen name (uuid.ext) the client uses as the handle.
    t.string('filename', 64).notNullable().unique();
    t.string('file_key', 255).notNullable();
    t.string('original_name', 255).notNullable();
    t.string('mime', 100).notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.integer('id_user').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['id_annotation']);
    t.index(['id_visit']);
  });

  await knex.schema.createTable('annotation_history', (t) => {
    t.increments('id');
    t.integer('id_annotation').notNullable().references('annotations.id').onDelete('CASCADE');
    t.integer('id_user').nullable().references('users.id').onDelete('SET NULL');
    t.string('action', 20).notNullable();
    // [{field, from, to}]
    t.jsonb('changes').notNullable().defaultTo('[]');
    t.text('comment').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['id_annotation', 'created_at']);
  });
  await knex.raw(
    `ALTER TABLE annotation_history ADD CONSTRAINT annotation_history_action_check CHECK (action IN ('created', 'updated', 'comment', 'file_added', 'file_removed'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('annotation_history');
  await knex.schema.dropTableIfExists('annotation_files');
  await knex.schema.dropTableIfExists('annotations');
}
