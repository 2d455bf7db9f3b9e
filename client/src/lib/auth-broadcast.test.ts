import { describe, expect, it } from 'vitest';
import { memoryStore } from './browser-storage';
import { BROADCAST_KEY, parseAuthBroadcast, sendAuthBroadcast } from './auth-broadcast';

describe('cross-tab auth broadcast', () => {
  it('writes the message for other tabs and removes it after 500 ms', () => {
    const store = memoryStore();
    const scheduled: { fn: () => void; ms: number }[] = [];
    sendAuthBroadcast(store, { type: 'logout', userId: 3 }, (fn, ms) => scheduled.push({ fn, ms }));
    const written = store.getItem(BROADCAST_KEY);
    expect(parseAuthBroadcast(BROADCAST_KEY, written)).toEqual({ type: 'logout', userId: 3 });
    expect(scheduled.map((s) => s.ms)).toEqual([500]);
    scheduled[0].fn();
    expect(store.getItem(BROADCAST_KEY)).toBeNull();
  });

  it('does not remove a newer message written meanwhile', () => {
    const store = memoryStore();
    const scheduled: (() => void)[] = [];
    sendAuthBroadcast(store, { type: 'logout', userId: 1 }, (fn) => scheduled.push(fn));
    sendAuthBroadcast(store, { type: 'refresh', token: 'new', expiresAt: 9 }, () => undefined);
    scheduled[0]();
    expect(parseAuthBroadcast(BROADCAST_KEY, store.getItem(BROADCAST_KEY))).toEqual({ type: 'refresh', token: 'new', expiresAt: 9 });
  });

  it('makes two equal messages different writes, so both reach the other tabs', () => {
    const store = memoryStore();
    sendAuthBroadcast(store, { type: 'logout', userId: 1 }, () => undefined);
    const first = store.getItem(BROADCAST_KEY);
    sendAuthBroadcast(store, { type: 'logout', userId: 1 }, () => undefined);
    expect(store.getItem(BROADCAST_KEY)).not.toBe(first);
  });

  it('carries a login with the sign-in data', () => {
    const store = memoryStore();
    const auth = { token: 't', user: { id: 4 }, expiresAt: 123, rememberMe: false };
    sendAuthBroadcast(store, { type: 'login', auth }, () => undefined);
    expect(parseAuthBroadcast(BROADCAST_KEY, store.getItem(BROADCAST_KEY))).toEqual({ type: 'login', auth });
  });

  it('ignores other keys, removals and malformed values', () => {
    expect(parseAuthBroadcast('other', '{"message":{"type":"logout"}}')).toBeNull();
    expect(parseAuthBroadcast(BROADCAST_KEY, null)).toBeNull();
    expect(parseAuthBroadcast(BROADCAST_KEY, 'garbage')).toBeNull();
    expect(parseAuthBroadcast(BROADCAST_KEY, '{"message":{"type":"login","auth":{"token":"t","user":{}}}}')).toBeNull();
    expect(parseAuthBroadcast(BROADCAST_KEY, '{"message":{"type":"refresh","token":"t"}}')).toBeNull();
  });
});
