import type { Knex } from 'knex';
import { createProjectInvitationsTable } from './20261126_0500_teams.js';

/**
 * One invitation model for a project's team and a subscription plan: the
 * table `invitations` takes the rows of `project_invitations` and the
 * pending rows of `plan_members` (status "invited"); `plan_members` keeps
 * only the people who joined.
 *
 * - A project invitation names an account (an unknown e-mail gets an
 *   inactive one first), so it has id_user and no e-mail of its own; a plan
 *   invitation names an address, and id_user is the account that answered.
 * - Project invitations keep their ids: the API calls them by id
 *   (POST /users/invitations/accept/{id}).
 * - A plan invitation and the membership it becomes are one id in the API
 *   (POST /plan-members/{id}/accept, then GET/PUT/DELETE /plan-members/{id}),
 *   so plan invitations and plan members draw their ids from one sequence,
 *   that of `invitations`, and a member takes the id of the invitation it
 *   accepted. The pending plan invitations get new ids above every id either
 *   old table has handed out, so none can be taken for another person's.
 * - `plan_members.status` stays (only "active" now) so readers that filter
 *   on it keep working.
 *
 * `down` makes both old tables again with every row the old model can hold:
 * the pending plan invitations go back to `plan_members` with the ids the
 * API showed last; answered plan invitations, which the old model deleted,
 * go.
 */

const PERSON_AND_TARGET = `
  (kind = 'project' AND id_project IS NOT NULL AND id_subscription IS NULL AND id_user IS NOT NULL AND email IS NULL)
  OR (kind = 'plan' AND id_subscription IS NOT NULL AND id_project IS NULL AND email IS NOT NULL)`;

/** The highest id a sequence has handed out (0 when none). */
const lastOf = (sequence: string) => `(SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${sequence})`;

/** Sets a sequence so its next id comes after `highest` (an SQL expression; 0: start at 1). */
const continueAfter = (knex: Knex, sequence: string, highest: string) =>
  knex.raw(`SELECT setval('${sequence}', greatest(${highest}, 1), (${highest}) >= 1)`);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invitations', (t) => {
    t.increments('id');
    t.string('kind', 10).notNullable();
    t.integer('id_project').nullable().references('projects.id').onDelete('CASCADE');
    t.integer('id_subscription').nullable().references('plan_subscriptions.id').onDelete('CASCADE');
    t.integer('id_user').nullable().references('users.id').onDelete('CASCADE');
    t.string('email', 254).nullable();
    t.string('role', 30).notNullable();
    t.jsonb('permissions').notNullable().defaultTo('{}');
    t.integer('invited_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('status', 12).notNullable().defaultTo('pending');
    // Whether the mail or notification could be queued when it was sent.
    t.boolean('sent').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('responded_at', { useTz: true }).nullable();
    t.index(['id_user', 'status']);
    t.index(['id_project', 'status']);
    t.index(['id_subscription', 'status']);
  });
  await knex.raw(`ALTER TABLE invitations ADD CONSTRAINT invitations_kind_check CHECK (${PERSON_AND_TARGET})`);
  await knex.raw(`ALTER TABLE invitations ADD CONSTRAINT invitations_status_check CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled'))`);
  // One pending invitation per target and person: an account for a project, an address for a plan.
  await knex.raw(`CREATE UNIQUE INDEX invitations_one_pending_project ON invitations (id_project, id_user) WHERE status = 'pending' AND kind = 'project'`);
  await knex.raw(`CREATE UNIQUE INDEX invitations_one_pending_plan ON invitations (id_subscription, lower(email)) WHERE status = 'pending' AND kind = 'plan'`);
  // A signed-in user's plan invitations are found by their address.
  await knex.raw(`CREATE INDEX invitations_pending_plan_email ON invitations (lower(email)) WHERE status = 'pending' AND kind = 'plan'`);

  await knex.raw(`
    INSERT INTO invitations (id, kind, id_project, id_user, role, permissions, invited_by, status, sent, created_at, responded_at)
    SELECT id, 'project', id_project, id_user, role, permissions, id_invited_by, status, sent, created_at, responded_at FROM project_invitations`);
  await continueAfter(
    knex,
    'invitations_id_seq',
    `greatest(${lastOf('project_invitations_id_seq')}, ${lastOf('plan_members_id_seq')}, (SELECT coalesce(max(id), 0) FROM project_invitations), (SELECT coalesce(max(id), 0) FROM plan_members))`,
  );
  // Whether these were mailed was never recorded: not claimed.
  await knex.raw(`
    INSERT INTO invitations (kind, id_subscription, id_user, email, role, invited_by, status, sent, created_at)
    SELECT 'plan', id_subscription, id_user, email, role, invited_by, 'pending', false, created_at
      FROM plan_members WHERE status = 'invited' ORDER BY created_at, id`);

  await knex.raw(`DELETE FROM plan_members WHERE status = 'invited'`);
  await knex.raw(`
    ALTER TABLE plan_members
      DROP CONSTRAINT plan_members_status_check,
      ADD CONSTRAINT plan_members_active_check CHECK (status = 'active'),
      ALTER COLUMN status SET DEFAULT 'active',
      ALTER COLUMN id_user SET NOT NULL,
      ALTER COLUMN id SET DEFAULT nextval('invitations_id_seq')`);

  await knex.schema.dropTable('project_invitations');
}

export async function down(knex: Knex): Promise<void> {
  await createProjectInvitationsTable(knex);
  await knex.raw(`
    INSERT INTO project_invitations (id, id_project, id_user, role, permissions, id_invited_by, status, sent, created_at, responded_at)
    SELECT id, id_project, id_user, role, permissions, invited_by, status, sent, created_at, responded_at FROM invitations WHERE kind = 'project'`);

  await knex.raw(`
    ALTER TABLE plan_members
      ALTER COLUMN id SET DEFAULT nextval('plan_members_id_seq'::regclass),
      ALTER COLUMN id_user DROP NOT NULL,
      ALTER COLUMN status SET DEFAULT 'invited',
      DROP CONSTRAINT plan_members_active_check,
      ADD CONSTRAINT plan_members_status_check CHECK (status IN ('invited', 'active'))`);
  await knex.raw(`
    INSERT INTO plan_members (id, id_subscription, id_user, email, role, status, invited_by, created_at, joined_at)
    SELECT id, id_subscription, id_user, email, role, 'invited', invited_by, created_at, NULL
      FROM invitations WHERE kind = 'plan' AND status = 'pending'`);

  // Neither old table hands out an id the API has already shown.
  const highest = `greatest(${lastOf('invitations_id_seq')}, ${lastOf('plan_members_id_seq')})`;
  await continueAfter(knex, 'project_invitations_id_seq', highest);
  await continueAfter(knex, 'plan_members_id_seq', highest);
  await knex.schema.dropTable('invitations');
}
