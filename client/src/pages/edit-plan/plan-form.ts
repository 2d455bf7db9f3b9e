import { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { planFields, type Plan, type PlanCreateRequest, type PlanPeriod, type PlanUpdateRequest } from '@sitewalk/proto';
import { tk } from '../../lib/i18n-keys';

/**
 * The plan edit form (/editplan/{id}, 'new' creates one): its values as the
 * inputs hold them (numbers as text; an empty limit means no limit), the
 * checks made before sending, and the POST/PUT bodies. Pure, unit-tested.
 *
 * Prices are entered per period (a month, a year, or both) as the amount a
 * person reads (49.90) and sent as integer minor units (4990), which is what
 * checkout charges. The plan's listed `price` and `period` follow from them:
 * the monthly price when there is one, else the yearly price.
 */

export type PlanFormValues = {
  name: string;
  description: string;
  /** Empty: not sold per month. */
  price_month: string;
  /** Empty: not sold per year. */
  price_year: string;
  currency: string;
  member_slots: string;
  max_projects: string;
  max_storage_mb: string;
  max_video_minutes: string;
  active: boolean;
};

const LIMITS = ['max_projects', 'max_storage_mb', 'max_video_minutes'] as const;

/** Minor units as the amount typed: 4990 → '49.90', 5000 → '50'. */
export const minorToText = (minor: number) => (minor % 100 === 0 ? String(minor / 100) : (minor / 100).toFixed(2));
/** The amount typed as minor units: '49.9' → 4990 (checked by planFieldErrors first). */
export const textToMinor = (s: string) => {
  const [whole, frac = ''] = s.trim().split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
};

/** A plan's price for a period as the form shows it; a plan made before per-period prices is sold at its one price for its own period (as checkout prices it). */
function periodPriceText(p: Plan, period: PlanPeriod): string {
  const own = period === 'month' ? p.price_month_minor : p.price_year_minor;
  if (own != null) return minorToText(own);
  return p.period === period ? minorToText(Math.round(p.price * 100)) : '';
}

export function planFormValues(p: Plan | null): PlanFormValues {
  const text = (v: number | null | undefined) => (v == null ? '' : String(v));
  return {
    name: p?.name ?? '',
    description: p?.description ?? '',
    price_month: p ? periodPriceText(p, 'month') : '',
    price_year: p ? periodPriceText(p, 'year') : '',
    currency: p?.currency ?? 'USD',
    member_slots: p ? String(p.member_slots) : '0',
    max_projects: text(p?.max_projects),
    max_storage_mb: text(p?.max_storage_mb),
    max_video_minutes: text(p?.max_video_minutes),
    active: p?.active ?? true,
  };
}

const AMOUNT = /^\d{1,7}(\.\d{1,2})?$/;
const WHOLE = /^\d{1,9}$/;
/** Text that is empty or matches `pattern` (a price of one period, a limit). */
const emptyOr = (pattern: RegExp, message: string) => z.string().refine((s) => s.trim() === '' || pattern.test(s.trim()), message);
const amountText = emptyOr(AMOUNT, tk('Enter a price such as 49 or 49.90.'));
const limitText = emptyOr(WHOLE, tk('Enter a whole number, or leave empty for no limit.'));

/**
 * How the plan's amounts and limits are typed (text the API never sees:
 * checkout prices minor units), with proto's own name and currency rules.
 */
const planFormSchema = z
  .object({
    name: planFields.name,
    price_month: amountText,
    price_year: amountText,
    currency: planFields.currency,
    member_slots: z.string().trim().regex(WHOLE, tk('Enter a whole number (0 or more).')),
    max_projects: limitText,
    max_storage_mb: limitText,
    max_video_minutes: limitText,
  })
  // Said also while another field is wrong (zod would skip it then), so every mistake shows at once.
  .refine((v) => !!(v.price_month.trim() || v.price_year.trim()), {
    message: tk('Enter a price per month, per year or both.'),
    path: ['price_month'],
    when: (p) => typeof (p.value as { price_month?: unknown })?.price_month === 'string',
  });

/** What to fix before sending (translation keys). */
export const planFormRules = zodResolver(planFormSchema, undefined, { raw: true }) as unknown as Resolver<PlanFormValues>;

/** The per-period prices in minor units (null: not sold for that period) and the listed price and period they give. */
function prices(v: Pick<PlanFormValues, 'price_month' | 'price_year'>) {
  const month = v.price_month.trim() ? textToMinor(v.price_month) : null;
  const year = v.price_year.trim() ? textToMinor(v.price_year) : null;
  const listed: { price: number; period: PlanPeriod } = month != null ? { price: month / 100, period: 'month' } : { price: (year ?? 0) / 100, period: 'year' };
  return { price_month_minor: month, price_year_minor: year, ...listed };
}

/** `changes` are the fields to send; `all` the whole form, since a changed price also changes the listed price and period. */
function converted(v: Partial<PlanFormValues>, all: PlanFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (v.name !== undefined) out.name = v.name.trim();
  if (v.description !== undefined) out.description = v.description.trim();
  if (v.price_month !== undefined || v.price_year !== undefined) Object.assign(out, prices(all));
  if (v.currency !== undefined) out.currency = v.currency.trim().toUpperCase();
  if (v.member_slots !== undefined) out.member_slots = Number(v.member_slots);
  for (const k of LIMITS) if (v[k] !== undefined) out[k] = v[k].trim() === '' ? null : Number(v[k]);
  if (v.active !== undefined) out.active = v.active;
  return out;
}

export const planCreateRequest = (v: PlanFormValues) => converted(v, v) as PlanCreateRequest;
export const planUpdateRequest = (changes: Partial<PlanFormValues>, all: PlanFormValues) => converted(changes, all) as PlanUpdateRequest;

/** The SPEC §8 form messages of the Plan entity, written out so the translation check finds them. */
export const PLAN_FORM_TEXTS = [
  tk('Failed to create Plan'),
  tk('Failed to update Plan'),
  tk('Failed to delete Plan'),
  tk('Error loading Plan data'),
  tk('Plan created successfully!'),
  tk('Plan updated successfully!'),
  tk('Plan deleted successfully!'),
] as const;
