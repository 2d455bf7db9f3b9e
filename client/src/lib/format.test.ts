import { describe, expect, it } from 'vitest';
import { formatClock, formatDate, formatDateTime, formatDay, formatMegabytes, formatNumber } from './format';

const arDigits = (s: string) => /[\u0660-\u0669]/.test(s);

describe('dates and numbers in the user language', () => {
  it('writes a calendar day as the day written, in each language', () => {
    expect(formatDay('2026-11-28', 'en')).toBe('Nov 28, 2026');
    const ar = formatDay('2026-11-28', 'ar');
    // Arabic's own form (with its right-to-left marks between the parts), not the English one.
    expect(ar).not.toBe(formatDay('2026-11-28', 'en'));
    expect(ar).toBe(new Intl.DateTimeFormat('ar', { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(2026, 10, 28)));
  });

  it('keeps the day whatever the time zone (no shift to the day before)', () => {
    expect(formatDay('2026-01-01', 'en')).toBe('Jan 1, 2026');
  });

  it('shows an unreadable value as given instead of "Invalid Date"', () => {
    expect(formatDay('soon', 'en')).toBe('soon');
    expect(formatDay('2026-13-45', 'en')).toBe('2026-13-45');
    expect(formatDateTime('not a date', 'ar')).toBe('not a date');
    expect(formatDate('', 'en')).toBe('');
  });

  it('gives a moment its date and time, and a timestamp its day', () => {
    expect(formatDateTime('2026-11-28T10:30:00Z', 'en')).toMatch(/2026/);
    expect(formatDate('2026-11-28T10:30:00Z', 'en')).toMatch(/^Nov 2[789], 2026$/);
  });

  it('groups and writes numbers as the language does', () => {
    expect(formatNumber(12345, 'en')).toBe('12,345');
    expect(formatNumber(12345, 'ar')).toBe(new Intl.NumberFormat('ar').format(12345));
    expect(formatMegabytes(5 * 1024 * 1024, 'en')).toBe('5.0');
    expect(formatMegabytes(1.25 * 1024 * 1024, 'en')).toBe('1.3');
    // Whatever digits the platform's Arabic uses, the value is the same number.
    const ar = formatMegabytes(5 * 1024 * 1024, 'ar');
    expect(arDigits(ar) ? ar : ar.replace(/\D/g, '')).toBe(arDigits(ar) ? new Intl.NumberFormat('ar', { minimumFractionDigits: 1 }).format(5) : '50');
  });

  it('writes a time into a video as minutes and two-digit seconds', () => {
    expect(formatClock(7.5, 'en')).toBe('0:08');
    expect(formatClock(67, 'en')).toBe('1:07');
    expect(formatClock(-3, 'en')).toBe('0:00');
    expect(formatClock(67, 'ar')).toBe(`${formatNumber(1, 'ar')}:${new Intl.NumberFormat('ar', { minimumIntegerDigits: 2 }).format(7)}`);
  });
});
