/** Dates in the user's language; an unreadable date shows as given. */
export function formatDateTime(iso: string, locale: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

export const formatNumber = (n: number, locale: string) => new Intl.NumberFormat(locale).format(n);
