/**
 * The calendar rules of plan expiry, free of the database so they are
 * unit-tested alone. Dates are calendar days (YYYY-MM-DD) in the site's
 * time zone (setting `timezone`): a plan expires on its expiry date, from
 * the first minute of that day where the site is.
 */

/** Today's date (YYYY-MM-DD) in a time zone; an unknown zone reads UTC rather than failing the scan. */
export function dayInZone(now: Date, timeZone: string): string {
  const format = (tz: string) => new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  try {
    return format(timeZone);
  } catch {
    return format('UTC');
  }
}

const dayNumber = (d: string) => Math.round(Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10)) / 86_400_000);

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

/** The day `days` after a date. */
export function addDays(day: string, days: number): string {
  return new Date((dayNumber(day) + days) * 86_400_000).toISOString().slice(0, 10);
}

export type ExpiryNotice = 'expiring' | 'expired';

/**
 * Expired notices are sent for plans that expired within this many days: a
 * scan that did not run for a while (or the first one after an upgrade)
 * still tells recent expiries, but not plans that ended long ago.
 */
export const EXPIRED_NOTICE_WINDOW_DAYS = 30;

/**
 * Which notice a plan expiring on `expiresAt` is due on `today`: 'expiring'
 * from `warnDays` days before until the day before, 'expired' from the day
 * itself. A window rather than one exact day, so a day the scan missed does
 * not lose the notice; the notices table keeps it to one per expiry date.
 */
export function noticeDue(expiresAt: string, today: string, warnDays: number): ExpiryNotice | null {
  const left = daysBetween(today, expiresAt);
  if (left <= 0) return -left <= EXPIRED_NOTICE_WINDOW_DAYS ? 'expired' : null;
  return left <= warnDays ? 'expiring' : null;
}
