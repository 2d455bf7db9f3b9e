import { describe, expect, it } from 'vitest';
import type { Plan } from '@sitewalk/proto';
import { ruleMessages } from '../../components/edit-form/rules-test-support';
import { minorToText, planCreateRequest, planFormRules, planFormValues, planUpdateRequest, textToMinor } from './plan-form';

const saved = (over: Partial<Plan> = {}): Plan => ({ id: 1, name: 'Pro', description: '', price: 49.9, currency: 'EUR', period: 'year', member_slots: 5, max_projects: 20, max_storage_mb: null, max_video_minutes: 600, active: false, subscribers: 0, created_at: '', updated_at: '', ...over });

describe('plan form', () => {
  it('starts a new plan in USD with no price and no limits, and reads a saved one', () => {
    expect(planFormValues(null)).toMatchObject({ name: '', price_month: '', price_year: '', currency: 'USD', member_slots: '0', max_projects: '', active: true });
    expect(planFormValues(saved({ price_month_minor: 4990, price_year_minor: 49_900 }))).toMatchObject({ price_month: '49.90', price_year: '499', currency: 'EUR', member_slots: '5', max_projects: '20', max_storage_mb: '', max_video_minutes: '600', active: false });
    // A plan made before per-period prices shows its one price for its own period, as checkout sells it.
    expect(planFormValues(saved())).toMatchObject({ price_month: '', price_year: '49.90' });
  });

  it('turns amounts into minor units and back without rounding errors', () => {
    expect(['0', '0.05', '19.99', '49.9', '1234567.89'].map(textToMinor)).toEqual([0, 5, 1999, 4990, 123_456_789]);
    expect([0, 5, 1999, 4990, 5000].map(minorToText)).toEqual(['0', '0.05', '19.99', '49.90', '50']);
  });

  it('checks name, prices, currency, slots and limits before sending', async () => {
    const ok = { ...planFormValues(null), name: 'Pro', price_month: '49.90', member_slots: '3', max_projects: '' };
    expect(await ruleMessages(planFormRules, ok)).toEqual({});
    expect(await ruleMessages(planFormRules, { ...ok, price_month: '', price_year: '499' })).toEqual({});
    const bad = await ruleMessages(planFormRules, { ...ok, name: '  ', price_month: '4.999', price_year: '-5', currency: 'EURO', member_slots: '-1', max_storage_mb: '1.5' });
    expect(bad).toEqual({
      name: 'Plan name is required',
      price_month: 'Enter a price such as 49 or 49.90.',
      price_year: 'Enter a price such as 49 or 49.90.',
      currency: 'Use a three-letter currency code such as USD.',
      member_slots: 'Enter a whole number (0 or more).',
      max_storage_mb: 'Enter a whole number, or leave empty for no limit.',
    });
    expect((await ruleMessages(planFormRules, { ...ok, price_month: ' ', price_year: '' })).price_month).toBe('Enter a price per month, per year or both.');
  });

  it('sends the prices per period in minor units with the listed price they give, and only the changed fields on update', () => {
    const v = { ...planFormValues(null), name: ' Pro ', price_month: '49.90', price_year: '499', currency: 'eur', member_slots: '3', max_projects: '10' };
    expect(planCreateRequest(v)).toEqual({
      name: 'Pro',
      description: '',
      price_month_minor: 4990,
      price_year_minor: 49_900,
      price: 49.9,
      period: 'month',
      currency: 'EUR',
      member_slots: 3,
      max_projects: 10,
      max_storage_mb: null,
      max_video_minutes: null,
      active: true,
    });
    expect(planUpdateRequest({ max_projects: '', active: false }, v)).toEqual({ max_projects: null, active: false });
    // No longer sold per month: the yearly price becomes the listed one.
    expect(planUpdateRequest({ price_month: '' }, { ...v, price_month: '' })).toEqual({ price_month_minor: null, price_year_minor: 49_900, price: 499, period: 'year' });
  });
});
