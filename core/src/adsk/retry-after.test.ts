import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after.js';

describe('retryAfterMs', () => {
  it('reads seconds', () => {
    expect(retryAfterMs('3', 0)).toBe(3000);
    expect(retryAfterMs('0', 0)).toBe(0);
  });
  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2026-11-26T10:00:00Z');
    expect(retryAfterMs('Thu, 26 Nov 2026 10:00:05 GMT', 0, now)).toBe(5000);
    expect(retryAfterMs('Thu, 26 Nov 2026 09:00:00 GMT', 0, now)).toBe(0);
  });
  it('never waits longer than the cap', () => {
    expect(retryAfterMs('86400', 0, Date.now(), 60_000)).toBe(60_000);
  });
  it('backs off when the header is missing or unreadable', () => {
    expect(retryAfterMs(null, 0)).toBe(1000);
    expect(retryAfterMs('soon', 2)).toBe(4000);
  });
});
