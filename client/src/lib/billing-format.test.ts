import { describe, expect, it } from 'vitest';
import { formatMinor, invoiceLabel, percentOf, periodPrices } from './billing-format';

describe('billing format', () => {
  it('shows minor units as money, percentages from basis points, and the number or reference', () => {
    expect(formatMinor(5938, 'EUR', 'en')).toBe('€59.38');
    expect(formatMinor(-5938, 'USD', 'en')).toBe('-$59.38');
    expect(formatMinor(100, 'XXQ', 'en')).toMatch(/1\.00/);
    expect(percentOf(1900)).toBe('19');
    expect(percentOf(725)).toBe('7.25');
    expect(invoiceLabel({ number: null, reference: 'SW-ABC' })).toBe('SW-ABC');
    expect(invoiceLabel({ number: '2026-000001', reference: 'SW-ABC' })).toBe('2026-000001');
  });

  it('lists the prices a plan is sold at per period, an old plan at its one price for its own period', () => {
    expect(periodPrices({ price: 49.9, period: 'month', price_month_minor: 4990, price_year_minor: 49_900 })).toEqual([
      { period: 'month', amount_minor: 4990 },
      { period: 'year', amount_minor: 49_900 },
    ]);
    expect(periodPrices({ price: 499, period: 'year', price_month_minor: null, price_year_minor: 49_900 })).toEqual([{ period: 'year', amount_minor: 49_900 }]);
    expect(periodPrices({ price: 19.99, period: 'month' })).toEqual([{ period: 'month', amount_minor: 1999 }]);
  });
});
