import { describe, expect, it } from 'vitest';
import { createLogThrottle } from './log-throttle.js';

describe('createLogThrottle', () => {
  it('logs the first occurrence, then at most one per interval with the count left out', () => {
    let now = 0;
    const t = createLogThrottle(10_000, () => now);
    expect(t.hit('redis')).toEqual({ log: true, suppressed: 0 });
    now = 1_000;
    expect(t.hit('redis').log).toBe(false);
    now = 9_999;
    expect(t.hit('redis').log).toBe(false);
    now = 10_000;
    expect(t.hit('redis')).toEqual({ log: true, suppressed: 2 });
    // Another key has its own budget.
    expect(t.hit('database')).toEqual({ log: true, suppressed: 0 });
  });

  it('starts afresh after reset, and tells how many were left out', () => {
    let now = 0;
    const t = createLogThrottle(10_000, () => now);
    t.hit('redis');
    t.hit('redis');
    t.hit('redis');
    expect(t.reset('redis')).toBe(2);
    now = 1;
    expect(t.hit('redis')).toEqual({ log: true, suppressed: 0 });
  });
});
