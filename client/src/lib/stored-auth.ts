import { CONSTANTS, MESSAGES } from '@sitewalk/proto';

/**
 * Session data in browser storage (SPEC §3): one key set in session storage,
 * and one in persistent storage with the `ls_` prefix when the user asked to
 * be remembered. Pure apart from the storages it is handed.
 */

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const AUTH_KEYS = ['token', 'user', 'expiresAt', 'rememberMe', 'language'] as const;
export type AuthKey = (typeof AUTH_KEYS)[number];

export const PERSISTENT_PREFIX = 'ls_';

/** The storage key of an auth field in the session set or the persistent set. */
export const authKey = (key: AuthKey, persistent: boolean) => (persistent ? PERSISTENT_PREFIX + key : key);

export interface StoredUser {
  id: number;
  [k: string]: unknown;
}

export interface StoredAuth {
  token: string;
  user: StoredUser;
  expiresAt: number;
  rememberMe: boolean;
}

export type RawAuth = Partial<Record<AuthKey, string | null>>;

export type AuthValidation = { valid: true; auth: StoredAuth } | { valid: false; error: string };

/**
 * SPEC §5: stored auth is invalid when the token, the user or the expiry is
 * missing, when the expiry is not a number, or when the user has no id.
 */
export function validateStoredAuth(raw: RawAuth): AuthValidation {
  const { token, user, expiresAt } = raw;
  if (!token || !user || !expiresAt) return { valid: false, error: MESSAGES.missingAuthData };
  const expiry = Number(expiresAt);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(expiresAt) || !Number.isFinite(expiry)) {
    return { valid: false, error: MESSAGES.invalidExpiry };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(user);
  } catch {
    return { valid: false, error: MESSAGES.invalidUserData };
  }
  const id = (parsed as { id?: unknown } | null)?.id;
  if (!parsed || typeof parsed !== 'object' || typeof id !== 'number' || !Number.isInteger(id)) {
    return { valid: false, error: MESSAGES.invalidUserData };
  }
  return { valid: true, auth: { token, user: parsed as StoredUser, expiresAt: expiry, rememberMe: raw.rememberMe === 'true' } };
}

/** Reads one key set. */
export function readAuthSet(store: KeyValueStore, persistent: boolean): RawAuth {
  const raw: RawAuth = {};
  for (const k of AUTH_KEYS) raw[k] = store.getItem(authKey(k, persistent));
  return raw;
}

/** Whether a key set holds any sign-in data at all (language alone does not count). */
export const hasAuthData = (raw: RawAuth) => !!(raw.token || raw.user || raw.expiresAt);

/**
 * The stored sign-in of this tab: the session set first (this tab's own
 * sign-in), else the persistent set of a remembered sign-in.
 */
export function loadStoredAuth(session: KeyValueStore, persistent: KeyValueStore): AuthValidation {
  const own = readAuthSet(session, false);
  if (hasAuthData(own)) return validateStoredAuth(own);
  return validateStoredAuth(readAuthSet(persistent, true));
}

/** Writes a sign-in to the set its remember-me flag chooses and clears the other set. */
export function saveStoredAuth(session: KeyValueStore, persistent: KeyValueStore, auth: StoredAuth): void {
  const target = auth.rememberMe ? persistent : session;
  clearStoredAuth(auth.rememberMe ? session : persistent, !auth.rememberMe);
  target.setItem(authKey('token', auth.rememberMe), auth.token);
  target.setItem(authKey('user', auth.rememberMe), JSON.stringify(auth.user));
  target.setItem(authKey('expiresAt', auth.rememberMe), String(auth.expiresAt));
  target.setItem(authKey('rememberMe', auth.rememberMe), String(auth.rememberMe));
}

/** Removes the sign-in keys of one set (the language choice stays). */
export function clearStoredAuth(store: KeyValueStore, persistent: boolean): void {
  for (const k of AUTH_KEYS) if (k !== 'language') store.removeItem(authKey(k, persistent));
}

/**
 * SPEC §4: a refresh is due when the token has expired or expires in under
 * five minutes.
 */
export const refreshDue = (expiresAt: number, now: number) => expiresAt - now < CONSTANTS.tokenRefreshThresholdMs;
