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
});
