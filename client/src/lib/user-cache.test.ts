import { describe, expect, it } from 'vitest';
import type { ProfileLoad } from '@sitewalk/proto';
import { memoryStore } from './browser-storage';
import { clearUserCache, readUserCache, writeUserCache } from './user-cache';

const profile = {
  user: { id: 5, username: 'ana' },
  plan_info: null,
  user_stats: { projects: 2, visits: 1, sheets: 4, open_snags: 0 },
  plan_slot: null,
  plan_members: { members: [], invites: [], id_owner: null },
  notification_preferences: { global_settings: { in_app: true, email: true, browser: true }, preferences: [] },
} as unknown as ProfileLoad;

describe('user data cache (1 hour)', () => {
  const t0 = 1_700_000_000_000;

  it('gives back the profile load of the same user within the hour', () => {
    const store = memoryStore();
    writeUserCache(store, profile, t0);
    expect(readUserCache(store, 5, t0 + 59 * 60_000)).toEqual(profile);
  });

  it('is stale after an hour, and never serves another user', () => {
    const store = memoryStore();
    writeUserCache(store, profile, t0);
    expect(readUserCache(store, 5, t0 + 60 * 60_000)).toBeNull();
    expect(readUserCache(store, 6, t0)).toBeNull();
  });

  it('is cleared completely', () => {
    const store = memoryStore({ unrelated: 'x' });
    writeUserCache(store, profile, t0);
    clearUserCache(store);
    expect(store.dump()).toEqual({ unrelated: 'x' });
  });
});
