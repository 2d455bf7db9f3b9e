import type { Tier, TierCreateRequest } from '@sitewalk/proto';
import { tk } from '../../lib/i18n-keys';

/**
 * The tier form of /tiers: values as the inputs hold them (an empty upper
 * limit is open-ended), checks before sending, the request body, and how a
 * tier's ranges read. Pure, unit-tested.
 */

export type TierFormValues = {
  name: string;
  price: string;
  min_area: string;
  max_area: string;
  min_buildings: string;
  max_buildings: string;
  min_floors: string;
  max_floors: string;
};

export const EMPTY_TIER: TierFormValues = { name: '', price: '', min_area: '0', max_area: '', min_buildings: '1', max_buildings: '', min_floors: '1', max_floors: '' };

export function tierFormValues(t: Tier): TierFormValues {
  const s = (v: number | null) => (v == null ? '' : String(v));
  return {
    name: t.name,
    price: String(t.price),
    min_area: String(t.min_area),
    max_area: s(t.max_area),
    min_buildings: String(t.min_buildings),
    max_buildings: s(t.max_buildings),
    min_floors: String(t.min_floors),
    max_floors: s(t.max_floors),
  };
}

const decimal = /^\d{1,9}(\.\d{1,2})?$/;
const whole = /^\d{1,6}$/;

export type TierFormErrors = Partial<Record<keyof TierFormValues, string>>;

/** What to fix before sending (translation keys). */
export function tierFieldErrors(v: TierFormValues): TierFormErrors {
  const e: TierFormErrors = {};
  if (!v.name.trim()) e.name = tk('Tier name is required');
  if (!decimal.test(v.price.trim())) e.price = tk('Enter a price such as 49 or 49.90.');
  if (!decimal.test(v.min_area.trim())) e.min_area = tk('Enter an area in m², such as 500.');
  if (v.max_area.trim() && !decimal.test(v.max_area.trim())) e.max_area = tk('Enter an area in m², or leave empty for no limit.');
  else if (v.max_area.trim() && !e.min_area && Number(v.max_area) <= Number(v.min_area)) e.max_area = tk('The area limit must be larger than the smallest area.');
  for (const [min, max] of [['min_buildings', 'max_buildings'], ['min_floors', 'max_floors']] as const) {
    if (!whole.test(v[min].trim())) e[min] = tk('Enter a whole number (0 or more).');
    if (v[max].trim() && !whole.test(v[max].trim())) e[max] = tk('Enter a whole number, or leave empty for no limit.');
    else if (v[max].trim() && !e[min] && Number(v[max]) < Number(v[min])) e[max] = tk('The upper limit cannot be below the lower one.');
  }
  return e;
}

const opt = (s: string) => (s.trim() === '' ? null : Number(s));

export function tierRequest(v: TierFormValues): TierCreateRequest {
  return {
    name: v.name.trim(),
    price: Number(v.price),
    min_area: Number(v.min_area),
    max_area: opt(v.max_area),
    min_buildings: Number(v.min_buildings),
    max_buildings: opt(v.max_buildings),
    min_floors: Number(v.min_floors),
    max_floors: opt(v.max_floors),
  };
}

/** "0–500" (area up to but not including 500), "3+" when open-ended. */
export const rangeText = (min: number, max: number | null) => (max == null ? `${min}+` : `${min}–${max}`);
