import type { Knex } from 'knex';

/**
 * The design-file cloud (Autodesk Platform Services):
 * - adsk_links: one user's link, Autodesk's tokens sealed (AES-256-GCM,
 *   core/adsk/token-box.ts); a refresh replaces both (refresh tokens are single-use).
 * - adsk_project_links: which SiteWalk project an Autodesk project was
 *   brought into, so a second sync updates it instead of making another.
 * - adsk_imports: every Autodesk file version (or 2D view of one) turned into
 *   sheets, so a rerun skips it; its PDF goes through pdf_uploads like an upload.
 * - adsk_sync_runs: the state of a sync the UI reads (the queue only carries the command).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('adsk_links', (t) => {
    t.integer('id_user').primary().references('users.id').onDelete('CASCADE');
    t.text('access_token').notNullable();
    t.text('refresh_token').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    // SHA-256 of the opaque handle the browser holds in the adsk_access_token cookie.
    t.string('handle_hash', 64).notNullable();
    t.string('scope', 300).notNullable().defaultTo('');
    t.timestamps(true, true);
  });

  await knex.schema.createTable('adsk_project_links', (t) => {
    t.increments('id');
    t.integer('id_project').notNullable().unique().references('projects.id').onDelete('CASCADE');
    t.integer('id_user').notNullable().references('users.id').onDelete('CASCADE');
    t.string('hub_id', 400).notNullable();
    t.string('adsk_project_id', 400).notNullable();
    t.timestamps(true, true);
    // One SiteWalk project per Autodesk project and user: a rerun finds it.
    t.unique(['id_user', 'adsk_project_id']);
  });

  await knex.schema.createTable('adsk_imports', (t) => {
    t.increments('id');
    t.integer('id_project').notNullable().references('projects.id').onDelete('CASCADE');
    t.string('item_id', 400).notNullable();
    t.string('version_id', 400).notNullable();
    // '' for a PDF file; the view's guid for a 2D view of a model.
    t.string('view_guid', 200).notNullable().defaultTo('');
    t.string('name', 255).notNullable().defaultTo('');
    t.integer('id_upload').nullable().references('pdf_uploads.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.unique(['id_project', 'version_id', 'view_guid']);
  });

  await knex.schema.createTable('adsk_sync_runs', (t) => {
    t.increments('id');
    t.integer('id_user').notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 10).notNullable();
    t.string('hub_id', 400).nullable();
    t.string('adsk_project_id', 400).nullable();
    // sync-project into an existing SiteWalk project.
    t.integer('id_project').nullable().references('projects.id').onDelete('SET NULL');
    t.string('status', 20).notNullable().defaultTo('queued');
    t.double('percent').notNullable().defaultTo(0);
    t.text('message').notNullable().defaultTo('');
    t.specificType('project_ids', 'integer[]').notNullable().defaultTo('{}');
    t.integer('files_imported').notNullable().defaultTo(0);
    t.integer('files_skipped').notNullable().defaultTo(0);
    t.text('error').nullable();
    t.timestamps(true, true);
    t.index(['id_user', 'created_at']);
  });
  await knex.raw(`ALTER TABLE adsk_sync_runs ADD CONSTRAINT adsk_sync_runs_status_check CHECK (status IN ('queued', 'running', 'completed', 'failed'))`);
  await knex.raw(`ALTER TABLE adsk_sync_runs ADD CONSTRAINT adsk_sync_runs_kind_check CHECK (kind IN ('hub', 'project'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('adsk_sync_runs');
  await knex.schema.dropTableIfExists('adsk_imports');
  await knex.schema.dropTableIfExists('adsk_project_links');
  await knex.schema.dropTableIfExists('adsk_links');
}
