import { describe, expect, it } from 'vitest';
import { planScale } from './sheet-plan-scale.js';

describe('planScale', () => {
  it('scales by the change of width and height', () => {
    expect(planScale({ width: 2000, height: 1000 }, { width: 4000, height: 1500 })).toEqual({ x: 2, y: 1.5 });
  });
  it('leaves positions alone when the sheet had no plan or keeps its size', () => {
    expect(planScale({ width: null, height: null }, { width: 4000, height: 1500 })).toBeNull();
    expect(planScale({ width: 4000, height: 1500 }, { width: 4000, height: 1500 })).toBeNull();
  });
});
