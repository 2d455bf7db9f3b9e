import { CONSTANTS, type ProfileLoad } from '@sitewalk/proto';
import type { KeyValueStore } from './stored-auth';

/**
 * Per-user data cached in local storage (SPEC §3, §4): profile, plan, stats,
 * plan slot, members, invites, preferences, owner id, design-cloud token and
 * auth status, and the cache timestamp. Valid for one hour.
 */
export const USER_CACHE_KEYS = {
  profile: 'userProfile',
  plan: 'userPlan',
  stats: 'userStats',
  planSlot: 'userPlanSlot',
  members: 'planMembers',
  invites: 'planInvites',
  preferences: 'notificationPreferences',
  ownerId: 'planOwnerId',
  adskToken: 'adskToken',
  adskAuthStatus: 'adskAuthStatus',
  timestamp: 'userDataTimestamp',
} as const;

export const ONBOARDING_KEY = 'onboardingCompleted';

const json = (s: string | null): unknown => {
  if (s === null) return undefined;
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
};

export function writeUserCache(store: KeyValueStore, data: ProfileLoad, now: number): void {
  const k = USER_CACHE_KEYS;
  store.setItem(k.profile, JSON.stringify(data.user));
  store.setItem(k.plan, JSON.stringify(data.plan_info));
  store.setItem(k.stats, JSON.stringify(data.user_stats));
  store.setItem(k.planSlot, JSON.stringify(data.plan_slot));
  store.setItem(k.members, JSON.stringify(data.plan_members?.members ?? []));
  store.setItem(k.invites, JSON.stringify(data.plan_members?.invites ?? []));
  store.setItem(k.ownerId, JSON.stringify(data.plan_members?.id_owner ?? null));
  store.setItem(k.preferences, JSON.stringify(data.notification_preferences));
  store.setItem(k.timestamp, String(now));
}

/** The cached profile load of this user when younger than one hour, else null. */
export function readUserCache(store: KeyValueStore, userId: number, now: number): ProfileLoad | null {
  const k = USER_CACHE_KEYS;
  const at = Number(store.getItem(k.timestamp));
  if (!at || now - at >= CONSTANTS.userCacheLifetimeMs || now < at) return null;
  const user = json(store.getItem(k.profile)) as ProfileLoad['user'] | undefined;
  if (!user || user.id !== userId) return null;
  const prefs = json(store.getItem(k.preferences)) as ProfileLoad['notification_preferences'] | undefined;
  const stats = json(store.getItem(k.stats)) as ProfileLoad['user_stats'] | undefined;
  if (!prefs || !stats) return null;
  return {
    user,
    plan_info: (json(store.getItem(k.plan)) ?? null) as ProfileLoad['plan_info'],
    user_stats: stats,
    plan_slot: (json(store.getItem(k.planSlot)) ?? null) as ProfileLoad['plan_slot'],
    plan_members: {
      members: (json(store.getItem(k.members)) ?? []) as ProfileLoad['plan_members']['members'],
      invites: (json(store.getItem(k.invites)) ?? []) as ProfileLoad['plan_members']['invites'],
      id_owner: (json(store.getItem(k.ownerId)) ?? null) as number | null,
    },
    notification_preferences: prefs,
  };
}

/** Removes every cached user entry (on logout). */
export function clearUserCache(store: KeyValueStore): void {
  for (const key of Object.values(USER_CACHE_KEYS)) store.removeItem(key);
}
