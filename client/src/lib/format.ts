/**
 * Dates and numbers in the user's language (Intl), the one place the client
 * formats them: days, moments, counts, sizes. The day, moment and number
 * forms are proto's, so a notification the server renders in a recipient's
 * language reads as the screen does.
 */
import { formatDateTime, formatDay, formatNumber } from '@sitewalk/proto';

export { formatDateTime, formatDay, formatNumber };

/** A moment's calendar day (an ISO timestamp), in the user's language and time zone. */
export function formatDate(iso: string, locale: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(d);
}

/** A file size in megabytes with one decimal ("12.5"), in the user's digits. */
export const formatMegabytes = (bytes: number, locale: string): string =>
  formatNumber(bytes / (1024 * 1024), locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 });

/** A time into a video as minutes and seconds ("1:07"), in the user's digits. */
export function formatClock(seconds: number, locale: string): string {
  const s = Math.max(0, Math.round(seconds));
  const pad = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2 });
  return `${formatNumber(Math.floor(s / 60), locale)}:${pad.format(s % 60)}`;
}
