import { create } from 'zustand';
import {
  ADSK_CALLBACK_PARAM,
  ADSK_COOKIE,
  MESSAGES,
  parseAdskCallback,
  type AdskAuthUrlResponse,
  type AdskCheckAuthResponse,
  type AdskRefreshResponse,
} from '@sitewalk/proto';
import { api, errorMessage } from '../lib/api-client';
import { local } from '../lib/browser-storage';
import { USER_CACHE_KEYS } from '../lib/user-cache';
import { cookieValue, nextLink, withoutParam, type LinkEffect, type LinkEvent, type LinkState } from '../lib/design-cloud-link';
import { showToast } from '../lib/toast';
import { translate } from '../i18n/i18n';
import { useAuthStore } from './auth.store';
import { useProfileStore } from './profile.store';
import { useSettingsStore } from './settings.store';

/**
 * The design-cloud link (SPEC §4) for the signed-in user: the pure machine
 * of lib/design-cloud-link.ts, with its effects carried out here. The
 * server keeps Autodesk's tokens; the browser holds only the opaque handle
 * of the adsk_access_token cookie (also cached as adskToken) and the status.
 */

interface DesignCloudState {
  link: LinkState;
  /** The last error shown (SPEC §8: design-cloud errors are stored and logged). */
  error: string | null;
  dispatch(event: LinkEvent): void;
  /** Checks the link for the current user (on each current-user change). */
  recheck(): void;
  connect(): void;
  disconnect(): void;
  /** Shows the ?adsk_callback toast, re-checks on success, and gives back the address without it. */
  takeCallback(search: string): string | null;
}

const hasToken = () => !!(cookieValue(typeof document === 'undefined' ? '' : document.cookie, ADSK_COOKIE) ?? local.getItem(USER_CACHE_KEYS.adskToken));

function clearToken() {
  if (typeof document !== 'undefined') document.cookie = `${ADSK_COOKIE}=; Max-Age=0; path=/; SameSite=Lax`;
  local.removeItem(USER_CACHE_KEYS.adskToken);
  local.setItem(USER_CACHE_KEYS.adskAuthStatus, 'false');
}

export const useDesignCloudStore = create<DesignCloudState>((set, get) => {
  const fail = (message: string) => {
    console.error(`[design cloud] ${message}`);
    set({ error: message });
    showToast('error', translate(message));
  };

  const effects: Record<LinkEffect, () => Promise<void> | void> = {
    async check() {
      try {
        const r = await api.get<AdskCheckAuthResponse>('/autodesk/check-auth', MESSAGES.adskCheckFailed);
        get().dispatch({ type: 'check-ok', authenticated: r.authenticated });
      } catch (err) {
        fail(errorMessage(err, MESSAGES.adskCheckFailed));
        get().dispatch({ type: 'check-failed' });
      }
    },
    async refresh() {
      try {
        const r = await api.post<AdskRefreshResponse>('/autodesk/refresh', null, MESSAGES.adskRefreshFailed);
        local.setItem(USER_CACHE_KEYS.adskToken, r.access_token);
        local.setItem(USER_CACHE_KEYS.adskAuthStatus, 'true');
        get().dispatch({ type: 'refresh-ok' });
      } catch (err) {
        fail(errorMessage(err, MESSAGES.adskRefreshFailed));
        get().dispatch({ type: 'refresh-failed' });
      }
    },
    async 'fetch-auth-url'() {
      try {
        const r = await api.get<AdskAuthUrlResponse>('/autodesk/auth-url', MESSAGES.adskAuthUrlFailed);
        window.location.assign(r.authUrl);
      } catch (err) {
        fail(errorMessage(err, MESSAGES.adskConnectFailed));
        get().dispatch({ type: 'connect-failed' });
      }
    },
    async logout() {
      try {
        await api.post('/autodesk/logout', null, MESSAGES.adskDisconnectFailed);
        get().dispatch({ type: 'disconnect-done' });
        showToast('success', translate(MESSAGES.adskDisconnected));
        void useProfileStore.getState().load({ force: true }).catch(() => undefined);
      } catch (err) {
        fail(errorMessage(err, MESSAGES.adskDisconnectFailed));
        get().dispatch({ type: 'disconnect-failed' });
      }
    },
    'clear-token': clearToken,
    'reload-profile'() {
      void useProfileStore.getState().load({ force: true }).catch(() => undefined);
    },
  };

  return {
    link: 'unknown',
    error: null,
    dispatch(event) {
      const t = nextLink(get().link, event);
      set({ link: t.state });
      if (t.state === 'connected') {
        local.setItem(USER_CACHE_KEYS.adskAuthStatus, 'true');
        const handle = cookieValue(typeof document === 'undefined' ? '' : document.cookie, ADSK_COOKIE);
        if (handle) local.setItem(USER_CACHE_KEYS.adskToken, handle);
      }
      for (const e of t.effects) void effects[e]();
    },
    recheck() {
      const enabled = !!useSettingsStore.getState().settings?.adsk_enable;
      get().dispatch({ type: 'user-changed', enabled, hasUser: !!useAuthStore.getState().user, hasToken: hasToken() });
    },
    connect() {
      get().dispatch({ type: 'connect' });
    },
    disconnect() {
      get().dispatch({ type: 'disconnect' });
    },
    takeCallback(search) {
      const raw = new URLSearchParams(search).get(ADSK_CALLBACK_PARAM);
      if (raw === null) return null;
      const result = parseAdskCallback(raw);
      if (result) {
        showToast(result.status, translate(result.message));
        if (result.status === 'error') set({ error: result.message });
        get().dispatch({ type: 'callback', status: result.status, hasToken: hasToken() });
      }
      return withoutParam(search, ADSK_CALLBACK_PARAM);
    },
  };
});

// SPEC §4: checked again on each current-user change.
let lastUserId: number | null | undefined;
useAuthStore.subscribe((s) => {
  const id = s.user?.id ?? null;
  if (id === lastUserId) return;
  lastUserId = id;
  useDesignCloudStore.getState().recheck();
});
// …and when an administrator switches the integration on or off (or the settings arrive after the user).
useSettingsStore.subscribe((s, prev) => {
  if (!!s.settings?.adsk_enable !== !!prev.settings?.adsk_enable) useDesignCloudStore.getState().recheck();
});
