/** Dates in the user's language; an unreadable date shows as given. */
export function formatDateTime(iso: string, locale: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

export const formatNumber = (n: number, locale: string) => new Intl.NumberFormat(locale).format(n);

/** A calendar day (YYYY-MM-DD, no time) in the user's language; an unreadable one shows as given. */
export function formatDay(date: string, locale: string): string {
  const d = new Date(`${date}T00:00:00`);
  return Number.isNaN(d.getTime()) ? date : new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(d);
}
