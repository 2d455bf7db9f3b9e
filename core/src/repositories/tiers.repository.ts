import type { Tier, TierLookup } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';

/**
 * Every query of project tiers (`project_tiers`, whose range columns carry
 * the exclusion constraint and its GiST index) and of the usage reports over
 * the projects' tiers. The service holds the rules.
 */

const TIER_COLUMNS = 'id, name, description, price, currency, min_area, max_area, min_buildings, max_buildings, min_floors, max_floors, created_at, updated_at';

/** A tier as the driver gives it (numerics as text): the service turns it into the API's Tier. */
export type TierRow = Record<keyof Tier, unknown>;

/** The sizes a tier covers: each range from its minimum to its maximum (null: no maximum). */
export type TierRanges = Pick<Tier, 'min_area' | 'max_area' | 'min_buildings' | 'max_buildings' | 'min_floors' | 'max_floors'>;

/** The SQL condition "tier t covers the size ($area, $buildings, $floors)", written once for every query here. */
export const COVERS = (t: string, area: string, buildings: string, floors: string) =>
  `${t}.area_r @> (${area})::numeric and ${t}.buildings_r @> (${buildings})::int and ${t}.floors_r @> (${floors})::int`;

/** Every tier, smallest sizes first. */
export async function tierRows(k: Db): Promise<TierRow[]> {
  const { rows } = await k.raw(`select ${TIER_COLUMNS} from project_tiers order by min_area, min_buildings, min_floors, id`);
  return rows;
}

export async function tierRowById(k: Db, id: number): Promise<TierRow | undefined> {
  const { rows } = await k.raw(`select ${TIER_COLUMNS} from project_tiers where id = ?`, [id]);
  return rows[0];
}

/** The tier (other than `exceptId`) whose ranges meet these in all three sizes, if any. */
export async function overlappingTier(k: Db, r: TierRanges, exceptId?: number): Promise<{ id: number; name: string } | null> {
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

/** Writes a tier; an overlap (23P01) or a taken name (23505) fails in the database. */
export async function insertTierRow(k: Db, row: object): Promise<number> {
  const [{ id }] = await k('project_tiers').insert(row).returning('id');
  return id;
}

export async function updateTierRow(k: Db, id: number, patch: object): Promise<void> {
  await k('project_tiers').where({ id }).update({ ...patch, updated_at: k.fn.now() });
}

/** Deletes a tier; how many went (0: no such tier). */
export async function deleteTierRow(k: Db, id: number): Promise<number> {
  return await k('project_tiers').where({ id }).delete();
}

/** The tier lookup (three positional bindings: area, buildings, floors); exported for the bench's raw-pg reference. */
export const FIND_SQL = `select ${TIER_COLUMNS} from project_tiers t where ${COVERS('t', '?', '?', '?')} limit 1`;

/** The tier a size falls in. */
export async function tierRowFor(k: Db, size: TierLookup): Promise<TierRow | undefined> {
  const { rows } = await k.raw(FIND_SQL, [size.area, size.num_buildings, size.num_floors]);
  return rows[0];
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

/** Whose projects a report counts: an owner's, or (no owner) everyone's. */
type UsageScope = { owner?: number; before: Date };

/** Projects per tier existing before `before` (of `owner` when given): tier, name, price, projects, area, owners. */
export async function usageMonthRows(k: Db, s: UsageScope): Promise<Record<string, unknown>[]> {
  const { rows } = await k.raw(USAGE_MONTH_SQL(s.owner !== undefined), { before: s.before, ...(s.owner !== undefined ? { owner: s.owner } : {}) });
  return rows;
}

/** Projects, area and cost by the month of `year` they were made in (earlier ones in January), before `before`. */
export async function usageYearRows(k: Db, s: UsageScope & { year: number }): Promise<Record<string, unknown>[]> {
  const { rows } = await k.raw(USAGE_YEAR_SQL(s.owner !== undefined), { before: s.before, ...(s.owner !== undefined ? { owner: s.owner } : {}), first: s.year * 12 });
  return rows;
}
