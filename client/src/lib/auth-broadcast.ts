import { CONSTANTS } from '@sitewalk/proto';
import type { KeyValueStore, StoredAuth } from './stored-auth';

/**
 * Cross-tab broadcast of login, refresh and logout (SPEC §4): a message is
 * written to persistent storage, which fires a `storage` event in every other
 * tab, and removed again after 500 ms so no sign-in data lingers there.
 */

export const BROADCAST_KEY = 'sw_auth_broadcast';

export type AuthBroadcast =
  | { type: 'login'; auth: StoredAuth; language?: string }
  | { type: 'refresh'; token: string; expiresAt: number }
  | { type: 'logout'; userId: number | null };

interface Envelope {
  message: AuthBroadcast;
  /** Makes every write a change, so two equal messages both fire events. */
  nonce: string;
}

const nonce = () => Math.random().toString(36).slice(2) + Date.now().toString(36);

/** Writes a message for the other tabs and schedules its removal. */
export function sendAuthBroadcast(
  store: KeyValueStore,
  message: AuthBroadcast,
  schedule: (fn: () => void, ms: number) => unknown = setTimeout,
): void {
  const value = JSON.stringify({ message, nonce: nonce() } satisfies Envelope);
  store.setItem(BROADCAST_KEY, value);
  schedule(() => {
    // Only remove our own entry: another tab may have written a newer one.
    if (store.getItem(BROADCAST_KEY) === value) store.removeItem(BROADCAST_KEY);
  }, CONSTANTS.broadcastEntryLifetimeMs);
}

/** The message of a storage event, or null when the event is not ours or is a removal. */
export function parseAuthBroadcast(key: string | null, newValue: string | null): AuthBroadcast | null {
  if (key !== BROADCAST_KEY || !newValue) return null;
  try {
    const { message } = JSON.parse(newValue) as Envelope;
    if (!message || typeof message !== 'object') return null;
    if (message.type === 'logout') return { type: 'logout', userId: typeof message.userId === 'number' ? message.userId : null };
    if (message.type === 'refresh' && typeof message.token === 'string' && Number.isFinite(message.expiresAt)) return message;
    if (message.type === 'login' && message.auth && typeof message.auth.token === 'string' && typeof message.auth.user?.id === 'number') return message;
    return null;
  } catch {
    return null;
  }
}

/** Calls `handler` for every message another tab broadcasts; returns the unsubscribe. */
export function listenAuthBroadcast(handler: (m: AuthBroadcast) => void): () => void {
  const onStorage = (e: StorageEvent) => {
    const m = parseAuthBroadcast(e.key, e.newValue);
    if (m) handler(m);
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
