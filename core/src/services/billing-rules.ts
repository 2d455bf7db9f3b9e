import { planPriceMinor, type PlanPeriod } from '@sitewalk/proto';
import { addDays, daysBetween } from './plan-expiry-rules.js';

/**
 * The arithmetic of billing, framework-free so it is unit-tested on its own:
 * what a plan costs for a period, the tax on it, and the dates a paid
 * period runs between. Money is always integer minor units.
 */

export interface PricedPlan {
  price: string | number;
  period: PlanPeriod;
  price_month_minor: number | null;
  price_year_minor: number | null;
}

/** What a plan costs for a period in minor units, or null when it is not sold for that period. */
export const priceFor = (plan: PricedPlan, period: PlanPeriod): number | null => planPriceMinor(plan, period);

/** The tax-rate setting (percent, two decimals at most) in basis points. */
export const taxRateBp = (percent: number) => Math.max(0, Math.min(10_000, Math.round(percent * 100)));

/** Tax on an amount, rounded half up to the minor unit. */
export const taxOf = (subtotalMinor: number, rateBp: number) => Math.round((subtotalMinor * rateBp) / 10_000);

export function totals(subtotalMinor: number, rateBp: number) {
  const tax = taxOf(subtotalMinor, rateBp);
  return { subtotal_minor: subtotalMinor, tax_rate_bp: rateBp, tax_minor: tax, total_minor: subtotalMinor + tax };
}

/** A date (YYYY-MM-DD) `months` later; the 31st of a shorter month falls on its last day. */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/**
 * The period a payment buys. `expires_at` is the first day the current plan
 * no longer counts, so a plan still running is extended from there (nothing
 * paid for is lost, and a change of plan starts then); an expired plan or
 * none starts today.
 */
export function paidPeriod(currentExpiry: string | null, today: string, period: PlanPeriod): { period_start: string; period_end: string } {
  const start = currentExpiry && currentExpiry > today ? currentExpiry : today;
  return { period_start: start, period_end: addMonths(start, period === 'year' ? 12 : 1) };
}

/** A payment reference a person can type on a bank transfer: SW- and ten letters and digits without look-alikes. */
export function paymentReference(random: (n: number) => number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let s = '';
  for (let i = 0; i < 10; i++) s += alphabet[random(alphabet.length)];
  return `SW-${s}`;
}

/**
 * The plan once a refunded period is taken back. The period's days come off
 * the expiry date, so when it was the last period bought the plan ends where
 * that period began (an earlier end than today means it has expired), and a
 * period bought after it moves up. A plan the refunded payment had bought to
 * start later (a change mid-period) no longer starts; a waiting plan bought
 * later moves up with the expiry. Nothing changes when the period was already
 * taken back (the expiry is not past its start).
 */
export function planAfterRefund(
  sub: { expires_at: string; next_id_plan: number | null; next_plan_from: string | null },
  refunded: { id_plan: number | null; period_start: string; period_end: string },
): { expires_at: string; next_id_plan: number | null; next_plan_from: string | null } {
  if (sub.expires_at <= refunded.period_start) return sub;
  const days = daysBetween(refunded.period_start, refunded.period_end);
  const shifted = addDays(sub.expires_at, -days);
  const expires_at = shifted > refunded.period_start ? shifted : refunded.period_start;
  if (sub.next_id_plan == null || sub.next_plan_from == null) return { expires_at, next_id_plan: null, next_plan_from: null };
  if (sub.next_id_plan === refunded.id_plan && sub.next_plan_from === refunded.period_start) return { expires_at, next_id_plan: null, next_plan_from: null };
  const from = sub.next_plan_from >= refunded.period_end ? addDays(sub.next_plan_from, -days) : sub.next_plan_from;
  return { expires_at, next_id_plan: sub.next_id_plan, next_plan_from: from };
}
