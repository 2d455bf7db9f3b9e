import { describe, expect, it } from 'vitest';
import { reconnectDelayMs, REDIS_RECONNECT } from './reconnect-policy.js';

describe('reconnectDelayMs', () => {
  it('doubles from 100 ms and stops growing at 3 s, for ever', () => {
    const noJitter = () => 0;
    expect([1, 2, 3, 4, 5, 6].map((n) => reconnectDelayMs(n, REDIS_RECONNECT, noJitter))).toEqual([100, 200, 400, 800, 1600, 3000]);
    expect(reconnectDelayMs(1_000_000, REDIS_RECONNECT, noJitter)).toBe(3000);
  });

  it('takes off up to 20 % at random so many clients do not reconnect at the same instant', () => {
    expect(reconnectDelayMs(10, REDIS_RECONNECT, () => 1)).toBe(2400);
    expect(reconnectDelayMs(10, REDIS_RECONNECT, () => 0.5)).toBe(2700);
  });

  it('treats odd attempt numbers as the first', () => {
    expect(reconnectDelayMs(0, REDIS_RECONNECT, () => 0)).toBe(100);
    expect(reconnectDelayMs(-3, REDIS_RECONNECT, () => 0)).toBe(100);
  });
});
