import type { Knex } from 'knex';

/**
 * Resumable (tus) uploads of walk-through videos. One row per upload the
 * server created: whose it is and for which visit (so HEAD, PATCH and DELETE
 * answer 404 to anyone else), its declared length, and how it ended —
 * 'uploading' while bytes arrive, 'checking' while the finished file is
 * checked by content, 'accepted' once it became the visit's video (exactly
 * once: the state moves in the transaction that makes the video). Rejected
 * and cancelled uploads leave no row; abandoned ones are swept.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('video_uploads', (t) => {
    t.string('id', 64).primary();
    t.integer('id_user').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('id_visit').notNullable().references('visits.id').onDelete('CASCADE');
    t.bigInteger('size_bytes').notNullable();
    t.string('original_name', 255).notNullable().defaultTo('video.mp4');
    t.string('status', 16).notNullable().defaultTo('uploading');
    t.integer('id_video').nullable().references('videos.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['status', 'updated_at']);
  });
  await knex.raw(`ALTER TABLE video_uploads ADD CONSTRAINT video_uploads_status CHECK (status IN ('uploading', 'checking', 'accepted'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('video_uploads');
}
