import type { Knex } from 'knex';

/**
 * A resumable upload received straight into the bucket (when files are kept
 * in one): the key its bytes go to (the video's own key), the bucket's
 * multipart upload that holds them, and how many bytes the bucket holds in
 * whole parts — the offset any API machine answers a resuming client with.
 * Null key: the upload grows on the receiving machine's disk (tus file store).
 * Each part the bucket took is kept with its ETag, which joining the parts
 * needs (not every S3-compatible server lists an upload's parts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('video_uploads', (t) => {
    t.string('bucket_key', 512).nullable();
    t.string('bucket_upload_id', 1024).nullable();
    t.bigInteger('stored_bytes').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('video_upload_parts', (t) => {
    t.string('id_upload', 64).notNullable().references('video_uploads.id').onDelete('CASCADE');
    t.integer('part_number').notNullable();
    t.string('etag', 256).notNullable();
    t.primary(['id_upload', 'part_number']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('video_upload_parts');
  await knex.schema.alterTable('video_uploads', (t) => {
    t.dropColumn('bucket_key');
    t.dropColumn('bucket_upload_id');
    t.dropColumn('stored_bytes');
  });
}
