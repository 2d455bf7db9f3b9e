import { create } from 'zustand';
import { CONSTANTS, SETTINGS_DEFAULTS, type Settings } from '@sitewalk/proto';
import { api, errorMessage } from '../lib/api-client';
import { local } from '../lib/browser-storage';
import { tk } from '../lib/i18n-keys';
import { useAuthStore } from './auth.store';

/**
 * Application settings (SPEC §3), from GET /settings, cached in local storage
 * for one hour and revalidated in the background on every load; a forced load
 * (a page reload, or after an administrator saved settings) bypasses the
 * cache, and a change saved in another tab reaches this one.
 */

const CACHE_KEY = 'appSettings';
const CACHE_AT_KEY = 'appSettingsTimestamp';
/** Whose settings the cache holds: someone not signed in gets only the public ones. */
const CACHE_VIEWER_KEY = 'appSettingsViewer';
const viewer = () => String(useAuthStore.getState().user?.id ?? 'anonymous');

interface SettingsState {
  settings: Settings | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  load(force?: boolean): Promise<void>;
  /** Takes settings the server just returned (after PUT /settings). */
  replace(s: Partial<Settings>): void;
}

const withDefaults = (s: Partial<Settings> | null | undefined): Settings => ({ ...SETTINGS_DEFAULTS, ...(s ?? {}) });

function readCache(now: number): Settings | null {
  const at = Number(local.getItem(CACHE_AT_KEY));
  if (!at || now - at >= CONSTANTS.settingsCacheLifetimeMs || now < at) return null;
  if (local.getItem(CACHE_VIEWER_KEY) !== viewer()) return null;
  try {
    const parsed = JSON.parse(local.getItem(CACHE_KEY) ?? 'null') as Partial<Settings> | null;
    return parsed && typeof parsed === 'object' ? withDefaults(parsed) : null;
  } catch {
    return null;
  }
}

function writeCache(s: Settings, now: number) {
  local.setItem(CACHE_KEY, JSON.stringify(s));
  local.setItem(CACHE_AT_KEY, String(now));
  local.setItem(CACHE_VIEWER_KEY, viewer());
}

export const useSettingsStore = create<SettingsState>((set, get) => ({
  settings: null,
  status: 'idle',
  error: null,
  async load(force = false) {
    const cached = force ? null : readCache(Date.now());
    if (cached) {
      // Shown at once, then checked in the background: a change made since (a new
      // name, colour or logo) replaces it within this load, not an hour later.
      set({ settings: cached, status: 'ready', error: null });
      void api
        .get<Partial<Settings>>('/settings', tk('Could not reach the server'))
        .then((fresh) => {
          const s = withDefaults(fresh);
          writeCache(s, Date.now());
          if (JSON.stringify(s) !== JSON.stringify(get().settings)) set({ settings: s });
        })
        .catch(() => undefined); // the cached copy stays; the next load tries again
      return;
    }
    set({ status: 'loading', error: null });
    try {
      const s = withDefaults(await api.get<Partial<Settings>>('/settings', tk('Could not reach the server')));
      writeCache(s, Date.now());
      set({ settings: s, status: 'ready', error: null });
    } catch (err) {
      set({ status: get().settings ? 'ready' : 'error', error: errorMessage(err, tk('Could not reach the server')) });
    }
  },
  replace(s) {
    const merged = withDefaults({ ...(get().settings ?? {}), ...s });
    writeCache(merged, Date.now());
    set({ settings: merged, status: 'ready', error: null });
  },
}));

/** The settings, with the defaults until they are loaded. */
export const useSettings = (): Settings => useSettingsStore((s) => s.settings) ?? SETTINGS_DEFAULTS;

/** Whether this page load is a reload, which SPEC §4 counts as a forced refresh. */
export function isPageReload(): boolean {
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return nav?.type === 'reload';
}

// Signing in or out changes what GET /settings shows (the public keys only without a session).
let lastViewer = viewer();
useAuthStore.subscribe(() => {
  const now = viewer();
  if (now === lastViewer) return;
  lastViewer = now;
  if (useSettingsStore.getState().status !== 'idle') void useSettingsStore.getState().load(true);
});

/** Another tab saved new settings (its cache write): this tab takes them too. */
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key !== CACHE_KEY || !e.newValue) return;
    try {
      useSettingsStore.setState({ settings: withDefaults(JSON.parse(e.newValue) as Partial<Settings>) });
    } catch {
      /* a half-written value: the next load fixes it */
    }
  });
}
