import { create } from 'zustand';
import {
  MESSAGES,
  type ChangePasswordRequest,
  type NotificationGlobalSettings,
  type NotificationPreference,
  type NotificationPreferences,
  type ProfileLoad,
  type User,
  type UserImageKind,
  type UserUpdateRequest,
} from '@sitewalk/proto';
import { api, onSuccessfulWrite } from '../lib/api-client';
import { writeChangesProfile } from '../lib/profile-staleness';
import { onServerEvent, onSocketConnect } from '../realtime/socket';
import { local } from '../lib/browser-storage';
import { USER_CACHE_KEYS, clearUserCache, readUserCache, writeUserCache } from '../lib/user-cache';
import { useAuthStore } from './auth.store';

/**
 * The signed-in user's profile load (SPEC §3): user, plan, stats, members and
 * notification preferences; cached for one hour, refetched only when the
 * cache is stale or a fetch is forced.
 */

interface ProfileState {
  data: ProfileLoad | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  load(opts?: { force?: boolean }): Promise<void>;
  /** PUT /users/{id} with the changed fields only. */
  update(changes: UserUpdateRequest): Promise<User>;
  uploadImage(kind: UserImageKind, file: File, onProgress?: (percent: number) => void): Promise<User>;
  deleteImage(kind: UserImageKind): Promise<User>;
  changePassword(input: ChangePasswordRequest): Promise<void>;
  savePreference(pref: NotificationPreference | { global_settings: Partial<NotificationGlobalSettings> }): Promise<void>;
  /** Marks the cached profile load stale (call after creating or deleting what the stats count). */
  invalidate(): void;
  clear(): void;
}

const IMAGE_PATHS: Record<UserImageKind, string> = { avatar: '/users/avatar', cover_image: '/users/cover_image' };
const UPLOAD_FAILED: Record<UserImageKind, string> = { avatar: MESSAGES.uploadAvatarFailed, cover_image: MESSAGES.uploadCoverFailed };

const currentUserId = (): number => {
  const id = useAuthStore.getState().user?.id;
  if (!id) throw new Error(MESSAGES.noUserId);
  return id;
};

/** Changes often come in bursts (a PDF's sheets, a member and their invitation): one load after them. */
const REFETCH_DELAY_MS = 300;
let refetchTimer: ReturnType<typeof setTimeout> | null = null;

export const useProfileStore = create<ProfileState>((set, get) => {
  /** A changed user updates the profile, the cache and the signed-in user. */
  const takeUser = (user: User) => {
    const data = get().data;
    if (data) {
      const next = { ...data, user };
      writeUserCache(local, next, Date.now());
      set({ data: next });
    }
    useAuthStore.getState().setUser(user);
    return user;
  };

  return {
    data: null,
    status: 'idle',
    error: null,

    async load(opts = {}) {
      const userId = currentUserId();
      const have = get().data;
      if (!opts.force) {
        const cached = readUserCache(local, userId, Date.now());
        // SPEC §4: while the cache is valid and a profile is held, no refetch.
        if (cached) {
          if (have?.user.id !== userId) set({ data: cached, status: 'ready', error: null });
          return;
        }
      }
      set({ status: 'loading', error: null });
      try {
        const data = await api.get<ProfileLoad>(`/users/${userId}/profile`, MESSAGES.errorLoadingUser);
        writeUserCache(local, data, Date.now());
        set({ data, status: 'ready', error: null });
        useAuthStore.getState().setUser(data.user);
      } catch (err) {
        set({ status: 'error', error: (err as Error).message || MESSAGES.errorLoadingUser });
      }
    },

    async update(changes) {
      const user = await api.put<User>(`/users/${currentUserId()}`, changes, MESSAGES.profileUpdateFailed);
      return takeUser(user);
    },

    async uploadImage(kind, file, onProgress) {
      const form = new FormData();
      form.append('file', file);
      const user = await api.upload<User>(IMAGE_PATHS[kind], form, UPLOAD_FAILED[kind], { onProgress });
      return takeUser(user);
    },

    async deleteImage(kind) {
      const user = await api.delete<User>(`${IMAGE_PATHS[kind]}/delete`, MESSAGES.updateFailed);
      return takeUser(user);
    },

    async changePassword(input) {
      const id = currentUserId();
      await api.post<null>(`/users/${id}/change-password`, { ...input, target_user_id: id }, MESSAGES.changePasswordFailed);
    },

    async savePreference(pref) {
      const prefs = await api.post<NotificationPreferences>('/notifications/preferences', pref, MESSAGES.preferencesUpdateFailed);
      const data = get().data;
      if (data) {
        const next = { ...data, notification_preferences: prefs };
        writeUserCache(local, next, Date.now());
        set({ data: next });
      }
    },

    invalidate() {
      // The cache is stale for every tab of this browser, and for the next page load.
      local.removeItem(USER_CACHE_KEYS.timestamp);
      // What is on screen stays until the fresh load replaces it; several changes in a row cost one load.
      if (!get().data) return;
      if (refetchTimer) clearTimeout(refetchTimer);
      refetchTimer = setTimeout(() => {
        refetchTimer = null;
        if (get().data && useAuthStore.getState().user) void get().load({ force: true });
      }, REFETCH_DELAY_MS);
    },

    clear() {
      if (refetchTimer) clearTimeout(refetchTimer);
      refetchTimer = null;
      clearUserCache(local);
      set({ data: null, status: 'idle', error: null });
    },
  };
});

// Signing out (here or in another tab) forgets the profile held in memory.
useAuthStore.subscribe((s, prev) => {
  if (prev.status === 'authenticated' && s.status !== 'authenticated') useProfileStore.setState({ data: null, status: 'idle', error: null });
});

// SPEC §4's one-hour cache must not outlive a change it can see: this browser's own
// writes, and the server's live news of changes made by others (a plan given, a join accepted).
const invalidateProfile = () => useProfileStore.getState().invalidate();
onSuccessfulWrite((config) => {
  if (writeChangesProfile(config.method, config.url)) invalidateProfile();
});
onServerEvent('team:changed', invalidateProfile);
onServerEvent('profile:changed', invalidateProfile);
// A finished job made things the counts include (a PDF's sheets, a video's rooms).
onServerEvent('job:progress', (e) => {
  if (e.state === 'completed') invalidateProfile();
});
// News sent while this browser was away (closed, offline) is lost: each (re)connection revalidates
// the held profile once in the background, so a returning browser does not show an hour-old plan.
onSocketConnect(invalidateProfile);
