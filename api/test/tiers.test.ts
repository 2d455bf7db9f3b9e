import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '@sitewalk/core/db';
import { api, createUser, type TestUser } from './helpers.js';
import { newProject } from './project-helpers.js';

// Tiers are one list for the whole site: each test starts from none.
beforeEach(async () => {
  await db()('project_tiers').delete();
});

const tier = (over: Record<string, unknown>) => ({ name: `Tier ${Math.random().toString(36).slice(2, 8)}`, price: 10, ...over });

async function make(admin: TestUser, over: Record<string, unknown>) {
  const res = await api().post('/api/project-tiers').set(admin.auth).send(tier(over));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; name: string };
}

const find = (u: TestUser, area: number, num_buildings: number, num_floors: number) =>
  api().post('/api/project-tiers/find-tier').set(u.auth).send({ area, num_buildings, num_floors });

describe('project tiers', () => {
  it('finds the tier of a size, exactly on an edge too: area up to but not including max, buildings and floors inclusive', async () => {
    const admin = await createUser({ super_admin: true });
    const user = await createUser();
    const small = await make(admin, { name: 'Small', min_area: 0, max_area: 500, min_buildings: 1, max_buildings: 2, min_floors: 1, max_floors: 5 });
    const large = await make(admin, { name: 'Large', price: 25, min_area: 500, max_area: 2000, min_buildings: 1, max_buildings: 2, min_floors: 1, max_floors: 5 });
    const campus = await make(admin, { name: 'Campus', price: 90, min_area: 0, max_area: null, min_buildings: 3, max_buildings: null, min_floors: 0, max_floors: null });

    expect((await find(user, 0, 1, 1)).body.data.id).toBe(small.id);
    expect((await find(user, 499.99, 2, 5)).body.data.id).toBe(small.id);
    // 500 m² is the edge between Small and Large: it belongs to Large only.
    expect((await find(user, 500, 1, 1)).body.data).toMatchObject({ id: large.id, name: 'Large', price: 25, min_area: 500, max_area: 2000 });
    expect((await find(user, 1999.5, 1, 5)).body.data.id).toBe(large.id);
    // Exactly three buildings starts Campus (the upper edge of 1–2 is inclusive, so 2 stays in Small/Large).
    expect((await find(user, 100, 3, 40)).body.data.id).toBe(campus.id);

    const none = await find(user, 2000, 1, 1);
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('No tier covers a project of 2000 m², 1 building(s) and 1 floor(s). Ask an administrator to add one.');
    expect((await find(user, 100, 1, 6)).status).toBe(404);
    expect((await find(user, 100, 0, 1)).status).toBe(404);

    const bad = await api().post('/api/project-tiers/find-tier').set(user.auth).send({ area: -1, num_buildings: 1, num_floors: 1 });
    expect(bad.status).toBe(400);
    expect((await api().post('/api/project-tiers/find-tier').set(user.auth).send({ area: 10, num_buildings: 1.5, num_floors: 1 })).status).toBe(400);
    expect((await api().post('/api/project-tiers/find-tier').send({ area: 10, num_buildings: 1, num_floors: 1 })).status).toBe(401);
  });

  it('refuses overlapping ranges at creation and on update, naming the tier they overlap; touching edges are fine', async () => {
    const admin = await createUser({ super_admin: true });
    const a = await make(admin, { name: 'A', min_area: 0, max_area: 500, min_buildings: 1, max_buildings: 2, min_floors: 1, max_floors: 5 });
    // Meets A at 500 m²: no overlap (A stops before 500).
    const b = await make(admin, { name: 'B', min_area: 500, max_area: 1000, min_buildings: 1, max_buildings: 2, min_floors: 1, max_floors: 5 });
    // Same area as A, next buildings (A ends at 2 inclusive): no overlap.
    await make(admin, { name: 'C', min_area: 0, max_area: 500, min_buildings: 3, max_buildings: 4, min_floors: 1, max_floors: 5 });

    const overlapArea = await api().post('/api/project-tiers').set(admin.auth).send(tier({ name: 'D', min_area: 499, max_area: 501, min_buildings: 5, max_buildings: 6, min_floors: 1, max_floors: 1 }));
    expect(overlapArea.status).toBe(201);
    const clash = await api().post('/api/project-tiers').set(admin.auth).send(tier({ name: 'E', min_area: 400, max_area: 600, min_buildings: 2, max_buildings: 2, min_floors: 5, max_floors: 9 }));
    expect(clash.status).toBe(409);
    expect(clash.body.message).toMatch(/overlap the tier "A"/);
    // Buildings edge inclusive: 2–3 meets A's 1–2 at 2.
    const edge = await api().post('/api/project-tiers').set(admin.auth).send(tier({ name: 'F', min_area: 0, max_area: 100, min_buildings: 2, max_buildings: 3, min_floors: 1, max_floors: 1 }));
    expect(edge.status).toBe(409);
    // Open-ended upper limits overlap everything above them.
    const open = await api().post('/api/project-tiers').set(admin.auth).send(tier({ name: 'G', min_area: 900, max_area: null, min_buildings: 0, max_buildings: null, min_floors: 0, max_floors: null }));
    expect(open.status).toBe(409);
    expect(open.body.message).toMatch(/"B"/);

    const moved = await api().put(`/api/project-tiers/${b.id}`).set(admin.auth).send({ min_area: 450 });
    expect(moved.status).toBe(409);
    expect(moved.body.message).toMatch(/"A"/);
    expect((await api().get(`/api/project-tiers/${b.id}`).set(admin.auth)).body.data.min_area).toBe(500);
    // Its own ranges never count against it.
    expect((await api().put(`/api/project-tiers/${a.id}`).set(admin.auth).send({ max_area: 500, price: 12 })).status).toBe(200);

    const reversed = await api().post('/api/project-tiers').set(admin.auth).send(tier({ min_area: 100, max_area: 50 }));
    expect(reversed.status).toBe(400);
    expect(reversed.body.message).toBe('The area limit must be larger than the smallest area.');
    const reversedOnUpdate = await api().put(`/api/project-tiers/${a.id}`).set(admin.auth).send({ min_area: 800 });
    expect(reversedOnUpdate.status).toBe(400);
    const dupName = await api().post('/api/project-tiers').set(admin.auth).send(tier({ name: 'a', min_area: 50_000, max_area: 60_000 }));
    expect(dupName.status).toBe(409);
    expect(dupName.body.message).toBe('A tier named "a" already exists.');
  });

  it('refuses the administrator calls to everyone else: 401 signed out, 403 signed in', async () => {
    const admin = await createUser({ super_admin: true });
    const user = await createUser();
    const t = await make(admin, { min_area: 0, max_area: 10 });
    const calls = [
      () => api().post('/api/project-tiers').send(tier({})),
      () => api().put(`/api/project-tiers/${t.id}`).send({ price: 1 }),
      () => api().delete(`/api/project-tiers/${t.id}`),
      () => api().get('/api/project-tiers/admin/stats'),
      () => api().get('/api/plans'),
      () => api().post('/api/plans').send({ name: 'X', price: 1, period: 'month', member_slots: 1 }),
      () => api().get('/api/plans/1'),
      () => api().put('/api/plans/1').send({ price: 2 }),
      () => api().delete('/api/plans/1'),
      () => api().post('/api/plans/1/subscriptions').send({ user: 'x', expires_at: '2030-01-01' }),
      () => api().put('/api/plan-subscriptions/1').send({ expires_at: '2030-01-01' }),
      () => api().delete('/api/plan-subscriptions/1'),
    ];
    for (const call of calls) {
      expect((await call()).status).toBe(401);
      const asUser = await call().set(user.auth);
      expect(asUser.status).toBe(403);
      expect(asUser.body.message).toBe('Only administrators can do this.');
    }
    // Reading the tiers is for every signed-in user.
    expect((await api().get('/api/project-tiers').set(user.auth)).body.data.map((x: { id: number }) => x.id)).toEqual([t.id]);
    expect((await api().get(`/api/project-tiers/${t.id}`).set(user.auth)).status).toBe(200);
    expect((await api().get('/api/project-tiers/999999').set(user.auth)).status).toBe(404);
    expect((await api().delete(`/api/project-tiers/${t.id}`).set(admin.auth)).status).toBe(200);
  });

  it('check-upgrade warns when an edit moves a project into a dearer tier, for those who may change it only', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const outsider = await createUser();
    await make(admin, { name: 'Low', price: 10, min_area: 0, max_area: 500, min_buildings: 1, max_buildings: 2, min_floors: 1, max_floors: 5 });
    await make(admin, { name: 'High', price: 30, min_area: 500, max_area: 5000, min_buildings: 1, max_buildings: 2, min_floors: 1, max_floors: 5 });
    const p = await newProject(owner, { area: 300, num_buildings: 1, num_floors: 2 });
    const check = (u: TestUser, body: Record<string, unknown>) => api().post('/api/project-tiers/check-upgrade').set(u.auth).send({ project_id: p.id, ...body });

    const up = await check(owner, { area: 800, num_buildings: 1, num_floors: 2 });
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ upgrade: true, current_tier: { name: 'Low' }, new_tier: { name: 'High' } });
    expect(up.body.data.message).toBe('This change moves the project from the tier "Low" into the higher tier "High" (30 USD per month).');
    const same = await check(owner, { area: 499, num_buildings: 2, num_floors: 5 });
    expect(same.body.data).toMatchObject({ upgrade: false, message: 'The project stays in the tier "Low".' });
    const none = await check(owner, { area: 9000, num_buildings: 1, num_floors: 1 });
    expect(none.body.data).toMatchObject({ upgrade: false, new_tier: null });
    expect(none.body.data.message).toMatch(/^No tier covers/);
    expect((await check(owner, { area: null, num_buildings: null, num_floors: null })).body.data.upgrade).toBe(false);

    expect((await check(outsider, { area: 800, num_buildings: 1, num_floors: 2 })).status).toBe(404);
    expect((await check(owner, { area: 'big', num_buildings: 1, num_floors: 2 })).status).toBe(400);
    expect((await api().post('/api/project-tiers/check-upgrade').set(owner.auth).send({ project_id: 999999, area: 1, num_buildings: 1, num_floors: 1 })).status).toBe(404);
  });

  it('reports usage per tier for the month and the year, own projects for users, every project in the admin stats', async () => {
    const admin = await createUser({ super_admin: true });
    const me = await createUser();
    const other = await createUser();
    const low = await make(admin, { name: 'Low', price: 10, min_area: 0, max_area: 500, min_buildings: 1, max_buildings: 9, min_floors: 1, max_floors: 9 });
    const high = await make(admin, { name: 'High', price: 30, min_area: 500, max_area: null, min_buildings: 1, max_buildings: 9, min_floors: 1, max_floors: 9 });
    // Other tests' projects are in the site-wide stats too: compare before and after.
    const lowStatsOf = async () =>
      ((await api().get('/api/project-tiers/admin/stats').set(admin.auth)).body.data.rows.find((r: { id_tier: number }) => r.id_tier === low.id) ?? { projects: 0, monthly_revenue: 0 }) as {
        projects: number;
        monthly_revenue: number;
      };
    const statsBefore = await lowStatsOf();
    await newProject(me, { area: 100, num_buildings: 1, num_floors: 1 });
    await newProject(me, { area: 200, num_buildings: 1, num_floors: 1 });
    await newProject(me, { area: 1000, num_buildings: 1, num_floors: 1 });
    await newProject(me, {});
    await newProject(other, { area: 50, num_buildings: 1, num_floors: 1 });
    const now = new Date();
    const year = now.getUTCFullYear();
    const month = now.getUTCMonth() + 1;

    const current = await api().get(`/api/project-tiers/usage/current?year=${year}&month=${month}`).set(me.auth);
    expect(current.status).toBe(200);
    const byTier = Object.fromEntries(current.body.data.rows.map((r: { id_tier: number | null }) => [String(r.id_tier), r]));
    expect(byTier[String(low.id)]).toMatchObject({ name: 'Low', projects: 2, area: 300, cost: 20 });
    expect(byTier[String(high.id)]).toMatchObject({ name: 'High', projects: 1, area: 1000, cost: 30 });
    expect(byTier.null).toMatchObject({ projects: 1, cost: 0 });
    expect(current.body.data.total).toEqual({ projects: 4, area: 1300, cost: 50 });
    // A month before any of these projects existed.
    const before = await api().get(`/api/project-tiers/usage/current?year=${year - 1}&month=1`).set(me.auth);
    expect(before.body.data.total.projects).toBe(0);

    const yearly = await api().get(`/api/project-tiers/usage/yearly?year=${year}`).set(me.auth);
    expect(yearly.status).toBe(200);
    expect(yearly.body.data.months).toHaveLength(12);
    expect(yearly.body.data.months[month - 1]).toMatchObject({ month, projects: 4, cost: 50 });
    if (month > 1) expect(yearly.body.data.months[month - 2].projects).toBe(0);
    if (month < 12) expect(yearly.body.data.months[11]).toMatchObject({ projects: 4, cost: 50 });

    const statsAfter = await lowStatsOf();
    expect(statsAfter.projects - statsBefore.projects).toBe(3);
    expect(statsAfter.monthly_revenue - statsBefore.monthly_revenue).toBe(30);

    // Changing a tier moves the projects it no longer covers (kept by the database for every project).
    expect((await api().put(`/api/project-tiers/${low.id}`).set(admin.auth).send({ max_area: 150 })).status).toBe(200);
    const after = (await api().get(`/api/project-tiers/usage/current?year=${year}&month=${month}`).set(me.auth)).body.data.rows;
    expect(after.find((r: { id_tier: number | null }) => r.id_tier === low.id)).toMatchObject({ projects: 1, area: 100, cost: 10 });
    expect(after.find((r: { id_tier: number | null }) => r.id_tier === null)).toMatchObject({ projects: 2 });
    expect((await api().delete(`/api/project-tiers/${high.id}`).set(admin.auth)).status).toBe(200);
    const noHigh = (await api().get(`/api/project-tiers/usage/current?year=${year}&month=${month}`).set(me.auth)).body.data.rows;
    expect(noHigh.find((r: { id_tier: number | null }) => r.id_tier === null)).toMatchObject({ projects: 3 });

    expect((await api().get('/api/project-tiers/usage/current?month=13').set(me.auth)).status).toBe(400);
    expect((await api().get('/api/project-tiers/usage/yearly?year=abc').set(me.auth)).status).toBe(400);
    expect((await api().get('/api/project-tiers/usage/yearly?year=2026&x=1').set(me.auth)).status).toBe(400);
  });
});
