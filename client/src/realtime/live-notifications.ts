import { noticeInLanguage, type Notification } from '@sitewalk/proto';
import i18n, { translate } from '../i18n/i18n';
import { local } from '../lib/browser-storage';
import { openInNewTab } from '../lib/app-navigation';
import { useAuthStore } from '../stores/auth.store';
import { useProfileStore } from '../stores/profile.store';
import { connectSocket, disconnectSocket, onServerEvent } from './socket';

/**
 * The live side of the user's notifications (SPEC §4, §9): the Socket.IO
 * connection while signed in, the browser's notification for a new one while
 * the tab is hidden, and the sign-out of a revoked session. The list and the
 * unread count are reads of the query cache
 * (components/notifications/use-notifications-query.ts).
 */

const PERMISSION_ASKED_KEY = 'notificationPermissionAsked';

const logOnly = (err: unknown) => console.error(err);

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
    // In the language the app shows now, as the dropdown shows it. The tag makes a repeat replace the first.
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

onServerEvent('notification:new', showBrowserNotification);
onServerEvent('session:revoked', () => void useAuthStore.getState().logout());

/** Connects live updates while signed in, and disconnects on sign-out. */
export function startLiveNotifications(): void {
  const sync = (status: string) => {
    if (status === 'authenticated') {
      void connectSocket(() => useAuthStore.getState().token);
      askPermissionOnce();
    } else {
      disconnectSocket();
    }
  };
  sync(useAuthStore.getState().status);
  useAuthStore.subscribe((s, prev) => {
    if (s.status !== prev.status) sync(s.status);
  });
}
