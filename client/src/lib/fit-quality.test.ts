import { describe, expect, it } from 'vitest';
import { fitQuality } from './fit-quality';

describe('the quality of a walk fitted to a sheet', () => {
  const sheet = { width: 3000, height: 4000 }; // diagonal 5000 px

  it('is good within 1 % of the sheet diagonal and asks to check the points beyond', () => {
    expect(fitQuality(0, sheet)).toBe('good');
    expect(fitQuality(50, sheet)).toBe('good');
    expect(fitQuality(51, sheet)).toBe('check');
    expect(fitQuality(400, sheet)).toBe('check');
  });

  it('says nothing when the fit was not measured or the sheet has no size', () => {
    expect(fitQuality(null, sheet)).toBeNull();
    expect(fitQuality(Number.NaN, sheet)).toBeNull();
    expect(fitQuality(10, { width: null, height: 4000 })).toBeNull();
  });
});
