import { describe, expect, it } from 'vitest';
import { REFRESH_POLICY, retryAfterMs, retryDelays, UNAVAILABLE_POLICY, unavailableRetryDelay, withRetry, type RetryPolicy } from './retry-policy';

const noWait = async () => undefined;

describe('retry policies', () => {
  it('refreshes a session at most 3 times, 1 s apart', () => {
    expect(REFRESH_POLICY.attempts).toBe(3);
    expect(retryDelays(REFRESH_POLICY)).toEqual([1000, 1000]);
  });
});

describe('withRetry', () => {
  const DOUBLING: RetryPolicy = { attempts: 4, delayMs: (retry) => 350 * 2 ** retry };

  it('returns the first success and waits the policy delays before each retry', async () => {
    const waited: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw new Error('not yet');
        return 'ok';
      },
      DOUBLING,
      { wait: async (ms) => void waited.push(ms) },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    expect(waited).toEqual([350, 700]);
  });

  it('gives up after the last try with the last error', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new Error(`fail ${calls}`);
        },
        REFRESH_POLICY,
        { wait: noWait },
      ),
    ).rejects.toThrow('fail 3');
    expect(calls).toBe(3);
  });

  it('stops early when the error will not get better', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw Object.assign(new Error('unauthorized'), { status: 401 });
        },
        REFRESH_POLICY,
        { wait: noWait, shouldRetry: (e) => (e as { status?: number }).status !== 401 },
      ),
    ).rejects.toThrow('unauthorized');
    expect(calls).toBe(1);
  });
});

describe('reads after a 503 (the server is briefly away from its database)', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const failed = (over: Partial<Parameters<typeof unavailableRetryDelay>[0]> = {}) => ({ method: 'get', status: 503, retryAfter: null, retriesDone: 0, ...over });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Thu, 01 Jan 2026 12:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Thu, 01 Jan 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });

  it('waits what the server asks, capped at 10 s', () => {
    expect(unavailableRetryDelay(failed({ retryAfter: '2' }), UNAVAILABLE_POLICY, now)).toBe(2000);
    expect(unavailableRetryDelay(failed({ retryAfter: '3600' }), UNAVAILABLE_POLICY, now)).toBe(10_000);
  });

  it('without Retry-After waits 1 s, doubling', () => {
    expect([0, 1, 2].map((retriesDone) => unavailableRetryDelay(failed({ retriesDone }), UNAVAILABLE_POLICY, now))).toEqual([1000, 2000, 4000]);
  });

  it('gives up after 3 retries', () => {
    expect(unavailableRetryDelay(failed({ retriesDone: 2, retryAfter: '1' }), UNAVAILABLE_POLICY, now)).toBe(1000);
    expect(unavailableRetryDelay(failed({ retriesDone: 3, retryAfter: '1' }), UNAVAILABLE_POLICY, now)).toBeNull();
  });

  it('never repeats a write, and repeats nothing but a 503', () => {
    for (const method of ['post', 'PUT', 'patch', 'delete']) expect(unavailableRetryDelay(failed({ method }), UNAVAILABLE_POLICY, now)).toBeNull();
    expect(unavailableRetryDelay(failed({ method: 'HEAD' }), UNAVAILABLE_POLICY, now)).toBe(1000);
    for (const status of [500, 502, 504, 429, 401, null]) expect(unavailableRetryDelay(failed({ status }), UNAVAILABLE_POLICY, now)).toBeNull();
  });
});
