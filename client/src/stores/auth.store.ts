import { create } from 'zustand';
import {
  CONSTANTS,
  MESSAGES,
  isTwoFactorChallenge,
  type LoginRequest,
  type LoginResponse,
  type LoginStepResponse,
  type RefreshResponse,
  type TwoFactorChallengeResponse,
  type TwoFactorLoginRequest,
  type User,
} from '@sitewalk/proto';
import { api, fetchCsrfCookie, setAuthHooks } from '../lib/api-client';
import { local, session } from '../lib/browser-storage';
import {
  clearStoredAuth,
  loadStoredAuth,
  readAuthSet,
  hasAuthData,
  refreshDue,
  saveStoredAuth,
  type StoredAuth,
} from '../lib/stored-auth';
import { listenAuthBroadcast, sendAuthBroadcast, type AuthBroadcast } from '../lib/auth-broadcast';
import { REFRESH_POLICY, withRetry, type RetryPolicy } from '../lib/retry-policy';
import { clearUserCache } from '../lib/user-cache';
import { isLoginPath, navigateTo } from '../lib/app-navigation';

/**
 * Session handling (SPEC §3, §4, §9): stored sign-in validated on load,
 * refresh when the token expires in under 5 minutes (3 tries, 1 s apart),
 * a check every 5 minutes, cross-tab broadcast of login, refresh and logout,
 * and on a lost session everything cleared and the user sent to /login.
 */

export type AuthStatus = 'checking' | 'authenticated' | 'unauthenticated';

interface AuthState {
  status: AuthStatus;
  token: string | null;
  user: User | null;
  expiresAt: number | null;
  rememberMe: boolean;
  /** Why the stored sign-in was rejected (SPEC §8 auth load errors); logged, not shown. */
  error: string | null;
  /** The session ended by a logout (here or in another tab): /login then forgets the last page. */
  endedByLogout: boolean;
  init(): Promise<void>;
  /** Signs in; throws TwoFactorRequired when the account asks for a code next (then call loginWithCode). */
  login(input: LoginRequest): Promise<User>;
  /** The second step of a sign-in with two-factor: the challenge of the password step and a code. */
  loginWithCode(input: TwoFactorLoginRequest, rememberMe: boolean): Promise<User>;
  /** Keeps a session the server just gave (a sign-in, or a social sign-in's ticket traded for one). */
  adoptLogin(data: LoginResponse, rememberMe: boolean): User;
  logout(): Promise<void>;
  /** Refreshes the token; resolves to the new token or null. */
  refresh(policy?: RetryPolicy): Promise<string | null>;
  /** Keeps the signed-in user in step after a profile change. */
  setUser(user: User): void;
}

const storedAuthOf = (s: Pick<AuthState, 'token' | 'user' | 'expiresAt' | 'rememberMe'>): StoredAuth | null =>
  s.token && s.user && s.expiresAt ? { token: s.token, user: s.user as unknown as StoredAuth['user'], expiresAt: s.expiresAt, rememberMe: s.rememberMe } : null;

function clearEverything() {
  clearStoredAuth(session, false);
  clearStoredAuth(local, true);
  clearUserCache(local);
}

/** The password was right and the account has two-factor on: the sign-in goes on with a code. */
export class TwoFactorRequired extends Error {
  constructor(readonly challenge: TwoFactorChallengeResponse) {
    super('Enter the code from your authenticator app.');
    this.name = 'TwoFactorRequired';
  }
}

let checkTimer: ReturnType<typeof setInterval> | null = null;
let inflightRefresh: Promise<string | null> | null = null;

/** Runs `fn` while holding a lock shared by all tabs, so two tabs never rotate one token. */
async function withTabLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request('sitewalk-auth-refresh', fn) : fn();
}

const isUnauthorized = (err: unknown) => {
  const status = (err as { status?: number | null }).status;
  return status === 401 || status === 403;
};

export const useAuthStore = create<AuthState>((set, get) => {
  const adopt = (auth: StoredAuth) =>
    set({
      status: 'authenticated',
      token: auth.token,
      user: auth.user as unknown as User,
      expiresAt: auth.expiresAt,
      rememberMe: auth.rememberMe,
      error: null,
      endedByLogout: false,
    });

  const dropSession = (error: string | null, endedByLogout = false) => {
    stopCheck();
    clearEverything();
    set({ status: 'unauthenticated', token: null, user: null, expiresAt: null, rememberMe: false, error, endedByLogout });
  };

  const startCheck = () => {
    stopCheck();
    checkTimer = setInterval(() => {
      const { status, expiresAt } = get();
      if (status !== 'authenticated' || !expiresAt || !refreshDue(expiresAt, Date.now())) return;
      void get()
        .refresh(REFRESH_POLICY)
        .then((token) => {
          if (!token) loseSession(MESSAGES.tokenExpiredRefreshFailed);
        });
    }, CONSTANTS.authCheckIntervalMs);
  };

  /** The session is gone: clear it all, and go to /login unless already on a login path. */
  const loseSession = (error: string | null) => {
    if (get().status === 'unauthenticated') return;
    const userId = get().user?.id ?? null;
    dropSession(error);
    sendAuthBroadcast(local, { type: 'logout', userId });
    const { pathname, search, hash } = window.location;
    if (!isLoginPath(pathname)) navigateTo('/login', { replace: true, state: { from: { pathname, search, hash } } });
  };

  const onBroadcast = (m: AuthBroadcast) => {
    const state = get();
    if (m.type === 'login') {
      if (state.status === 'authenticated' && state.user?.id === m.auth.user.id && state.token === m.auth.token) return;
      // The sign-in screen of this tab then moves on by itself (it redirects signed-in users).
      saveStoredAuth(session, local, m.auth);
      adopt(m.auth);
      startCheck();
    } else if (m.type === 'refresh') {
      const current = storedAuthOf(state);
      if (!current) return;
      const next = { ...current, token: m.token, expiresAt: m.expiresAt };
      saveStoredAuth(session, local, next);
      set({ token: m.token, expiresAt: m.expiresAt });
    } else if (m.type === 'logout') {
      // Protected screens send an unauthenticated user to /login on their own.
      if (state.status !== 'authenticated') return;
      dropSession(null, true);
    }
  };

  if (typeof window !== 'undefined') listenAuthBroadcast(onBroadcast);

  /** The session a sign-in gave (after the password, or after the code): stored, adopted, told to the other tabs. */
  const signedIn = (data: LoginResponse, rememberMe: boolean): User => {
    const auth: StoredAuth = {
      token: data.token,
      user: data.user as unknown as StoredAuth['user'],
      expiresAt: data.expiresAt,
      rememberMe,
    };
    try {
      clearUserCache(local);
      saveStoredAuth(session, local, auth);
    } catch {
      throw new Error(MESSAGES.loginStoreFailed);
    }
    adopt(auth);
    sendAuthBroadcast(local, { type: 'login', auth });
    startCheck();
    return data.user;
  };

  setAuthHooks({
    getToken: () => get().token,
    refresh: () => get().refresh({ attempts: 1, delayMs: () => 0 }),
    onAuthLost: () => loseSession(MESSAGES.tokenExpiredRefreshFailed),
  });

  return {
    status: 'checking',
    token: null,
    user: null,
    expiresAt: null,
    rememberMe: false,
    error: null,
    endedByLogout: false,

    async init() {
      const result = loadStoredAuth(session, local);
      if (!result.valid) {
        const hadData = hasAuthData(readAuthSet(session, false)) || hasAuthData(readAuthSet(local, true));
        if (hadData) console.warn(result.error);
        clearStoredAuth(session, false);
        clearStoredAuth(local, true);
        set({ status: 'unauthenticated', token: null, user: null, expiresAt: null, error: result.error });
        return;
      }
      const auth = result.auth;
      set({ token: auth.token, user: auth.user as unknown as User, expiresAt: auth.expiresAt, rememberMe: auth.rememberMe });
      if (refreshDue(auth.expiresAt, Date.now())) {
        const token = await get().refresh(REFRESH_POLICY);
        if (!token) {
          console.warn(MESSAGES.tokenExpiredRefreshFailed);
          dropSession(MESSAGES.tokenExpiredRefreshFailed);
          return;
        }
      }
      set({ status: 'authenticated', error: null });
      startCheck();
    },

    async login(input) {
      // The CSRF cookie first, so the login and every later call carry a valid pair.
      await fetchCsrfCookie().catch(() => undefined);
      const data = await api.post<LoginStepResponse>('/login', input, MESSAGES.loginFailed, { skipAuthRefresh: true });
      if (isTwoFactorChallenge(data)) throw new TwoFactorRequired(data);
      return signedIn(data, !!input.remember_me);
    },

    async loginWithCode(input, rememberMe) {
      const data = await api.post<LoginResponse>('/login/two-factor', input, MESSAGES.loginFailed, { skipAuthRefresh: true });
      return signedIn(data, rememberMe);
    },

    adoptLogin(data, rememberMe) {
      return signedIn(data, rememberMe);
    },

    async logout() {
      const { token, user } = get();
      if (token) await api.post('/logout', null, 'Logout failed', { skipAuthRefresh: true }).catch(() => undefined);
      dropSession(null, true);
      sendAuthBroadcast(local, { type: 'logout', userId: user?.id ?? null });
    },

    refresh(policy = REFRESH_POLICY) {
      if (inflightRefresh) return inflightRefresh;
      inflightRefresh = withTabLock(async () => {
        const before = get().token;
        // Another tab may have rotated the token while this one waited for the lock.
        const stored = loadStoredAuth(session, local);
        if (stored.valid && stored.auth.token !== before && !refreshDue(stored.auth.expiresAt, Date.now())) {
          set({ token: stored.auth.token, expiresAt: stored.auth.expiresAt });
          return stored.auth.token;
        }
        if (!before) return null;
        try {
          const r = await withRetry(
            () =>
              api.post<RefreshResponse>('/auth/refresh', null, MESSAGES.tokenExpiredRefreshFailed, {
                skipAuthRefresh: true,
                headers: { Authorization: `Bearer ${before}` },
              }),
            policy,
            { shouldRetry: (err) => !isUnauthorized(err) },
          );
          const current = storedAuthOf(get());
          if (current) saveStoredAuth(session, local, { ...current, token: r.token, expiresAt: r.expiresAt });
          set({ token: r.token, expiresAt: r.expiresAt });
          sendAuthBroadcast(local, { type: 'refresh', token: r.token, expiresAt: r.expiresAt });
          return r.token;
        } catch {
          return null;
        }
      }).finally(() => {
        inflightRefresh = null;
      });
      return inflightRefresh;
    },

    setUser(user) {
      const current = storedAuthOf(get());
      if (current) saveStoredAuth(session, local, { ...current, user: user as unknown as StoredAuth['user'] });
      set({ user });
    },
  };
});

function stopCheck() {
  if (checkTimer) clearInterval(checkTimer);
  checkTimer = null;
}
