import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache.js';

const rows = (userId: number) => ({ session: { id: userId * 10, user_id: userId }, user: { id: userId } });
const HOUR = 3_600_000;

function liveCache() {
  const c = new SessionCache({ ttlMs: 5_000, maxEntries: 3, blockMs: 60_000 });
  c.setLive(true);
  return c;
}

describe('SessionCache', () => {
  it('keeps a lookup for its TTL, never past the session expiry', () => {
    const c = liveCache();
    expect(c.store('a', rows(1), 1, 10_000 + HOUR, c.generation, 10_000)).toBe(true);
    expect(c.get('a', 14_999)?.user).toEqual({ id: 1 });
    expect(c.get('a', 15_000)).toBeUndefined();
    expect(c.store('b', rows(2), 2, 12_000, c.generation, 10_000)).toBe(true);
    expect(c.get('b', 11_999)).toBeDefined();
    expect(c.get('b', 12_000)).toBeUndefined();
    // An already expired session is not kept at all.
    expect(c.store('c', rows(3), 3, 10_000, c.generation, 10_000)).toBe(false);
  });

  it('keeps nothing and serves nothing while its subscription is down, and forgets all when it drops', () => {
    const c = new SessionCache({ ttlMs: 5_000, maxEntries: 10, blockMs: 60_000 });
    expect(c.store('a', rows(1), 1, HOUR, c.generation, 0)).toBe(false);
    c.setLive(true);
    expect(c.store('a', rows(1), 1, HOUR, c.generation, 0)).toBe(true);
    c.setLive(false);
    expect(c.get('a', 1)).toBeUndefined();
    c.setLive(true);
    // What was kept before the drop is gone: a message may have been missed meanwhile.
    expect(c.get('a', 1)).toBeUndefined();
  });

  it('refuses a lookup that started before any announcement (the generation changed)', () => {
    const c = liveCache();
    const ticket = c.generation;
    c.apply({ op: 'end', id: 'w1', users: [99] }, 0);
    expect(c.store('a', rows(1), 1, HOUR, ticket, 0)).toBe(false);
    expect(c.store('a', rows(1), 1, HOUR, c.generation, 0)).toBe(true);
  });

  it('forgets a user at "begin" and keeps nothing of them until "end"; other users stay', () => {
    const c = liveCache();
    c.store('a', rows(1), 1, HOUR, c.generation, 0);
    c.store('b', rows(2), 2, HOUR, c.generation, 0);
    c.apply({ op: 'begin', id: 'w1', users: [1] }, 0);
    expect(c.get('a', 1)).toBeUndefined();
    expect(c.get('b', 1)).toBeDefined();
    expect(c.store('a', rows(1), 1, HOUR, c.generation, 1)).toBe(false);
    c.apply({ op: 'end', id: 'w1', users: [1] }, 2);
    expect(c.store('a', rows(1), 1, HOUR, c.generation, 2)).toBe(true);
  });

  it('forgets a user again at "end", and a "begin" whose "end" never came stops holding after blockMs', () => {
    const c = liveCache();
    c.store('a', rows(1), 1, HOUR, c.generation, 0);
    c.apply({ op: 'end', id: 'lost-begin', users: [1] }, 0);
    expect(c.get('a', 1)).toBeUndefined();
    c.apply({ op: 'begin', id: 'w2', users: [1] }, 0);
    expect(c.store('a', rows(1), 1, HOUR, c.generation, 59_999)).toBe(false);
    expect(c.store('a', rows(1), 1, HOUR, c.generation, 60_000)).toBe(true);
  });

  it('holds at most maxEntries, dropping the oldest', () => {
    const c = liveCache();
    for (const k of ['a', 'b', 'c', 'd']) c.store(k, rows(1), 1, HOUR, c.generation, 0);
    expect(c.size).toBe(3);
    expect(c.get('a', 1)).toBeUndefined();
    expect(c.get('d', 1)).toBeDefined();
  });

  describe('share', () => {
    /** A lookup that answers when the test says so, counting how often it was started. */
    function pendingLoad() {
      const started: number[] = [];
      const answers: Array<(v: string) => void> = [];
      const load = (ticket: number) => {
        started.push(ticket);
        return new Promise<string>((resolve) => answers.push(resolve));
      };
      return { load, started, answer: (i: number, v: string) => answers[i](v) };
    }

    it('makes lookups of one token at the same time one lookup, and the next after it settled a new one', async () => {
      const c = liveCache();
      const l = pendingLoad();
      const burst = Array.from({ length: 50 }, () => c.share('a', l.load));
      expect(l.started).toEqual([c.generation]);
      l.answer(0, 'rows of a');
      expect(await Promise.all(burst)).toEqual(Array(50).fill('rows of a'));
      const later = c.share('a', l.load);
      expect(l.started).toHaveLength(2);
      l.answer(1, 'again');
      expect(await later).toBe('again');
    });

    it('never hands a lookup begun before a write to a request that came after it', async () => {
      const c = liveCache();
      const l = pendingLoad();
      const g = c.generation;
      const before = c.share('a', l.load);
      c.apply({ op: 'begin', id: 'w', users: [1] }, 0);
      const after = c.share('a', l.load);
      expect(l.started).toEqual([g, g + 1]);
      // The older lookup settling first does not drop the newer one, which later callers still join.
      l.answer(0, 'read before the write');
      expect(await before).toBe('read before the write');
      const joined = c.share('a', l.load);
      expect(l.started).toHaveLength(2);
      l.answer(1, 'read after the write');
      expect(await after).toBe('read after the write');
      expect(await joined).toBe('read after the write');
    });

    it('shares nothing while its subscription is down, and keeps no failed lookup', async () => {
      const deaf = new SessionCache({ ttlMs: 5_000, maxEntries: 3, blockMs: 60_000 });
      const l = pendingLoad();
      void deaf.share('a', l.load);
      void deaf.share('a', l.load);
      expect(l.started).toHaveLength(2);

      const c = liveCache();
      let calls = 0;
      const failing = () => {
        calls++;
        return Promise.reject(new Error('database away'));
      };
      await expect(Promise.all([c.share('b', failing), c.share('b', failing)])).rejects.toThrow('database away');
      expect(calls).toBe(1);
      await expect(c.share('b', failing)).rejects.toThrow('database away');
      expect(calls).toBe(2);
    });
  });
});
