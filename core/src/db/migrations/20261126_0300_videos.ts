import type { Knex } from 'knex';

/**
 * Walk-through videos of visits (one per visit) and their processing run:
 * the single source of truth of a run's state (the queue only carries
 * commands). Rooms made from a video point back at it, so deleting or
 * replacing the video removes them, and confirming a projection again finds
 * them instead of adding more.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('videos', (t) => {
    t.increments('id');
    // One video per visit: uploading again replaces it (a new row, the old one goes).
    t.integer('id_visit').notNullable().unique().references('visits.id').onDelete('CASCADE');
    t.integer('id_project').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('id_user').nullable().references('users.id').onDelete('SET NULL');
    t.string('original_name', 255).notNullable().defaultTo('');
    t.bigInteger('size_bytes').notNullable().defaultTo(0);
    // Storage folder of the video: source file and everything the steps make (work/).
    t.string('folder', 255).notNullable();
    t.string('file_key', 255).notNullable();
    t.string('codec', 40).notNullable().defaultTo('');
    t.double('duration').notNullable().defaultTo(0);
    t.integer('width').notNullable().defaultTo(0);
    t.integer('height').notNullable().defaultTo(0);
    t.double('fps').notNullable().defaultTo(0);
    t.integer('rotation').notNullable().defaultTo(0);
    t.boolean('is_360').notNullable().defaultTo(false);
    t.timestamps(true, true);
  });

  await knex.schema.createTable('video_runs', (t) => {
    t.integer('id_video').primary().references('videos.id').onDelete('CASCADE');
    // Goes up on each restart; a job of an older generation changes nothing.
    t.integer('generation').notNullable().defaultTo(0);
    t.string('status', 30).notNullable().defaultTo('uploaded');
    t.string('step', 30).nullable();
    t.double('percent').notNullable().defaultTo(0);
    t.text('message').notNullable().defaultTo('');
    t.jsonb('error').nullable();
    t.jsonb('steps').notNullable().defaultTo('{}');
    t.jsonb('artifacts').notNullable().defaultTo('{}');
    t.jsonb('timings').notNullable().defaultTo('{}');
    // Who started the current generation: told of its progress and end.
    t.integer('id_user').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    `ALTER TABLE video_runs ADD CONSTRAINT video_runs_status_check CHECK (status IN ('uploaded', 'queued', 'running', 'needs_projection', 'needs_confirmation', 'completed', 'failed'))`,
  );

  await knex.schema.alterTable('rooms', (t) => {
    t.integer('id_video').nullable().references('videos.id').onDelete('CASCADE');
    // The keyframe of the video this room shows (VideoKeyframe.index).
    t.integer('video_keyframe').nullable();
    t.unique(['id_video', 'video_keyframe']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rooms', (t) => {
    t.dropUnique(['id_video', 'video_keyframe']);
    t.dropForeign(['id_video']);
    t.dropColumn('id_video');
    t.dropColumn('video_keyframe');
  });
  await knex.schema.dropTableIfExists('video_runs');
  await knex.schema.dropTableIfExists('videos');
}
