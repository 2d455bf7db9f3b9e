import type { Knex } from 'knex';

/**
 * Projects, their sheets (table `maps`, as the API paths call them), the PDF
 * uploads that make sheets, categories, project types, stars and the
 * membership table the team feature fills. Foreign keys are named id_* like
 * the payload fields of SPEC §3 so rows and answers read the same.
 */
export async function up(knex: Knex): Promise<void> {
  // Managed by super admins; a project keeps no type when its type is deleted.
  await knex.schema.createTable('project_types', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.timestamps(true, true);
  });
  await knex.raw('CREATE UNIQUE INDEX project_types_name_lower ON project_types (lower(name))');

  await knex.schema.createTable('projects', (t) => {
    t.increments('id');
    t.integer('id_owner').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('client_name', 200).notNullable().defaultTo('');
    t.string('street', 200).notNullable().defaultTo('');
    t.string('city', 200).notNullable().defaultTo('');
    t.string('postal_code', 30).notNullable().defaultTo('');
    t.string('province', 200).notNullable().defaultTo('');
    t.string('country', 200).notNullable().defaultTo('');
    t.double('latitude').nullable();
    t.double('longitude').nullable();
    t.date('start_date').nullable();
    t.date('end_date').nullable();
    t.double('area').nullable();
    t.integer('num_buildings').nullable();
    t.integer('num_floors').nullable();
    t.integer('id_project_type').nullable().references('project_types.id').onDelete('SET NULL');
    // Storage keys of the cover (large) and its card-sized copy.
    t.string('cover', 255).nullable();
    t.string('cover_thumb', 255).nullable();
    // Public handle of the showcase: random, URL-safe, never reused.
    t.string('project_code', 64).notNullable().unique();
    t.boolean('active').notNullable().defaultTo(true);
    // false = awaiting approval by a super admin.
    t.boolean('validated').notNullable().defaultTo(false);
    t.timestamp('validated_at', { useTz: true }).nullable();
    t.integer('validated_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.index(['id_owner', 'updated_at']);
    t.index(['validated', 'active']);
  });

  // Filled by the team feature; read by every access check.
  await knex.schema.createTable('project_members', (t) => {
    t.increments('id');
    t.integer('id_project').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('id_user').notNullable().references('users.id').onDelete('CASCADE');
    // 'editor' may add and edit sheets; anything else reads only.
    t.string('role', 30).notNullable().defaultTo('viewer');
    t.jsonb('permissions').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['id_project', 'id_user']);
    t.index(['id_user']);
  });

  await knex.schema.createTable('project_stars', (t) => {
    t.integer('id_user').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('id_project').notNullable().references('projects.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['id_user', 'id_project']);
  });

  await knex.schema.createTable('categories', (t) => {
    t.increments('id');
    t.integer('id_owner').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.timestamps(true, true);
  });
  await knex.raw('CREATE UNIQUE INDEX categories_owner_name_lower ON categories (id_owner, lower(name))');

  await knex.schema.createTable('project_categories', (t) => {
    t.integer('id_project').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('id_category').notNullable().references('categories.id').onDelete('CASCADE');
    t.primary(['id_project', 'id_category']);
    t.index(['id_category']);
  });

  // The state of one PDF-to-sheets job: the row the UI reads; the queue only carries it.
  await knex.schema.createTable('pdf_uploads', (t) => {
    t.increments('id');
    t.integer('id_project').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('id_user').nullable().references('users.id').onDelete('SET NULL');
    t.string('file_key', 255).nullable();
    t.string('original_name', 255).notNullable().defaultTo('');
    t.bigInteger('size_bytes').notNullable().defaultTo(0);
    t.string('status', 20).notNullable().defaultTo('queued');
    t.integer('pages_total').nullable();
    t.integer('pages_done').notNullable().defaultTo(0);
    t.text('error').nullable();
    t.specificType('sheet_ids', 'integer[]').notNullable().defaultTo('{}');
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.timestamps(true, true);
    t.index(['id_project', 'created_at']);
  });
  await knex.raw(`ALTER TABLE pdf_uploads ADD CONSTRAINT pdf_uploads_status_check CHECK (status IN ('queued', 'processing', 'done', 'failed'))`);

  await knex.schema.createTable('maps', (t) => {
    t.increments('id');
    t.integer('id_project').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('name', 200).notNullable();
    t.string('page_label', 100).notNullable().defaultTo('');
    // Set for sheets made from a PDF: one sheet per (upload, page), so a rerun never duplicates.
    t.integer('id_upload').nullable().references('pdf_uploads.id').onDelete('SET NULL');
    t.integer('page').nullable();
    t.string('status', 20).notNullable().defaultTo('empty');
    t.integer('width').nullable();
    t.integer('height').nullable();
    t.integer('dpi').nullable();
    t.integer('tile_size').nullable();
    t.integer('max_zoom').nullable();
    // Storage folder holding tiles/ and the thumbnail of this sheet.
    t.string('folder', 255).nullable();
    t.string('thumbnail', 255).nullable();
    t.timestamps(true, true);
    t.unique(['id_upload', 'page']);
    t.index(['id_project']);
  });
  await knex.raw(`ALTER TABLE maps ADD CONSTRAINT maps_status_check CHECK (status IN ('empty', 'processing', 'ready'))`);

  // Rooms arrive with visits; this is the part a sheet needs: where a room sits on it.
  await knex.schema.createTable('rooms', (t) => {
    t.increments('id');
    t.integer('id_map').nullable().references('maps.id').onDelete('SET NULL');
    t.integer('id_visit').nullable();
    t.string('name', 200).notNullable().defaultTo('');
    t.double('x').nullable();
    t.double('y').nullable();
    t.integer('osfm_cluster').nullable();
    t.timestamps(true, true);
    t.index(['id_map']);
    t.index(['id_visit']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['rooms', 'maps', 'pdf_uploads', 'project_categories', 'categories', 'project_stars', 'project_members', 'projects', 'project_types']) {
    await knex.schema.dropTableIfExists(t);
  }
}
