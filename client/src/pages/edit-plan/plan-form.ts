import type { Plan, PlanCreateRequest, PlanPeriod, PlanUpdateRequest } from '@sitewalk/proto';
import type { FieldErrors } from '../../components/edit-form/edit-form-model';
import { tk } from '../../lib/i18n-keys';

/**
 * The plan edit form (/editplan/{id}, 'new' creates one): its values as the
 * inputs hold them (numbers as text; an empty limit means no limit), the
 * checks made before sending, and the POST/PUT bodies. Pure, unit-tested.
 */

export type PlanFormValues = {
  name: string;
  description: string;
  price: string;
  currency: string;
  period: PlanPeriod;
  member_slots: string;
  max_projects: string;
  max_storage_mb: string;
  max_video_minutes: string;
  active: boolean;
};

const LIMITS = ['max_projects', 'max_storage_mb', 'max_video_minutes'] as const;

export function planFormValues(p: Plan | null): PlanFormValues {
  const text = (v: number | null | undefined) => (v == null ? '' : String(v));
  return {
    name: p?.name ?? '',
    description: p?.description ?? '',
    price: p ? String(p.price) : '',
    currency: p?.currency ?? 'USD',
    period: p?.period ?? 'month',
    member_slots: p ? String(p.member_slots) : '0',
    max_projects: text(p?.max_projects),
    max_storage_mb: text(p?.max_storage_mb),
    max_video_minutes: text(p?.max_video_minutes),
    active: p?.active ?? true,
  };
}

const isWhole = (s: string) => /^\d{1,9}$/.test(s.trim());

/** What to fix before sending (translation keys). */
export function planFieldErrors(v: PlanFormValues): FieldErrors<PlanFormValues> {
  const e: FieldErrors<PlanFormValues> = {};
  if (!v.name.trim()) e.name = tk('Plan name is required');
  if (!/^\d{1,8}(\.\d{1,2})?$/.test(v.price.trim())) e.price = tk('Enter a price such as 49 or 49.90.');
  if (!/^[A-Za-z]{3}$/.test(v.currency.trim())) e.currency = tk('Use a three-letter currency code such as USD.');
  if (!isWhole(v.member_slots)) e.member_slots = tk('Enter a whole number (0 or more).');
  for (const k of LIMITS) if (v[k].trim() && !isWhole(v[k])) e[k] = tk('Enter a whole number, or leave empty for no limit.');
  return e;
}

function converted(v: Partial<PlanFormValues>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (v.name !== undefined) out.name = v.name.trim();
  if (v.description !== undefined) out.description = v.description.trim();
  if (v.price !== undefined) out.price = Number(v.price);
  if (v.currency !== undefined) out.currency = v.currency.trim().toUpperCase();
  if (v.period !== undefined) out.period = v.period;
  if (v.member_slots !== undefined) out.member_slots = Number(v.member_slots);
  for (const k of LIMITS) if (v[k] !== undefined) out[k] = v[k].trim() === '' ? null : Number(v[k]);
  if (v.active !== undefined) out.active = v.active;
  return out;
}

export const planCreateRequest = (v: PlanFormValues) => converted(v) as PlanCreateRequest;
export const planUpdateRequest = (changes: Partial<PlanFormValues>) => converted(changes) as PlanUpdateRequest;

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
