import { create } from 'zustand';
import { CONSTANTS, MESSAGES, noticeInLanguage, type Notification, type NotificationListResponse, type UnreadCount } from '@sitewalk/proto';
import i18n, { translate } from '../i18n/i18n';
import { api } from '../lib/api-client';
import { dropdownItems } from '../lib/notification-icon';
import { local } from '../lib/browser-storage';
import { openInNewTab } from '../lib/app-navigation';
import { connectSocket, disconnectSocket, onServerEvent, onSocketConnect } from '../realtime/socket';
import { useAuthStore } from './auth.store';
import { useProfileStore } from './profile.store';

/**
 * The user's notifications (SPEC §3, §4, §7): list, unread count, mark read,
 * delete; new ones arrive live over Socket.IO. Failures of these calls are
 * only logged (SPEC §8).
 */

const PER_PAGE = 20;
const PERMISSION_ASKED_KEY = 'notificationPermissionAsked';

interface NotificationsState {
  items: Notification[];
  total: number;
  page: number;
  unread: number;
  status: 'idle' | 'loading' | 'ready' | 'error';
  fetch(page?: number): Promise<void>;
  markRead(id: number): Promise<void>;
  markAllRead(): Promise<void>;
  remove(id: number): Promise<void>;
  deleteRead(): Promise<void>;
  /** A notification pushed by the server. */
  receive(n: Notification): void;
}

const logOnly = (err: unknown) => console.error(err);

/**
 * The unread count is the server's alone: it comes with each list and in the
 * `notification:unread` event the server sends after every change (a new
 * notification included). A list that was on its way while a live event
 * arrived may predate it, so it is asked again; of two lists in flight only
 * the last one asked is kept.
 */
let liveChanges = 0;
let fetchesAsked = 0;
const MAX_LIST_RETRIES = 3;

export const useNotificationsStore = create<NotificationsState>((set, get) => ({
  items: [],
  total: 0,
  page: 1,
  unread: 0,
  status: 'idle',

  async fetch(page = 1) {
    const asked = ++fetchesAsked;
    set({ status: 'loading' });
    for (let attempt = 1; ; attempt++) {
      const changesBefore = liveChanges;
      let r: NotificationListResponse;
      try {
        r = await api.get<NotificationListResponse>('/notifications', MESSAGES.fetchNotificationsFailed, { params: { page, per_page: PER_PAGE } });
      } catch (err) {
        logOnly(err);
        if (asked === fetchesAsked) set({ status: 'error' });
        return;
      }
      if (asked !== fetchesAsked) return;
      if (changesBefore === liveChanges || attempt >= MAX_LIST_RETRIES) {
        set({ items: r.items, total: r.total, page: r.page, unread: r.unread, status: 'ready' });
        return;
      }
    }
  },

  async markRead(id) {
    const before = get().items;
    const target = before.find((n) => n.id === id);
    if (target?.is_read) return;
    set({ items: before.map((n) => (n.id === id ? { ...n, is_read: true } : n)), unread: Math.max(0, get().unread - 1) });
    try {
      const r = await api.post<UnreadCount>('/notifications/mark-read', { notification_id: id }, MESSAGES.fetchNotificationsFailed);
      set({ unread: r.unread });
    } catch (err) {
      logOnly(err);
      set({ items: before, unread: get().unread + 1 });
    }
  },

  async markAllRead() {
    try {
      const r = await api.post<UnreadCount>('/notifications/mark-all-read', null, MESSAGES.fetchNotificationsFailed);
      set({ items: get().items.map((n) => ({ ...n, is_read: true })), unread: r.unread });
    } catch (err) {
      logOnly(err);
    }
  },

  async remove(id) {
    try {
      const r = await api.post<UnreadCount>('/notifications/delete', { notification_id: id }, MESSAGES.fetchNotificationsFailed);
      set({ items: get().items.filter((n) => n.id !== id), total: Math.max(0, get().total - 1), unread: r.unread });
    } catch (err) {
      logOnly(err);
    }
  },

  async deleteRead() {
    try {
      const r = await api.post<UnreadCount & { deleted: number }>('/notifications/delete-read', null, MESSAGES.fetchNotificationsFailed);
      set({ items: get().items.filter((n) => !n.is_read), total: Math.max(0, get().total - r.deleted), unread: r.unread });
    } catch (err) {
      logOnly(err);
    }
  },

  receive(n) {
    liveChanges++;
    if (get().items.some((x) => x.id === n.id)) return;
    // The count is not added to here: the server's `notification:unread` follows with the true one.
    set({ items: [n, ...get().items], total: get().total + 1 });
    showBrowserNotification(n);
  },
}));

/** The unread items of the top-bar dropdown (at most 5). */
export const selectDropdownItems = (s: NotificationsState) => dropdownItems(s.items, CONSTANTS.dropdownUnreadMax);

/** SPEC §9: the browser's permission is asked once, if the user has not decided yet. */
function askPermissionOnce() {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  if (local.getItem(PERMISSION_ASKED_KEY)) return;
  local.setItem(PERMISSION_ASKED_KEY, 'true');
  void Notification.requestPermission().catch(logOnly);
}

/** A live notification also shows as a browser notification while the tab is hidden. */
function showBrowserNotification(n: Notification) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || !document.hidden) return;
  const prefs = useProfileStore.getState().data?.notification_preferences.global_settings;
  if (prefs && prefs.browser === false) return;
  try {
    // In the language the app shows now, as the dropdown shows it.
    const text = noticeInLanguage(n, i18n.language, translate);
    const shown = new Notification(text.title, { body: text.message, tag: `sitewalk-${n.id}` });
    shown.onclick = () => {
      window.focus();
      if (n.link) openInNewTab(n.link);
      shown.close();
    };
  } catch (err) {
    logOnly(err);
  }
}

onServerEvent('notification:new', (n) => useNotificationsStore.getState().receive(n));
onServerEvent('notification:unread', ({ unread }) => {
  liveChanges++;
  useNotificationsStore.setState({ unread });
});
onServerEvent('session:revoked', () => void useAuthStore.getState().logout());
// After a reconnection, what arrived meanwhile is fetched again.
onSocketConnect(() => void useNotificationsStore.getState().fetch());

/** Connects live updates while signed in, and disconnects on sign-out. */
export function startLiveNotifications(): void {
  const sync = (status: string) => {
    if (status === 'authenticated') {
      void connectSocket(() => useAuthStore.getState().token);
      askPermissionOnce();
    } else {
      disconnectSocket();
      useNotificationsStore.setState({ items: [], total: 0, page: 1, unread: 0, status: 'idle' });
    }
  };
  sync(useAuthStore.getState().status);
  useAuthStore.subscribe((s, prev) => {
    if (s.status !== prev.status) sync(s.status);
  });
}
