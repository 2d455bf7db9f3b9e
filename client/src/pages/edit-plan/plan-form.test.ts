import { describe, expect, it } from 'vitest';
import { planCreateRequest, planFieldErrors, planFormValues, planUpdateRequest } from './plan-form';

describe('plan form', () => {
  it('starts a new plan monthly in USD with no limits, and reads a saved one', () => {
    expect(planFormValues(null)).toMatchObject({ name: '', price: '', currency: 'USD', period: 'month', member_slots: '0', max_projects: '', active: true });
    const saved = planFormValues({ id: 1, name: 'Pro', description: '', price: 49.9, currency: 'EUR', period: 'year', member_slots: 5, max_projects: 20, max_storage_mb: null, max_video_minutes: 600, active: false, subscribers: 0, created_at: '', updated_at: '' });
    expect(saved).toMatchObject({ price: '49.9', member_slots: '5', max_projects: '20', max_storage_mb: '', max_video_minutes: '600', active: false });
  });

  it('checks name, price, currency, slots and limits before sending', () => {
    const ok = { ...planFormValues(null), name: 'Pro', price: '49.90', member_slots: '3', max_projects: '' };
    expect(Object.values(planFieldErrors(ok)).filter(Boolean)).toEqual([]);
    const bad = planFieldErrors({ ...ok, name: '  ', price: '4.999', currency: 'EURO', member_slots: '-1', max_storage_mb: '1.5' });
    expect(bad).toMatchObject({
      name: 'Plan name is required',
      price: 'Enter a price such as 49 or 49.90.',
      currency: 'Use a three-letter currency code such as USD.',
      member_slots: 'Enter a whole number (0 or more).',
      max_storage_mb: 'Enter a whole number, or leave empty for no limit.',
    });
  });

  it('sends numbers, an empty limit as no limit (null), and only the changed fields on update', () => {
    const v = { ...planFormValues(null), name: ' Pro ', price: '49.90', currency: 'eur', member_slots: '3', max_projects: '10' };
    expect(planCreateRequest(v)).toEqual({ name: 'Pro', description: '', price: 49.9, currency: 'EUR', period: 'month', member_slots: 3, max_projects: 10, max_storage_mb: null, max_video_minutes: null, active: true });
    expect(planUpdateRequest({ max_projects: '', active: false })).toEqual({ max_projects: null, active: false });
  });
});
