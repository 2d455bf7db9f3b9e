import { PLAN_PERIODS, planPriceMinor, type InvoiceStatus, type Plan, type PlanPeriod } from '@sitewalk/proto';
import { tk } from './i18n-keys';

/** An amount in minor units (cents) as the reader's language writes money. */
export function formatMinor(minor: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

/** A tax rate in basis points as a percentage: 1900 → "19", 725 → "7.25". */
export const percentOf = (bp: number) => String(Math.round(bp) / 100);

/** Badge colours with AA contrast in both themes (Bootstrap's text-bg-* pairs). */
export const STATUS_BADGE: Record<InvoiceStatus, string> = {
  pending: 'text-bg-warning',
  paid: 'text-bg-success',
  void: 'text-bg-secondary',
};

export const STATUS_LABEL: Record<InvoiceStatus, string> = {
  pending: tk('Pending'),
  paid: tk('Paid'),
  void: tk('Void'),
};

/** The invoice's name in lists: its number once paid, else its payment reference. */
export const invoiceLabel = (i: { number: string | null; reference: string }) => i.number ?? i.reference;

/** The prices a plan is sold at, per period, in minor units (a period it is not sold for is left out). */
export const periodPrices = (p: Pick<Plan, 'price' | 'period' | 'price_month_minor' | 'price_year_minor'>): { period: PlanPeriod; amount_minor: number }[] =>
  PLAN_PERIODS.flatMap((period) => {
    const amount = planPriceMinor(p, period);
    return amount == null ? [] : [{ period, amount_minor: amount }];
  });
