import {
  noTierMessage,
  tierRangeProblem,
  type CheckUpgradeRequest,
  type Tier,
  type TierAdminStats,
  type TierCreateRequest,
  type TierLookup,
  type TierUpdateRequest,
  type TierUsageMonth,
  type TierUsageRow,
  type TierUsageYear,
  type UpgradeCheck,
} from '@sitewalk/proto';
import { db } from '../db/index.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { requireProject } from './access.service.js';
import type { Actor } from './actor.js';
import { type Db } from '../db/query-types.js';

/**
 * Project tiers: CRUD (super admins; routes check), the lookup of the tier a
 * size falls in, the warning before an edit moves a project up a tier, and
 * the usage reports. No two tiers overlap (the table's exclusion constraint,
 * checked here first to name the clashing tier), so a size has one tier or
 * none. The lookups use the constraint's GiST index on the range columns.
 */

const TIER_COLUMNS = 'id, name, description, price, currency, min_area, max_area, min_buildings, max_buildings, min_floors, max_floors, created_at, updated_at';

type TierRow = Record<keyof Tier, unknown>;
const n = (v: unknown) => (v == null ? null : Number(v));

export const tierDto = (r: TierRow): Tier => ({
  id: r.id as number,
  name: r.name as string,
  description: r.description as string,
  price: Number(r.price),
  currency: r.currency as string,
  min_area: Number(r.min_area),
  max_area: n(r.max_area),
  min_buildings: r.min_buildings as number,
  max_buildings: n(r.max_buildings),
  min_floors: r.min_floors as number,
  max_floors: n(r.max_floors),
  created_at: new Date(r.created_at as Date).toISOString(),
  updated_at: new Date(r.updated_at as Date).toISOString(),
});

/** The SQL condition "tier t covers the size ($area, $buildings, $floors)", written once for every query here. */
export const COVERS = (t: string, area: string, buildings: string, floors: string) =>
  `${t}.area_r @> (${area})::numeric and ${t}.buildings_r @> (${buildings})::int and ${t}.floors_r @> (${floors})::int`;

const isCode = (err: unknown, code: string) =>
  (err as { code?: string }).code === code || (err as { nativeError?: { code?: string } }).nativeError?.code === code;

export async function listTiers(): Promise<Tier[]> {
  const { rows } = await db().raw(`select ${TIER_COLUMNS} from project_tiers order by min_area, min_buildings, min_floors, id`);
  return rows.map(tierDto);
}

async function tierOrNotFound(k: Db, id: number): Promise<Tier> {
  const { rows } = await k.raw(`select ${TIER_COLUMNS} from project_tiers where id = ?`, [id]);
  if (!rows.length) throw notFound('Tier not found.');
  return tierDto(rows[0]);
}

export const getTier = (id: number) => tierOrNotFound(db(), id);

type Ranges = Pick<Tier, 'min_area' | 'max_area' | 'min_buildings' | 'max_buildings' | 'min_floors' | 'max_floors'>;

const describe = (t: Ranges) => {
  const span = (min: number, max: number | null, unit: string, open: boolean) =>
    max == null ? `${min}+ ${unit}` : open ? `${min}–${max} ${unit} (not including ${max})` : `${min}–${max} ${unit}`;
  return `${span(t.min_area, t.max_area, 'm²', true)}, ${span(t.min_buildings, t.max_buildings, 'buildings', false)}, ${span(t.min_floors, t.max_floors, 'floors', false)}`;
};

/** The tier (other than `exceptId`) whose ranges meet these in all three sizes, if any. */
async function overlapping(k: Db, r: Ranges, exceptId?: number): Promise<{ id: number; name: string } | null> {
  const { rows } = await k.raw(
    `select id, name from project_tiers
      where area_r && numrange(?::numeric, ?::numeric, '[)')
        and buildings_r && int4range(?::int, ?::int, '[]')
        and floors_r && int4range(?::int, ?::int, '[]')
        and id <> ?
      order by id limit 1`,
    [r.min_area, r.max_area, r.min_buildings, r.max_buildings, r.min_floors, r.max_floors, exceptId ?? 0],
  );
  return rows[0] ?? null;
}

const overlapMessage = (r: Ranges, other: { name: string }) =>
  `These ranges (${describe(r)}) overlap the tier "${other.name}". Tiers may not overlap: change the area, buildings or floors so a project falls in one tier only.`;

/** Writes a tier, turning the database's refusals into sentences (overlap, duplicate name, bad order). */
async function writeTier<T>(k: Db, r: Ranges, name: string | undefined, exceptId: number | undefined, write: () => Promise<T>): Promise<T> {
  const problem = tierRangeProblem(r);
  if (problem) throw badRequest(problem);
  const other = await overlapping(k, r, exceptId);
  if (other) throw conflict(overlapMessage(r, other));
  try {
    return await write();
  } catch (err) {
    // Another administrator saved an overlapping tier in the meantime.
    if (isCode(err, '23P01')) {
      const clash = await overlapping(db(), r, exceptId);
      throw conflict(overlapMessage(r, clash ?? { name: 'another tier' }));
    }
    if (isCode(err, '23505')) throw conflict(`A tier named "${name ?? ''}" already exists.`);
    throw err;
  }
}

const rangesOf = (t: Partial<Ranges>, base?: Ranges): Ranges => ({
  min_area: t.min_area ?? base?.min_area ?? 0,
  max_area: t.max_area !== undefined ? t.max_area : (base?.max_area ?? null),
  min_buildings: t.min_buildings ?? base?.min_buildings ?? 0,
  max_buildings: t.max_buildings !== undefined ? t.max_buildings : (base?.max_buildings ?? null),
  min_floors: t.min_floors ?? base?.min_floors ?? 0,
  max_floors: t.max_floors !== undefined ? t.max_floors : (base?.max_floors ?? null),
});

export async function createTier(input: TierCreateRequest & { currency?: string }): Promise<Tier> {
  const k = db();
  const ranges = rangesOf(input);
  const [{ id }] = await writeTier(k, ranges, input.name, undefined, () => k('project_tiers').insert({ ...input, ...ranges }).returning('id'));
  return tierOrNotFound(k, id);
}

export async function updateTier(id: number, patch: TierUpdateRequest & { currency?: string }): Promise<Tier> {
  const k = db();
  const before = await tierOrNotFound(k, id);
  const ranges = rangesOf(patch, before);
  await writeTier(k, ranges, patch.name, id, () => k('project_tiers').where({ id }).update({ ...patch, updated_at: k.fn.now() }));
  return tierOrNotFound(k, id);
}

export async function deleteTier(id: number): Promise<{ id: number }> {
  const count = await db()('project_tiers').where({ id }).delete();
  if (!count) throw notFound('Tier not found.');
  return { id };
}

/** The tier lookup (three positional bindings: area, buildings, floors); exported for the bench's raw-pg reference. */
export const FIND_SQL = `select ${TIER_COLUMNS} from project_tiers t where ${COVERS('t', '?', '?', '?')} limit 1`;

/** The tier a size falls in, or null. */
export async function tierFor(k: Db, size: TierLookup): Promise<Tier | null> {
  const { rows } = await k.raw(FIND_SQL, [size.area, size.num_buildings, size.num_floors]);
  return rows.length ? tierDto(rows[0]) : null;
}

/** POST /project-tiers/find-tier: the tier, or 404 saying that no tier covers the size. */
export async function findTier(size: TierLookup): Promise<Tier> {
  const tier = await tierFor(db(), size);
  if (!tier) throw notFound(noTierMessage(size));
  return tier;
}

const sizeOf = (s: { area: number | null; num_buildings: number | null; num_floors: number | null }): TierLookup | null =>
  s.area == null || s.num_buildings == null || s.num_floors == null ? null : { area: s.area, num_buildings: s.num_buildings, num_floors: s.num_floors };

/** Which of two tiers costs more (price, then the larger sizes): positive when `b` is above `a`. */
const rank = (t: Tier | null) => (t ? [t.price, t.min_area, t.min_buildings, t.min_floors] : [-1, -1, -1, -1]);
const compareTiers = (a: Tier | null, b: Tier | null) => {
  const ra = rank(a);
  const rb = rank(b);
  for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return rb[i] - ra[i];
  return 0;
};

/**
 * POST /project-tiers/check-upgrade: the tier the project is in now and the
 * one the edited size would put it in, and whether that is a dearer tier.
 * Only those who may change the project may ask (404 / 403 otherwise).
 */
export async function checkUpgrade(user: Actor, input: CheckUpgradeRequest): Promise<UpgradeCheck> {
  const k = db();
  const { project } = await requireProject(user, input.project_id, 'manage');
  const nowSize = sizeOf({ area: project.area == null ? null : Number(project.area), num_buildings: project.num_buildings, num_floors: project.num_floors });
  const newSize = sizeOf({ area: input.area ?? null, num_buildings: input.num_buildings ?? null, num_floors: input.num_floors ?? null });
  const [current, next] = await Promise.all([nowSize ? tierFor(k, nowSize) : null, newSize ? tierFor(k, newSize) : null]);
  const same = current?.id === next?.id;
  const upgrade = !same && !!next && compareTiers(current, next) > 0;
  let message: string;
  if (same) message = next ? `The project stays in the tier "${next.name}".` : 'The project is not in any tier.';
  else if (!next) message = newSize ? noTierMessage(newSize) : 'Without an area, buildings and floors the project is in no tier.';
  else if (upgrade)
    message = `This change moves the project ${current ? `from the tier "${current.name}" ` : ''}into the higher tier "${next.name}" (${next.price} ${next.currency} per month).`;
  else message = `This change moves the project into the tier "${next.name}" (${next.price} ${next.currency} per month).`;
  return { current_tier: current, new_tier: next, upgrade, message };
}

// ---- Usage ----

/**
 * The active projects (the caller's own, or all for a super admin) created
 * before :before, with the tier the database keeps on each (projects.id_tier,
 * see the plans migration). Aggregated first, then joined to the few tiers.
 */
const PROJECTS_IN_SCOPE = (ownerFilter: boolean) => `
  from projects p where p.active and p.created_at < :before ${ownerFilter ? 'and p.id_owner = :owner' : ''}`;

/** Projects per tier existing before :before (and owned by :owner when filtered). */
export const USAGE_MONTH_SQL = (ownerFilter: boolean) => `
  select x.id_tier, t.name as tier_name, coalesce(t.price, 0) as price, x.projects, x.area, x.owners
    from (select p.id_tier, count(*)::int as projects, coalesce(sum(p.area), 0)::float8 as area, count(distinct p.id_owner)::int as owners
            ${PROJECTS_IN_SCOPE(ownerFilter)} group by p.id_tier) x
    left join project_tiers t on t.id = x.id_tier
   order by coalesce(t.price, 0), x.id_tier nulls first`;

/** Projects, area and cost by the month they were made (:first = year × 12; earlier ones count as January). */
export const USAGE_YEAR_SQL = (ownerFilter: boolean) => `
  select x.month, sum(x.projects)::int as projects, sum(x.area)::float8 as area, sum(x.projects * coalesce(t.price, 0))::float8 as cost
    from (select greatest(extract(year from p.created_at at time zone 'UTC')::int * 12 + extract(month from p.created_at at time zone 'UTC')::int - 1, :first) - :first + 1 as month,
                 p.id_tier, count(*)::int as projects, coalesce(sum(p.area), 0)::float8 as area
            ${PROJECTS_IN_SCOPE(ownerFilter)} group by 1, 2) x
    left join project_tiers t on t.id = x.id_tier
   group by x.month order by x.month`;

const scope = (user: Actor) => ({ ownerFilter: !user.super_admin, owner: user.id });

/** The first instant of a month (UTC), month 13 being January of the next year. */
const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month - 1, 1));

export async function usageCurrent(user: Actor, year: number, month: number): Promise<TierUsageMonth> {
  const s = scope(user);
  const { rows } = await db().raw(USAGE_MONTH_SQL(s.ownerFilter), { before: monthStart(year, month + 1), owner: s.owner });
  const out: TierUsageRow[] = rows.map((r: Record<string, unknown>) => ({
    id_tier: n(r.id_tier),
    name: (r.tier_name as string) ?? null,
    price: Number(r.price),
    projects: Number(r.projects),
    area: Number(r.area),
    cost: Math.round(Number(r.price) * Number(r.projects) * 100) / 100,
  }));
  const total = out.reduce((a, r) => ({ projects: a.projects + r.projects, area: a.area + r.area, cost: Math.round((a.cost + r.cost) * 100) / 100 }), { projects: 0, area: 0, cost: 0 });
  return { year, month, rows: out, total };
}

/**
 * Month by month: what the projects existing at each month's end cost. One
 * pass groups the projects by the month they were made (earlier ones count
 * from January); a running sum gives each month.
 */
export async function usageYearly(user: Actor, year: number): Promise<TierUsageYear> {
  const s = scope(user);
  const { rows } = await db().raw(USAGE_YEAR_SQL(s.ownerFilter), { before: monthStart(year + 1, 1), owner: s.owner, first: year * 12 });
  const months = Array.from({ length: 12 }, (_, i) => ({ month: i + 1, projects: 0, area: 0, cost: 0 }));
  const added = new Map<number, { projects: number; area: number; cost: number }>(rows.map((r: Record<string, unknown>) => [Number(r.month), { projects: Number(r.projects), area: Number(r.area), cost: Number(r.cost) }]));
  let run = { projects: 0, area: 0, cost: 0 };
  for (const m of months) {
    const a = added.get(m.month);
    if (a) run = { projects: run.projects + a.projects, area: run.area + a.area, cost: run.cost + a.cost };
    Object.assign(m, { projects: run.projects, area: run.area, cost: Math.round(run.cost * 100) / 100 });
  }
  return { year, months, total_cost: Math.round(months.reduce((a, m) => a + m.cost, 0) * 100) / 100 };
}

/** GET /project-tiers/admin/stats: every active project per tier today, with owners and monthly revenue. */
export async function adminStats(): Promise<TierAdminStats> {
  const { rows } = await db().raw(USAGE_MONTH_SQL(false), { before: new Date(Date.now() + 60_000) });
  const out = rows.map((r: Record<string, unknown>) => ({
    id_tier: n(r.id_tier),
    name: (r.tier_name as string) ?? null,
    price: Number(r.price),
    projects: Number(r.projects),
    area: Number(r.area),
    owners: Number(r.owners),
    monthly_revenue: Math.round(Number(r.price) * Number(r.projects) * 100) / 100,
  }));
  return {
    rows: out,
    total_projects: out.reduce((a: number, r: { projects: number }) => a + r.projects, 0),
    total_monthly_revenue: Math.round(out.reduce((a: number, r: { monthly_revenue: number }) => a + r.monthly_revenue, 0) * 100) / 100,
  };
}
