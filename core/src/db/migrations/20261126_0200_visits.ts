import type { Knex } from 'knex';

/**
 * Visits (dated 360° tours of a project), their stars, and what rooms need
 * beyond a place on a sheet: the visit they belong to, their order, the
 * uploaded photo and the tiles the room.tiles worker makes of it, hotspots
 * linking rooms, and points of interest inside a room.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('visits', (t) => {
    t.increments('id');
    t.integer('id_project').notNullable().references('projects.id').onDelete('CASCADE');
    // The sheet the visit walks; the visit stays when the sheet is deleted.
    t.integer('id_map').nullable().references('maps.id').onDelete('SET NULL');
    t.integer('id_user').nullable().references('users.id').onDelete('SET NULL');
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.date('date').notNullable();
    // Public handle of the viewer: random, URL-safe, never reused.
    t.string('code', 64).notNullable().unique();
    t.timestamps(true, true);
    t.index(['id_project', 'date']);
    t.index(['id_map']);
  });

  await knex.schema.createTable('visit_stars', (t) => {
    t.integer('id_user').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('id_visit').notNullable().references('visits.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['id_user', 'id_visit']);
  });

  // Rooms made before visits existed point at no visit; they cannot be shown anywhere.
  await knex('rooms').whereNotNull('id_visit').whereNotExists(knex('visits').select(knex.raw('1')).whereRaw('visits.id = rooms.id_visit')).update({ id_visit: null });
  await knex.schema.alterTable('rooms', (t) => {
    t.foreign('id_visit').references('visits.id').onDelete('CASCADE');
    t.integer('id_user').nullable().references('users.id').onDelete('SET NULL');
    t.integer('position').notNullable().defaultTo(0);
    t.string('status', 20).notNullable().defaultTo('queued');
    t.text('error').nullable();
    t.string('original_name', 255).notNullable().defaultTo('');
    t.bigInteger('size_bytes').notNullable().defaultTo(0);
    t.integer('width').nullable();
    t.integer('height').nullable();
    // Storage key of the uploaded photo (kept so tiles can be made again).
    t.string('file_key', 255).nullable();
    // Storage folder of the current tiles, base image and thumbnail; each run writes a new one.
    t.string('folder', 255).nullable();
    t.integer('tile_size').nullable();
    t.jsonb('levels').nullable();
    t.integer('pano_width').nullable();
    t.double('heading').nullable();
  });
  await knex.raw(`ALTER TABLE rooms ADD CONSTRAINT rooms_status_check CHECK (status IN ('queued', 'processing', 'ready', 'failed'))`);
  // Rooms made before visits had no photo to process: they are as ready as they will get.
  await knex('rooms').update({ status: 'ready' });
  await knex.raw('CREATE INDEX rooms_visit_position ON rooms (id_visit, position, id)');

  await knex.schema.createTable('room_hotspots', (t) => {
    t.increments('id');
    t.integer('id_room').notNullable().references('rooms.id').onDelete('CASCADE');
    t.integer('id_room_target').notNullable().references('rooms.id').onDelete('CASCADE');
    t.double('yaw').notNullable();
    t.double('pitch').notNullable();
    t.timestamps(true, true);
    t.unique(['id_room', 'id_room_target']);
    t.index(['id_room_target']);
  });
  await knex.raw('ALTER TABLE room_hotspots ADD CONSTRAINT room_hotspots_not_self CHECK (id_room <> id_room_target)');

  await knex.schema.createTable('pois', (t) => {
    t.increments('id');
    t.integer('id_room').notNullable().references('rooms.id').onDelete('CASCADE');
    t.integer('id_user').nullable().references('users.id').onDelete('SET NULL');
    t.string('title', 200).notNullable();
    t.text('text').notNullable().defaultTo('');
    t.string('link', 2000).notNullable().defaultTo('');
    t.double('yaw').notNullable();
    t.double('pitch').notNullable();
    t.string('file_key', 255).nullable();
    t.string('file_name', 255).nullable();
    t.string('file_mime', 100).nullable();
    t.bigInteger('file_size').nullable();
    t.timestamps(true, true);
    t.index(['id_room']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('pois');
  await knex.schema.dropTableIfExists('room_hotspots');
  await knex.raw('DROP INDEX IF EXISTS rooms_visit_position');
  await knex.raw('ALTER TABLE rooms DROP CONSTRAINT IF EXISTS rooms_status_check');
  await knex.schema.alterTable('rooms', (t) => {
    t.dropForeign(['id_visit']);
    for (const c of ['id_user', 'position', 'status', 'error', 'original_name', 'size_bytes', 'width', 'height', 'file_key', 'folder', 'tile_size', 'levels', 'pano_width', 'heading']) t.dropColumn(c);
  });
  await knex.schema.dropTableIfExists('visit_stars');
  await knex.schema.dropTableIfExists('visits');
}
