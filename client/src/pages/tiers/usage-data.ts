import type { TierAdminStats, TierUsageMonth, TierUsageYear } from '@sitewalk/proto';

/**
 * Usage answers turned into what a chart and its table show: one label per
 * bar or point and the numbers in the same order. Projects no tier covers
 * are labelled with `noTier`. Pure, unit-tested.
 */

export interface Series {
  labels: string[];
  /** One list per measure, each as long as labels. */
  values: Record<string, number[]>;
}

const label = (name: string | null, noTier: string) => name ?? noTier;

export function monthSeries(u: TierUsageMonth, noTier: string): Series {
  return {
    labels: u.rows.map((r) => label(r.name, noTier)),
    values: { projects: u.rows.map((r) => r.projects), area: u.rows.map((r) => r.area), cost: u.rows.map((r) => r.cost) },
  };
}

export function yearSeries(u: TierUsageYear, monthName: (m: number) => string): Series {
  return {
    labels: u.months.map((m) => monthName(m.month)),
    values: { projects: u.months.map((m) => m.projects), cost: u.months.map((m) => m.cost) },
  };
}

export function statsSeries(s: TierAdminStats, noTier: string): Series {
  return {
    labels: s.rows.map((r) => label(r.name, noTier)),
    values: { projects: s.rows.map((r) => r.projects), owners: s.rows.map((r) => r.owners), revenue: s.rows.map((r) => r.monthly_revenue) },
  };
}

/** A month's name in the reader's language. */
export const monthName = (locale: string) => (m: number) => new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, m - 1, 1)));
