import { describe, expect, it } from 'vitest';
import { EMPTY_TIER, rangeText, tierFieldErrors, tierRequest } from './tier-form';
import { monthName, monthSeries, statsSeries, yearSeries } from './usage-data';

describe('tier form', () => {
  it('sends numbers and an empty upper limit as open-ended', () => {
    expect(tierRequest({ ...EMPTY_TIER, name: ' Small ', price: '10', max_area: '500', max_floors: '5' })).toEqual({
      name: 'Small',
      price: 10,
      min_area: 0,
      max_area: 500,
      min_buildings: 1,
      max_buildings: null,
      min_floors: 1,
      max_floors: 5,
    });
  });

  it('refuses limits in the wrong order and what is not a number', () => {
    expect(tierFieldErrors({ ...EMPTY_TIER, name: 'A', price: '10' })).toEqual({});
    expect(tierFieldErrors({ ...EMPTY_TIER, name: '', price: 'x', min_area: '500', max_area: '500', min_floors: '3', max_floors: '2', max_buildings: '1.5' })).toEqual({
      name: 'Tier name is required',
      price: 'Enter a price such as 49 or 49.90.',
      max_area: 'The area limit must be larger than the smallest area.',
      max_buildings: 'Enter a whole number, or leave empty for no limit.',
      max_floors: 'The upper limit cannot be below the lower one.',
    });
  });

  it('reads ranges', () => {
    expect(rangeText(0, 500)).toBe('0–500');
    expect(rangeText(3, null)).toBe('3+');
  });
});

describe('usage series', () => {
  it('labels projects without a tier and keeps every measure in label order', () => {
    const s = monthSeries(
      { year: 2026, month: 3, rows: [{ id_tier: null, name: null, price: 0, projects: 2, area: 0, cost: 0 }, { id_tier: 1, name: 'Small', price: 10, projects: 3, area: 900, cost: 30 }], total: { projects: 5, area: 900, cost: 30 } },
      'No tier',
    );
    expect(s).toEqual({ labels: ['No tier', 'Small'], values: { projects: [2, 3], area: [0, 900], cost: [0, 30] } });
    const y = yearSeries({ year: 2026, months: Array.from({ length: 12 }, (_, i) => ({ month: i + 1, projects: i, area: 0, cost: i * 10 })), total_cost: 660 }, monthName('en'));
    expect(y.labels[0]).toBe('Jan');
    expect(y.values.cost[11]).toBe(110);
    const st = statsSeries({ rows: [{ id_tier: 1, name: 'Small', price: 10, projects: 4, area: 1, owners: 2, monthly_revenue: 40 }], total_projects: 4, total_monthly_revenue: 40 }, 'No tier');
    expect(st.values).toEqual({ projects: [4], owners: [2], revenue: [40] });
  });
});
