import { create } from 'zustand';
import { CONSTANTS, SETTINGS_DEFAULTS, type Settings } from '@sitewalk/proto';
import { api, errorMessage } from '../lib/api-client';
import { local } from '../lib/browser-storage';
import { tk } from '../lib/i18n-keys';

/**
 * Application settings (SPEC §3), from GET /settings, cached in local storage
 * for one hour; a forced load (a page reload, or after an administrator saved
 * settings) bypasses the cache.
 */

const CACHE_KEY = 'appSettings';
const CACHE_AT_KEY = 'appSettingsTimestamp';

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
}

export const useSettingsStore = create<SettingsState>((set, get) => ({
  settings: null,
  status: 'idle',
  error: null,
  async load(force = false) {
    const cached = force ? null : readCache(Date.now());
    if (cached) {
      set({ settings: cached, status: 'ready', error: null });
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
