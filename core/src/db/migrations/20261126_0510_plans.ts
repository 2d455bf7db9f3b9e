import type { Knex } from 'knex';

/**
 * Subscription plans (the catalogue super admins keep), the subscriptions
 * that give a user a plan until a date, the members and pending e-mail
 * invitations of each subscription, the record of expiry notices already
 * sent (so a scan that runs twice tells nobody twice), and project tiers.
 *
 * Tiers are boxes in (area, buildings, floors): area from min_area up to but
 * not including max_area, buildings and floors from min to max inclusive; a
 * missing max is open-ended. The ranges are generated columns and an
 * exclusion constraint keeps any two tiers from overlapping, so a project
 * falls in one tier at most even when two administrators save at once; the
 * constraint's GiST index also serves the tier lookup.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plans', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.decimal('price', 12, 2).notNullable().defaultTo(0);
    t.string('currency', 3).notNullable().defaultTo('USD');
    t.string('period', 10).notNullable().defaultTo('month');
    t.integer('member_slots').notNullable().defaultTo(0);
    // null: no limit.
    t.integer('max_projects').nullable();
    t.integer('max_storage_mb').nullable();
    t.integer('max_video_minutes').nullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamps(true, true);
  });
  await knex.raw('CREATE UNIQUE INDEX plans_name_lower ON plans (lower(name))');
  await knex.raw(`ALTER TABLE plans ADD CONSTRAINT plans_period_check CHECK (period IN ('month', 'year'))`);

  await knex.schema.createTable('plan_subscriptions', (t) => {
    t.increments('id');
    // A plan with subscribers cannot be deleted (the service says so first).
    t.integer('id_plan').notNullable().references('plans.id').onDelete('RESTRICT');
    // One plan per owner.
    t.integer('id_owner').notNullable().unique().references('users.id').onDelete('CASCADE');
    t.date('expires_at').notNullable();
    t.timestamps(true, true);
    t.index(['expires_at']);
    t.index(['id_plan']);
  });

  await knex.schema.createTable('plan_members', (t) => {
    t.increments('id');
    t.integer('id_subscription').notNullable().references('plan_subscriptions.id').onDelete('CASCADE');
    // null while the invitation waits for an account with that e-mail.
    t.integer('id_user').nullable().references('users.id').onDelete('CASCADE');
    t.string('email', 254).notNullable();
    t.string('role', 20).notNullable().defaultTo('member');
    t.string('status', 10).notNullable().defaultTo('invited');
    t.integer('invited_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('joined_at', { useTz: true }).nullable();
  });
  await knex.raw('CREATE UNIQUE INDEX plan_members_subscription_email ON plan_members (id_subscription, lower(email))');
  // A person belongs to one plan at most.
  await knex.raw('CREATE UNIQUE INDEX plan_members_user ON plan_members (id_user) WHERE id_user IS NOT NULL');
  await knex.raw(`ALTER TABLE plan_members ADD CONSTRAINT plan_members_status_check CHECK (status IN ('invited', 'active'))`);
  await knex.raw(`ALTER TABLE plan_members ADD CONSTRAINT plan_members_role_check CHECK (role IN ('member', 'manager'))`);

  // One row per notice sent: (subscription, kind, the expiry date it was about).
  await knex.schema.createTable('plan_notices', (t) => {
    t.integer('id_subscription').notNullable().references('plan_subscriptions.id').onDelete('CASCADE');
    t.string('kind', 20).notNullable();
    t.date('period_end').notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['id_subscription', 'kind', 'period_end']);
  });

  await knex.schema.createTable('project_tiers', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.text('description').notNullable().defaultTo('');
    // What a project of this tier costs per month.
    t.decimal('price', 12, 2).notNullable().defaultTo(0);
    t.string('currency', 3).notNullable().defaultTo('USD');
    t.decimal('min_area', 14, 2).notNullable().defaultTo(0);
    t.decimal('max_area', 14, 2).nullable();
    t.integer('min_buildings').notNullable().defaultTo(0);
    t.integer('max_buildings').nullable();
    t.integer('min_floors').notNullable().defaultTo(0);
    t.integer('max_floors').nullable();
    t.timestamps(true, true);
  });
  await knex.raw('CREATE UNIQUE INDEX project_tiers_name_lower ON project_tiers (lower(name))');
  await knex.raw(`
    ALTER TABLE project_tiers
      ADD CONSTRAINT project_tiers_area_order CHECK (max_area IS NULL OR max_area > min_area),
      ADD CONSTRAINT project_tiers_buildings_order CHECK (max_buildings IS NULL OR max_buildings >= min_buildings),
      ADD CONSTRAINT project_tiers_floors_order CHECK (max_floors IS NULL OR max_floors >= min_floors),
      ADD COLUMN area_r numrange GENERATED ALWAYS AS (numrange(min_area, max_area, '[)')) STORED,
      ADD COLUMN buildings_r int4range GENERATED ALWAYS AS (int4range(min_buildings, max_buildings, '[]')) STORED,
      ADD COLUMN floors_r int4range GENERATED ALWAYS AS (int4range(min_floors, max_floors, '[]')) STORED`);
  await knex.raw(`
    ALTER TABLE project_tiers ADD CONSTRAINT project_tiers_no_overlap
      EXCLUDE USING gist (area_r WITH &&, buildings_r WITH &&, floors_r WITH &&)`);

  // The usage reports read projects by creation month.
  await knex.raw('CREATE INDEX IF NOT EXISTS projects_created_at ON projects (created_at)');

  /*
   * Each project carries the tier its size falls in (id_tier), kept by the
   * database itself so no writer can forget it: set when a project is made or
   * its area, buildings or floors change, and recomputed for every project
   * when tiers change (rare, by administrators). The usage reports then
   * group by a column instead of matching 10,000 sizes against ranges.
   */
  await knex.raw('ALTER TABLE projects ADD COLUMN id_tier integer NULL REFERENCES project_tiers(id) ON DELETE SET NULL');
  await knex.raw('CREATE INDEX projects_id_tier ON projects (id_tier)');
  await knex.raw(`
    CREATE FUNCTION sitewalk_tier_of(area double precision, buildings integer, floors integer) RETURNS integer
    LANGUAGE sql STABLE AS $$
      SELECT t.id FROM project_tiers t
       WHERE area IS NOT NULL AND buildings IS NOT NULL AND floors IS NOT NULL
         AND t.area_r @> area::numeric AND t.buildings_r @> buildings AND t.floors_r @> floors
       LIMIT 1
    $$`);
  await knex.raw(`
    CREATE FUNCTION sitewalk_projects_set_tier() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.id_tier := sitewalk_tier_of(NEW.area, NEW.num_buildings, NEW.num_floors);
      RETURN NEW;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER projects_set_tier BEFORE INSERT OR UPDATE OF area, num_buildings, num_floors ON projects
    FOR EACH ROW EXECUTE FUNCTION sitewalk_projects_set_tier()`);
  await knex.raw(`
    CREATE FUNCTION sitewalk_tiers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE projects p SET id_tier = x.id_tier
        FROM (SELECT id, sitewalk_tier_of(area, num_buildings, num_floors) AS id_tier FROM projects) x
       WHERE x.id = p.id AND p.id_tier IS DISTINCT FROM x.id_tier;
      RETURN NULL;
    END $$`);
  await knex.raw(`
    CREATE TRIGGER project_tiers_changed AFTER INSERT OR UPDATE OR DELETE ON project_tiers
    FOR EACH STATEMENT EXECUTE FUNCTION sitewalk_tiers_changed()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS projects_set_tier ON projects');
  await knex.raw('ALTER TABLE projects DROP COLUMN IF EXISTS id_tier');
  await knex.raw('DROP FUNCTION IF EXISTS sitewalk_projects_set_tier()');
  await knex.raw('DROP FUNCTION IF EXISTS sitewalk_tiers_changed() CASCADE');
  await knex.raw('DROP FUNCTION IF EXISTS sitewalk_tier_of(double precision, integer, integer)');
  await knex.raw('DROP INDEX IF EXISTS projects_created_at');
  await knex.schema.dropTableIfExists('project_tiers');
  await knex.schema.dropTableIfExists('plan_notices');
  await knex.schema.dropTableIfExists('plan_members');
  await knex.schema.dropTableIfExists('plan_subscriptions');
  await knex.schema.dropTableIfExists('plans');
}
