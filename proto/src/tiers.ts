import { z } from 'zod';
import { idField } from './ids.js';

/**
 * Project tiers: price levels by floor area, number of buildings and number
 * of floors (SPEC §7 "Plans and tiers", §3 tier lookup fields). `data`:
 *
 *   GET    /project-tiers                     → Tier[]          any signed-in user (prices are public to them)
 *   POST   /project-tiers                     → 201 Tier        super admin; 409 when its ranges overlap another tier's
 *   GET    /project-tiers/{id}                → Tier            any signed-in user
 *   PUT    /project-tiers/{id}                → Tier            super admin; 409 on overlap
 *   DELETE /project-tiers/{id}                → {id}            super admin
 *   POST   /project-tiers/find-tier           → Tier            {area, num_buildings, num_floors}; 404 with a sentence when no tier fits
 *   GET    /project-tiers/usage/current       → TierUsageMonth  ?year&month: the caller's projects (every project for a super admin) per tier
 *   GET    /project-tiers/usage/yearly        → TierUsageYear   ?year: the same, month by month
 *   POST   /project-tiers/check-upgrade       → UpgradeCheck    {project_id, area, num_buildings, num_floors}: what an edit would do to the tier
 *   GET    /project-tiers/admin/stats         → TierAdminStats  super admin: every project per tier
 *
 * A tier covers an area from min_area up to, but not including, max_area
 * (so 0–500 and 500–2000 meet without overlapping: 500 m² is in the second),
 * and buildings and floors from min to max inclusive. A missing max is
 * open-ended. No two tiers overlap, so a project is in one tier or none.
 * A tier's price is per project and month.
 */

const count = (label: string) =>
  z.number({ message: `${label} must be a whole number.` }).int(`${label} must be a whole number.`).min(0, `${label} cannot be negative.`).max(1_000_000, `${label} is too large.`);
const area = (label: string) => z.number({ message: `${label} must be a number.` }).min(0, `${label} cannot be negative.`).max(100_000_000, `${label} is too large.`);

export const tierFields = {
  name: z.string().trim().min(1, 'Tier name is required').max(100, 'Tier name must be at most 100 characters.'),
  description: z.string().trim().max(2000, 'The description must be at most 2000 characters.'),
  price: z.number({ message: 'Price must be a number.' }).min(0, 'Price cannot be negative.').max(10_000_000, 'Price is too large.'),
  currency: z.string().trim().regex(/^[A-Za-z]{3}$/, 'Use a three-letter currency code such as USD.').transform((s) => s.toUpperCase()),
  min_area: area('The smallest area'),
  max_area: area('The area limit').nullable(),
  min_buildings: count('The fewest buildings'),
  max_buildings: count('The most buildings').nullable(),
  min_floors: count('The fewest floors'),
  max_floors: count('The most floors').nullable(),
};

type RangeShape = Partial<{ min_area: number; max_area: number | null; min_buildings: number; max_buildings: number | null; min_floors: number; max_floors: number | null }>;

/** The order of each pair, when both ends are in the body (the service checks the merged record too). */
export function tierRangeProblem(t: RangeShape): string | null {
  if (t.min_area != null && t.max_area != null && t.max_area <= t.min_area) return 'The area limit must be larger than the smallest area.';
  if (t.min_buildings != null && t.max_buildings != null && t.max_buildings < t.min_buildings) return 'The most buildings cannot be fewer than the fewest buildings.';
  if (t.min_floors != null && t.max_floors != null && t.max_floors < t.min_floors) return 'The most floors cannot be fewer than the fewest floors.';
  return null;
}

const rangesInOrder = (t: RangeShape, ctx: z.RefinementCtx) => {
  const problem = tierRangeProblem(t);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

export const tierCreateSchema = z.object(tierFields).partial().required({ name: true, price: true }).strict().superRefine(rangesInOrder);
export type TierCreateRequest = z.input<typeof tierCreateSchema>;

export const tierUpdateSchema = z
  .object(tierFields)
  .partial()
  .strict()
  .superRefine((o, ctx) => {
    if (Object.keys(o).length === 0) ctx.addIssue({ code: 'custom', message: 'Nothing to update.' });
    rangesInOrder(o, ctx);
  });
export type TierUpdateRequest = z.input<typeof tierUpdateSchema>;

/** SPEC §3 tier lookup fields. */
export const tierLookupSchema = z
  .object({
    area: area('Area'),
    num_buildings: count('The number of buildings'),
    num_floors: count('The number of floors'),
  })
  .strict();
export type TierLookup = z.infer<typeof tierLookupSchema>;

/** A project edit as it would be saved; a null size means the project has none (it then has no tier). */
export const checkUpgradeSchema = z
  .object({
    project_id: idField,
    area: area('Area').nullable(),
    num_buildings: count('The number of buildings').nullable(),
    num_floors: count('The number of floors').nullable(),
  })
  .strict();
export type CheckUpgradeRequest = z.infer<typeof checkUpgradeSchema>;

const year = z.coerce.number({ message: 'The year is a number such as 2026.' }).int('The year is a number such as 2026.').min(2000, 'The year is between 2000 and 2100.').max(2100, 'The year is between 2000 and 2100.');
export const usageCurrentQuerySchema = z
  .object({
    year: year.optional(),
    month: z.coerce.number({ message: 'The month is a number from 1 to 12.' }).int('The month is a number from 1 to 12.').min(1, 'The month is a number from 1 to 12.').max(12, 'The month is a number from 1 to 12.').optional(),
  })
  .strict();
export const usageYearlyQuerySchema = z.object({ year: year.optional() }).strict();

export interface Tier {
  id: number;
  name: string;
  description: string;
  price: number;
  currency: string;
  min_area: number;
  max_area: number | null;
  min_buildings: number;
  max_buildings: number | null;
  min_floors: number;
  max_floors: number | null;
  created_at: string;
  updated_at: string;
}

/** One tier's share of the projects (id_tier null: projects no tier covers, or without a size). */
export interface TierUsageRow {
  id_tier: number | null;
  name: string | null;
  price: number;
  projects: number;
  /** Total floor area, m². */
  area: number;
  /** projects × price. */
  cost: number;
}

export interface TierUsageMonth {
  year: number;
  month: number;
  rows: TierUsageRow[];
  total: { projects: number; area: number; cost: number };
}

export interface TierUsageYear {
  year: number;
  /** Twelve entries, January first: the projects that existed by the end of each month. */
  months: { month: number; projects: number; area: number; cost: number }[];
  total_cost: number;
}

export interface UpgradeCheck {
  current_tier: Tier | null;
  new_tier: Tier | null;
  /** true when the edit moves the project into a dearer tier. */
  upgrade: boolean;
  /** What the edit does, in a sentence for the person editing. */
  message: string;
}

export interface TierStatsRow {
  id_tier: number | null;
  name: string | null;
  price: number;
  projects: number;
  area: number;
  owners: number;
  /** projects × price: what the tier brings per month. */
  monthly_revenue: number;
}

export interface TierAdminStats {
  rows: TierStatsRow[];
  total_projects: number;
  total_monthly_revenue: number;
}

/** The sentence of find-tier when no tier covers a size. */
export const noTierMessage = (t: TierLookup) =>
  `No tier covers a project of ${t.area} m², ${t.num_buildings} building(s) and ${t.num_floors} floor(s). Ask an administrator to add one.`;
