import { describe, expect, it } from 'vitest';
import { EXPIRED_NOTICE_WINDOW_DAYS, addDays, dayInZone, daysBetween, noticeDue } from './plan-expiry-rules.js';

describe('plan expiry rules', () => {
  it('reads today in the site time zone, and UTC for an unknown zone', () => {
    const lateEvening = new Date('2026-03-31T22:30:00Z');
    expect(dayInZone(lateEvening, 'UTC')).toBe('2026-03-31');
    expect(dayInZone(lateEvening, 'Asia/Amman')).toBe('2026-04-01');
    expect(dayInZone(lateEvening, 'America/New_York')).toBe('2026-03-31');
    expect(dayInZone(lateEvening, 'Not/AZone')).toBe('2026-03-31');
  });

  it('counts calendar days across months, years and leap days', () => {
    expect(daysBetween('2026-02-27', '2026-03-01')).toBe(2);
    expect(daysBetween('2028-02-27', '2028-03-01')).toBe(3);
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysBetween('2026-05-10', '2026-05-03')).toBe(-7);
    expect(addDays('2026-12-28', 7)).toBe('2027-01-04');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('is due "expiring" from N days before to the day before, "expired" from the day itself within the window', () => {
    expect(noticeDue('2026-05-10', '2026-05-02', 7)).toBeNull();
    expect(noticeDue('2026-05-10', '2026-05-03', 7)).toBe('expiring');
    expect(noticeDue('2026-05-10', '2026-05-09', 7)).toBe('expiring');
    expect(noticeDue('2026-05-10', '2026-05-10', 7)).toBe('expired');
    expect(noticeDue('2026-05-10', addDays('2026-05-10', EXPIRED_NOTICE_WINDOW_DAYS), 7)).toBe('expired');
    expect(noticeDue('2026-05-10', addDays('2026-05-10', EXPIRED_NOTICE_WINDOW_DAYS + 1), 7)).toBeNull();
  });
});
