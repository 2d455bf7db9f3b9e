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
import { isPgError } from '../db/query-types.js';
import {
  deleteTierRow,
  insertTierRow,
  overlappingTier,
  tierRowById,
  tierRowFor,
  tierRows,
  updateTierRow,
  usageMonthRows,
  usageYearRows,
  type TierRanges,
  type TierRow,
} from '../repositories/tiers.repository.js';

/**
 * Project tiers: CRUD (super admins; routes check), the lookup of the tier a
 * size falls in, the warning before an edit moves a project up a tier, and
 * the usage reports. No two tiers overlap (the table's exclusion constraint,
 * checked here first to name the clashing tier), so a size has one tier or
 * none. The lookups use the constraint's GiST index on the range columns.
 */

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

export async function listTiers(): Promise<Tier[]> {
  return (await tierRows(db())).map(tierDto);
}

async function tierOrNotFound(id: number): Promise<Tier> {
  const row = await tierRowById(db(), id);
  if (!row) throw notFound('Tier not found.');
  return tierDto(row);
}

export const getTier = (id: number) => tierOrNotFound(id);

type Ranges = TierRanges;

const describe = (t: Ranges) => {
  const span = (min: number, max: number | null, unit: string, open: boolean) =>
    max == null ? `${min}+ ${unit}` : open ? `${min}–${max} ${unit} (not including ${max})` : `${min}–${max} ${unit}`;
  return `${span(t.min_area, t.max_area, 'm²', true)}, ${span(t.min_buildings, t.max_buildings, 'buildings', false)}, ${span(t.min_floors, t.max_floors, 'floors', false)}`;
};

const overlapMessage = (r: Ranges, other: { name: string }) =>
  `These ranges (${describe(r)}) overlap the tier "${other.name}". Tiers may not overlap: change the area, buildings or floors so a project falls in one tier only.`;

/** Writes a tier, turning the database's refusals into sentences (overlap, duplicate name, bad order). */
async function writeTier<T>(r: Ranges, name: string | undefined, exceptId: number | undefined, write: () => Promise<T>): Promise<T> {
  const problem = tierRangeProblem(r);
  if (problem) throw badRequest(problem);
  const other = await overlappingTier(db(), r, exceptId);
  if (other) throw conflict(overlapMessage(r, other));
  try {
    return await write();
  } catch (err) {
    // Another administrator saved an overlapping tier in the meantime.
    if (isPgError(err, '23P01')) {
      const clash = await overlappingTier(db(), r, exceptId);
      throw conflict(overlapMessage(r, clash ?? { name: 'another tier' }));
    }
    if (isPgError(err, '23505')) throw conflict(`A tier named "${name ?? ''}" already exists.`);
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
  const ranges = rangesOf(input);
  const id = await writeTier(ranges, input.name, undefined, () => insertTierRow(db(), { ...input, ...ranges }));
  return tierOrNotFound(id);
}

export async function updateTier(id: number, patch: TierUpdateRequest & { currency?: string }): Promise<Tier> {
  const before = await tierOrNotFound(id);
  const ranges = rangesOf(patch, before);
  await writeTier(ranges, patch.name, id, () => updateTierRow(db(), id, patch));
  return tierOrNotFound(id);
}

export async function deleteTier(id: number): Promise<{ id: number }> {
  const count = await deleteTierRow(db(), id);
  if (!count) throw notFound('Tier not found.');
  return { id };
}

/** The tier a size falls in, or null. */
async function tierFor(size: TierLookup): Promise<Tier | null> {
  const row = await tierRowFor(db(), size);
  return row ? tierDto(row) : null;
}

/** POST /project-tiers/find-tier: the tier, or 404 saying that no tier covers the size. */
export async function findTier(size: TierLookup): Promise<Tier> {
  const tier = await tierFor(size);
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
  const { project } = await requireProject(user, input.project_id, 'manage');
  const nowSize = sizeOf({ area: project.area == null ? null : Number(project.area), num_buildings: project.num_buildings, num_floors: project.num_floors });
  const newSize = sizeOf({ area: input.area ?? null, num_buildings: input.num_buildings ?? null, num_floors: input.num_floors ?? null });
  const [current, next] = await Promise.all([nowSize ? tierFor(nowSize) : null, newSize ? tierFor(newSize) : null]);
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

/** Whose projects a user's report counts: their own, or everyone's for a super admin. */
const ownerOf = (user: Actor) => (user.super_admin ? undefined : user.id);

/** The first instant of a month (UTC), month 13 being January of the next year. */
const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month - 1, 1));

export async function usageCurrent(user: Actor, year: number, month: number): Promise<TierUsageMonth> {
  const rows = await usageMonthRows(db(), { before: monthStart(year, month + 1), owner: ownerOf(user) });
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
  const rows = await usageYearRows(db(), { before: monthStart(year + 1, 1), owner: ownerOf(user), year });
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
  const rows = await usageMonthRows(db(), { before: new Date(Date.now() + 60_000) });
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
