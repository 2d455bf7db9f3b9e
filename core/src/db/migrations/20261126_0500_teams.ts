import type { Knex } from 'knex';

/**
 * Teams: invitations into a project and join requests by project code. The
 * membership table itself (`project_members`, with its role and permissions)
 * came with projects; it gains the time its role or permissions last changed.
 * History rows stay after an answer (status), so a declined request's time
 * drives the cool-down and "pending" is unique per project and person.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('project_members', (t) => {
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await createProjectInvitationsTable(knex);

  await knex.schema.createTable('project_join_requests', (t) => {
    t.increments('id');
    t.integer('id_project').notNullable().references('projects.id').onDelete('CASCADE');
    t.integer('id_user').notNullable().references('users.id').onDelete('CASCADE');
    t.string('status', 12).notNullable().defaultTo('pending');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('decided_at', { useTz: true }).nullable();
    t.integer('id_decided_by').nullable().references('users.id').onDelete('SET NULL');
    t.index(['id_project', 'status']);
    t.index(['id_user', 'created_at']);
  });
  await knex.raw(`ALTER TABLE project_join_requests ADD CONSTRAINT project_join_requests_status_check CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled'))`);
  await knex.raw(`CREATE UNIQUE INDEX project_join_requests_one_pending ON project_join_requests (id_project, id_user) WHERE status = 'pending'`);
}

/**
 * The invitations into a project, as this migration made them; the
 * invitations migration (20261129_0600) makes them again on its way down.
 */
export async function createProjectInvitationsTable(knex: Knex): Promise<void> {
  await knex.schema.createTable('project_invitations', (t) => {
    t.increments('id');
    t.integer('id_project').notNullable().references('projects.id').onDelete('CASCADE');
    // An unknown e-mail gets an inactive account with an invitation link, so an invitation always names a user.
    t.integer('id_user').notNullable().references('users.id').onDelete('CASCADE');
    t.string('role', 30).notNullable();
    t.jsonb('permissions').notNullable().defaultTo('{}');
    t.integer('id_invited_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('status', 12).notNullable().defaultTo('pending');
    // Whether the mail or notification could be queued when it was sent.
    t.boolean('sent').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('responded_at', { useTz: true }).nullable();
    t.index(['id_user', 'status']);
    t.index(['id_project', 'status']);
  });
  await knex.raw(`ALTER TABLE project_invitations ADD CONSTRAINT project_invitations_status_check CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled'))`);
  await knex.raw(`CREATE UNIQUE INDEX project_invitations_one_pending ON project_invitations (id_project, id_user) WHERE status = 'pending'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('project_join_requests');
  await knex.schema.dropTableIfExists('project_invitations');
  await knex.schema.alterTable('project_members', (t) => t.dropColumn('updated_at'));
}
