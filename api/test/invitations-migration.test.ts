import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import knexFactory, { type Knex } from 'knex';
import { ensureDatabase } from '../src/cli/ensure-database.js';
import { migrationSource } from '@sitewalk/core/db/knex.js';
import * as invitations from '@sitewalk/core/db/migrations/20261129_0600_invitations.js';

/*
 * The migration to one invitation model, on a database of its own (its
 * `down` drops tables the other test files use): up on rows of the old
 * tables, then down back to them.
 */

const MIGRATION = '20261129_0600_invitations';

/** A throw-away database beside this run's test database (ensureDatabase recreates only names ending in _test[_x]). */
function scratchUrl(): string {
  const u = new URL(process.env.DATABASE_URL!);
  const name = u.pathname.slice(1);
  u.pathname = `/${name}${name.endsWith('_test') ? '_' : ''}invitationsmigration`;
  return u.toString();
}

/** What makes a table what it is: columns in order, constraints, indexes, and the sequence behind its id. */
async function shapeOf(k: Knex, table: string) {
  const columns = (
    await k.raw(
      `SELECT column_name, data_type, character_maximum_length, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ? ORDER BY ordinal_position`,
      [table],
    )
  ).rows;
  const constraints = (await k.raw(`SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = ?::regclass ORDER BY conname`, [table])).rows;
  const indexes = (await k.raw(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = ? ORDER BY indexname`, [table])).rows;
  const sequence = (await k.raw(`SELECT pg_get_serial_sequence(?, 'id') AS name`, [table])).rows[0].name;
  return { columns, constraints, indexes, sequence };
}

// Rows as the driver returns them, in id order.
const byId = <R extends { id: number }>(rows: R[]): R[] => [...rows].sort((a, b) => a.id - b.id);

let k: Knex;
let url: string;

beforeAll(async () => {
  url = scratchUrl();
  await ensureDatabase(url, { recreate: true });
  k = knexFactory({ client: 'pg', connection: url });
  // The schema as it stood just before this migration.
  await k.migrate.latest({ migrationSource: { ...migrationSource, getMigrations: async () => (await migrationSource.getMigrations([])).filter((m) => m < MIGRATION) } });
});

afterAll(async () => {
  await k?.destroy();
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const c = knexFactory({ client: 'pg', connection: admin.toString() });
  await c.raw(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
  await c.destroy();
});

describe('the migration to one invitation model', () => {
  it('moves project invitations under their ids and plan invitations under new ones, keeps members, and its down step gives both old tables back', async () => {
    const person = async (name: string) =>
      (await k('users').insert({ username: name, email: `${name}@example.test`, password_hash: 'x' }).returning('id'))[0].id as number;
    const [owner, alice, bob, carol, member] = [await person('owner'), await person('alice'), await person('bob'), await person('carol'), await person('member')];
    const [{ id: project }] = await k('projects').insert({ id_owner: owner, name: 'Tower', project_code: 'TOWER-1' }).returning('id');
    const [{ id: plan }] = await k('plans').insert({ name: 'Team', member_slots: 5 }).returning('id');
    const [{ id: sub }] = await k('plan_subscriptions').insert({ id_plan: plan, id_owner: owner, expires_at: '2099-12-31' }).returning('id');

    // Ids 1 to 3 in both old tables, and a plan row 4 deleted since: none may be shown for another person later.
    const day = (d: number) => new Date(Date.UTC(2026, 10, d, 12));
    await k('project_invitations').insert([
      { id: 1, id_project: project, id_user: alice, role: 'viewer', permissions: '{}', id_invited_by: owner, status: 'pending', sent: true, created_at: day(1) },
      { id: 2, id_project: project, id_user: bob, role: 'project_admin', permissions: '{"manage-team":true}', id_invited_by: owner, status: 'declined', sent: false, created_at: day(2), responded_at: day(3) },
      { id: 3, id_project: project, id_user: carol, role: 'editor', permissions: '{}', id_invited_by: null, status: 'accepted', sent: true, created_at: day(4), responded_at: day(5) },
    ]);
    await k.raw(`SELECT setval('project_invitations_id_seq', 3)`);
    await k('plan_members').insert([
      { id: 1, id_subscription: sub, id_user: member, email: 'member@example.test', role: 'manager', status: 'active', invited_by: owner, created_at: day(1), joined_at: day(2) },
      { id: 2, id_subscription: sub, id_user: null, email: 'Later@Example.test', role: 'member', status: 'invited', invited_by: member, created_at: day(3), joined_at: null },
      { id: 3, id_subscription: sub, id_user: null, email: 'carol@example.test', role: 'member', status: 'invited', invited_by: owner, created_at: day(2), joined_at: null },
    ]);
    await k.raw(`SELECT setval('plan_members_id_seq', 4)`);

    const shapes = { project_invitations: await shapeOf(k, 'project_invitations'), plan_members: await shapeOf(k, 'plan_members') };
    const oldProjectInvitations = byId(await k('project_invitations'));
    const oldMembers = byId(await k('plan_members'));

    await k.transaction((trx) => invitations.up(trx));

    const projectRows = byId(await k('invitations').where({ kind: 'project' }));
    expect(projectRows.map(({ id, id_project, id_user, email, role, permissions, invited_by, status, sent, created_at, responded_at }) => ({ id, id_project, id_user, email, role, permissions, invited_by, status, sent, created_at, responded_at }))).toEqual(
      oldProjectInvitations.map(({ id_invited_by, ...r }) => ({ ...r, email: null, invited_by: id_invited_by })),
    );
    // New ids above every id either old table handed out, in the order the invitations were sent.
    const planRows = byId(await k('invitations').where({ kind: 'plan' }));
    expect(planRows.map((r) => [r.email, r.status, r.id_subscription, r.id_user, r.role, r.invited_by, r.created_at])).toEqual([
      ['carol@example.test', 'pending', sub, null, 'member', owner, day(2)],
      ['Later@Example.test', 'pending', sub, null, 'member', member, day(3)],
    ]);
    expect(planRows[0].id).toBeGreaterThan(4);
    expect(await k('plan_members')).toEqual([oldMembers[0]]);
    // The project invitations keep their ids and fields in the one table.
    expect(byId(await k('invitations').where({ kind: 'project' })).map((r) => [r.id, r.id_project, r.id_user, r.role, r.invited_by, r.status, r.email])).toEqual(
      oldProjectInvitations.map((r) => [r.id, r.id_project, r.id_user, r.role, r.id_invited_by, r.status, null]),
    );
    expect(await k.schema.hasTable('project_invitations')).toBe(false);
    // An invitation made after the move (its id is shown by the API, then it goes).
    const [{ id: shownAfterUp }] = await k('invitations').insert({ kind: 'project', id_project: project, id_user: bob, role: 'viewer', sent: true }).returning('id');
    await k('invitations').where({ id: shownAfterUp }).delete();
    // One pending invitation per target and person; a plan's person is an address, whatever its case.
    await expect(k('invitations').insert({ kind: 'plan', id_subscription: sub, email: 'later@example.TEST', role: 'member' })).rejects.toThrow(/invitations_one_pending_plan/);
    await expect(k('invitations').insert({ kind: 'project', id_project: project, id_user: alice, role: 'viewer' })).rejects.toThrow(/invitations_one_pending_project/);
    // A target of each kind, exactly one, and a project's invitation names an account.
    await expect(k('invitations').insert({ kind: 'plan', id_subscription: sub, id_project: project, email: 'x@example.test', role: 'member' })).rejects.toThrow(/invitations_kind_check/);
    await expect(k('invitations').insert({ kind: 'project', id_project: project, role: 'viewer' })).rejects.toThrow(/invitations_kind_check/);
    // Only members in plan_members now.
    await expect(k('plan_members').insert({ id_subscription: sub, id_user: alice, email: 'alice@example.test', status: 'invited' })).rejects.toThrow(/plan_members_active_check/);
    await expect(k('plan_members').insert({ id_subscription: sub, id_user: null, email: 'nobody@example.test' })).rejects.toThrow(/null value/);

    await k.transaction((trx) => invitations.down(trx));

    expect(await shapeOf(k, 'project_invitations')).toEqual(shapes.project_invitations);
    expect(await shapeOf(k, 'plan_members')).toEqual(shapes.plan_members);
    expect((await k.raw(`SELECT to_regclass('invitations') AS t`)).rows[0].t).toBeNull();
    expect(byId(await k('project_invitations'))).toEqual(oldProjectInvitations);
    // The pending plan invitations come back under the ids the API showed last.
    expect(byId(await k('plan_members'))).toEqual([oldMembers[0], { ...oldMembers[2], id: planRows[0].id }, { ...oldMembers[1], id: planRows[1].id }]);
    // Neither old table hands out an id the API has already shown.
    const [{ id: nextMember }] = await k('plan_members').insert({ id_subscription: sub, email: 'next@example.test' }).returning('id');
    expect(nextMember).toBeGreaterThan(planRows[1].id);
    const [{ id: nextInvitation }] = await k('project_invitations').insert({ id_project: project, id_user: bob, role: 'viewer' }).returning('id');
    expect(nextInvitation).toBeGreaterThan(shownAfterUp);

    // And up again from there.
    await k.transaction((trx) => invitations.up(trx));
    expect(await k('invitations').where({ kind: 'plan', status: 'pending' }).pluck('email')).toEqual(expect.arrayContaining(['carol@example.test', 'Later@Example.test', 'next@example.test']));
  });
});
