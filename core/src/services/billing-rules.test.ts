import { describe, expect, it } from 'vitest';
import { addMonths, paidPeriod, paymentReference, planAfterRefund, priceFor, taxOf, taxRateBp, totals } from './billing-rules.js';

describe('billing rules', () => {
  it('prices a plan per period in minor units, falling back to its own price for its own period', () => {
    const plan = { price: '49.90', period: 'month' as const, price_month_minor: null, price_year_minor: 49_900 };
    expect(priceFor(plan, 'month')).toBe(4990);
    expect(priceFor(plan, 'year')).toBe(49_900);
    expect(priceFor({ ...plan, price_year_minor: null }, 'year')).toBeNull();
    expect(priceFor({ ...plan, price_month_minor: 0 }, 'month')).toBe(0);
  });

  it('computes tax half up and allows a zero rate', () => {
    expect(taxRateBp(19)).toBe(1900);
    expect(taxRateBp(7.25)).toBe(725);
    expect(taxOf(4990, 1900)).toBe(948);
    expect(taxOf(50, 1000)).toBe(5);
    expect(taxOf(5, 1000)).toBe(1);
    expect(totals(4990, 0)).toEqual({ subtotal_minor: 4990, tax_rate_bp: 0, tax_minor: 0, total_minor: 4990 });
    expect(totals(4990, 1900).total_minor).toBe(5938);
  });

  it('adds months keeping the day, or the last day of a shorter month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2026-03-10', 12)).toBe('2027-03-10');
  });

  it('extends a running plan from its end and starts an expired one today (a change mid-period starts at the end)', () => {
    expect(paidPeriod('2026-12-20', '2026-11-28', 'month')).toEqual({ period_start: '2026-12-20', period_end: '2027-01-20' });
    expect(paidPeriod('2026-11-01', '2026-11-28', 'year')).toEqual({ period_start: '2026-11-28', period_end: '2027-11-28' });
    expect(paidPeriod('2026-11-28', '2026-11-28', 'month')).toEqual({ period_start: '2026-11-28', period_end: '2026-12-28' });
    expect(paidPeriod(null, '2026-11-28', 'month').period_start).toBe('2026-11-28');
  });

  it('makes readable payment references', () => {
    let i = 0;
    expect(paymentReference(() => i++ % 32)).toBe('SW-ABCDEFGHJK');
    expect(paymentReference((n) => Math.floor(Math.random() * n))).toMatch(/^SW-[A-Z2-9]{10}$/);
  });

  it('takes a refunded period back off the plan', () => {
    const none = { next_id_plan: null, next_plan_from: null };
    const dec = { id_plan: 7, period_start: '2026-12-20', period_end: '2027-01-20' };
    // The last period bought: the plan ends where it began.
    expect(planAfterRefund({ expires_at: '2027-01-20', ...none }, dec)).toEqual({ expires_at: '2026-12-20', ...none });
    // A month bought after it moves up by the refunded period's 31 days.
    expect(planAfterRefund({ expires_at: '2027-02-20', ...none }, dec)).toEqual({ expires_at: '2027-01-20', ...none });
    // Already taken back (a second refund event): nothing changes.
    expect(planAfterRefund({ expires_at: '2026-12-20', ...none }, dec)).toEqual({ expires_at: '2026-12-20', ...none });
    // Never earlier than the refunded period's start, even if the expiry was moved by hand meanwhile.
    expect(planAfterRefund({ expires_at: '2027-01-05', ...none }, dec).expires_at).toBe('2026-12-20');
    // A change of plan the refunded payment bought no longer starts.
    expect(planAfterRefund({ expires_at: '2027-01-20', next_id_plan: 7, next_plan_from: '2026-12-20' }, dec)).toEqual({ expires_at: '2026-12-20', ...none });
    // A change bought later, to start after the refunded period, starts that much earlier.
    expect(planAfterRefund({ expires_at: '2027-02-20', next_id_plan: 9, next_plan_from: '2027-01-20' }, dec)).toEqual({ expires_at: '2027-01-20', next_id_plan: 9, next_plan_from: '2026-12-20' });
  });
});
