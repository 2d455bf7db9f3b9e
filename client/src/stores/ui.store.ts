import { create } from 'zustand';
import { CONSTANTS, type LanguageCode } from '@sitewalk/proto';
import { local, session } from '../lib/browser-storage';
import { applyLanguage, storedLanguage } from '../i18n/language';
import { api } from '../lib/api-client';

/**
 * Interface state: sidebar collapse (remembered for the session), dark mode
 * (persisted), language (with a spinner while it loads), the running tour,
 * the logout modal and the dismissed announcement.
 */

const SIDEBAR_KEY = 'sidebarCollapsed';
const DARK_KEY = 'darkMode';
const ANNOUNCEMENT_KEY = 'dismissedAnnouncement';

const narrowScreen = () => typeof window !== 'undefined' && window.innerWidth < CONSTANTS.sidebarCollapseWidthPx;

/** The collapse state the user chose in this session, if any. */
export function rememberedSidebarCollapsed(): boolean | null {
  const v = session.getItem(SIDEBAR_KEY);
  return v === null ? null : v === 'true';
}

function initialSidebar(): boolean {
  return narrowScreen() || (rememberedSidebarCollapsed() ?? false);
}

function applyDarkMode(dark: boolean) {
  document.documentElement.setAttribute('data-bs-theme', dark ? 'dark' : 'light');
}

interface UiState {
  sidebarCollapsed: boolean;
  /** Under 768 px: the sidebar is off-canvas, shown over the page only while open. */
  narrowScreen: boolean;
  sidebarDrawerOpen: boolean;
  darkMode: boolean;
  language: LanguageCode;
  languageLoading: boolean;
  tourActive: boolean;
  logoutModalOpen: boolean;
  /** The visitor picked a language on a sign-in screen: it wins over the account's stored one. */
  languagePickedSignedOut: boolean;
  dismissedAnnouncement: string | null;
  setSidebarCollapsed(collapsed: boolean, remember?: boolean): void;
  setNarrowScreen(narrow: boolean): void;
  setSidebarDrawerOpen(open: boolean): void;
  /** Wide screens: collapse or expand the sidebar (remembered); narrow ones: open or close the drawer. */
  toggleSidebar(): void;
  setDarkMode(dark: boolean): void;
  /**
   * Switches language; `saveOnServer` stores it for the signed-in user too (POST /language);
   * `quiet` shows no spinner over the page (the start of a screen that is already on show).
   */
  setLanguage(code: LanguageCode, opts?: { saveOnServer?: boolean; pickedSignedOut?: boolean; quiet?: boolean }): Promise<void>;
  setTourActive(active: boolean): void;
  setLogoutModalOpen(open: boolean): void;
  dismissAnnouncement(text: string): void;
}

export const useUiStore = create<UiState>((set, get) => ({
  sidebarCollapsed: typeof window === 'undefined' ? false : initialSidebar(),
  narrowScreen: narrowScreen(),
  sidebarDrawerOpen: false,
  darkMode: local.getItem(DARK_KEY) === 'true',
  language: typeof window === 'undefined' ? 'en' : storedLanguage(),
  languageLoading: false,
  tourActive: false,
  logoutModalOpen: false,
  languagePickedSignedOut: false,
  dismissedAnnouncement: local.getItem(ANNOUNCEMENT_KEY),

  setSidebarCollapsed(collapsed, remember = true) {
    if (remember) session.setItem(SIDEBAR_KEY, String(collapsed));
    set({ sidebarCollapsed: collapsed });
  },
  setNarrowScreen(narrow) {
    set({ narrowScreen: narrow, sidebarDrawerOpen: false });
  },
  setSidebarDrawerOpen(open) {
    set({ sidebarDrawerOpen: open });
  },
  toggleSidebar() {
    if (get().narrowScreen) get().setSidebarDrawerOpen(!get().sidebarDrawerOpen);
    else get().setSidebarCollapsed(!get().sidebarCollapsed);
  },
  setDarkMode(dark) {
    local.setItem(DARK_KEY, String(dark));
    applyDarkMode(dark);
    set({ darkMode: dark });
  },
  async setLanguage(code, opts = {}) {
    set({ languageLoading: !opts.quiet, ...(opts.pickedSignedOut ? { languagePickedSignedOut: true } : {}) });
    try {
      await applyLanguage(code);
      set({ language: code });
      if (opts.saveOnServer) {
        await api.post('/language', { locale: code }, 'Failed to save the language').catch((err: unknown) => console.error(err));
      }
    } finally {
      set({ languageLoading: false });
    }
  },
  setTourActive(active) {
    set({ tourActive: active });
  },
  setLogoutModalOpen(open) {
    set({ logoutModalOpen: open });
  },
  dismissAnnouncement(text) {
    local.setItem(ANNOUNCEMENT_KEY, text);
    set({ dismissedAnnouncement: text });
  },
}));

/** Applies the persisted dark mode before the first paint. */
export const applyStoredDarkMode = () => applyDarkMode(useUiStore.getState().darkMode);
