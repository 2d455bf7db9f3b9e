import axios, { AxiosError, type AxiosProgressEvent, type AxiosRequestConfig, type InternalAxiosRequestConfig } from 'axios';
import { CONSTANTS, type Envelope } from '@sitewalk/proto';
import { sleep, unavailableRetryDelay } from './retry-policy';
import { planLimitText } from './plan-limits';
import { translate } from '../i18n/i18n';

/**
 * The one HTTP client of the app (SPEC §7): base /api, JSON, cookies, bearer
 * token, CSRF header, 30 s timeout (none for video upload). Answers are
 * unwrapped from the {status, message, data} envelope; a failure raises the
 * server's message or the caller's SPEC §8 default. On HTTP 401 it tries one
 * token refresh and retries the request once; when that fails the auth hooks
 * clear the sign-in and send the user to /login. A read (GET) answered 503
 * — the server is briefly away from its database — is tried again after the
 * server's Retry-After, a few times (retry-policy.ts); a write never is.
 */

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Calls whose 401 must not trigger a refresh (login, refresh, logout). */
    skipAuthRefresh?: boolean;
    _authRetried?: boolean;
    _csrfRetried?: boolean;
    /** How many times this read was sent again after a 503. */
    _unavailableRetries?: number;
  }
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface AuthHooks {
  getToken(): string | null;
  /** One refresh attempt; resolves to the new token or null. */
  refresh(): Promise<string | null>;
  /** The refresh failed: clear everything and go to /login. */
  onAuthLost(): void;
}

let hooks: AuthHooks = { getToken: () => null, refresh: async () => null, onAuthLost: () => {} };

/** Connects the client to the auth store (done once at start-up). */
export function setAuthHooks(h: AuthHooks): void {
  hooks = h;
}

export const http = axios.create({
  baseURL: '/api',
  timeout: CONSTANTS.apiTimeoutMs,
  withCredentials: true,
  headers: { Accept: 'application/json' },
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
});

/** SPEC §7: a CSRF token may also come from a page meta tag. */
const metaCsrf = (): string | null =>
  typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content || null;

http.interceptors.request.use((config: InternalAxiosRequestConfig) => {
  const token = hooks.getToken();
  if (token && !config.headers.has('Authorization')) config.headers.set('Authorization', `Bearer ${token}`);
  const csrf = metaCsrf();
  if (csrf) config.headers.set('X-CSRF-TOKEN', csrf);
  return config;
});

/**
 * The headers the interceptor above adds, for a request that does not go
 * through axios (the resumable upload's tus client): the bearer token and
 * both CSRF headers (the cookie's copy that axios sends by itself, and the meta tag's).
 */
export function authHeaders(): Record<string, string> {
  const out: Record<string, string> = {};
  const token = hooks.getToken();
  if (token) out.Authorization = `Bearer ${token}`;
  const csrf = metaCsrf();
  if (csrf) out['X-CSRF-TOKEN'] = csrf;
  const cookie = typeof document === 'undefined' ? null : /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1];
  if (cookie) out['X-XSRF-TOKEN'] = decodeURIComponent(cookie);
  return out;
}

/** One token refresh for such a request answered 401; true when there is a new token. */
export const refreshAuth = async (): Promise<boolean> => !!(await hooks.refresh().catch(() => null));

/** Asks the server for a fresh XSRF-TOKEN cookie. */
export const fetchCsrfCookie = () => http.get('/sanctum/csrf-cookie', { skipAuthRefresh: true });

http.interceptors.response.use(undefined, async (error: AxiosError) => {
  const config = error.config;
  const status = error.response?.status;
  if (!config) throw error;
  if (status === 419 && !config._csrfRetried) {
    // The CSRF cookie expired or was never set: fetch one and try again once.
    config._csrfRetried = true;
    await fetchCsrfCookie();
    return http.request(config);
  }
  if (status === 503 && (envelopeOf(error.response?.data)?.data as { maintenance?: boolean } | null)?.maintenance) {
    // The site is in maintenance (issue 24): loading the page again shows the server's maintenance page.
    if (typeof window !== 'undefined' && window.location.pathname !== '/login') window.location.reload();
    throw error;
  }
  if (status === 503) {
    const retriesDone = config._unavailableRetries ?? 0;
    const header = error.response?.headers?.['retry-after'];
    const delay = unavailableRetryDelay({ method: config.method, status, retryAfter: typeof header === 'string' ? header : null, retriesDone });
    if (delay !== null && !config.signal?.aborted) {
      config._unavailableRetries = retriesDone + 1;
      await sleep(delay);
      return http.request(config);
    }
  }
  if (status === 401 && !config.skipAuthRefresh && !config._authRetried && hooks.getToken()) {
    config._authRetried = true;
    // The token may have been renewed while this call was on its way: retry with the new one first.
    const sent = String(config.headers.get('Authorization') ?? '').replace(/^Bearer\s+/i, '');
    const current = hooks.getToken();
    const token = current && current !== sent ? current : await hooks.refresh().catch(() => null);
    if (token) {
      config.headers.set('Authorization', `Bearer ${token}`);
      return http.request(config);
    }
    hooks.onAuthLost();
  }
  throw error;
});

const envelopeOf = (body: unknown): Partial<Envelope> | null =>
  body && typeof body === 'object' && 'status' in body ? (body as Partial<Envelope>) : null;

/** The message to show for a failed call: the server's, else the given default. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.message || fallback;
  if (axios.isAxiosError(err)) {
    const env = envelopeOf(err.response?.data);
    if (env?.message) return env.message;
  }
  return fallback;
}

/** Turns any failure into an ApiError carrying the message to show. */
export function toApiError(err: unknown, fallback: string): ApiError {
  if (err instanceof ApiError) return err;
  const status = axios.isAxiosError(err) ? (err.response?.status ?? null) : null;
  const data = axios.isAxiosError(err) ? (envelopeOf(err.response?.data)?.data ?? null) : null;
  // A plan-limit refusal carries its figures: say it in the reader's language.
  return new ApiError(planLimitText(data, translate) ?? errorMessage(err, fallback), status, data);
}

export interface ApiResult<T> {
  data: T;
  message: string;
}

type WriteListener = (config: AxiosRequestConfig) => void;
const writeListeners = new Set<WriteListener>();

/** Runs `fn` after every successful write (not GET), e.g. to mark cached data stale; returns the unsubscribe. */
export function onSuccessfulWrite(fn: WriteListener): () => void {
  writeListeners.add(fn);
  return () => writeListeners.delete(fn);
}

/** Sends a request and unwraps the envelope; throws ApiError(server message or fallback). */
export async function apiRequest<T>(config: AxiosRequestConfig, fallback: string): Promise<ApiResult<T>> {
  let body: unknown;
  try {
    body = (await http.request(config)).data;
  } catch (err) {
    throw toApiError(err, fallback);
  }
  const env = envelopeOf(body);
  if (!env || env.status !== 'success') throw new ApiError(env?.message || fallback, 200, env?.data ?? null);
  if ((config.method ?? 'GET').toUpperCase() !== 'GET') for (const fn of writeListeners) fn(config);
  return { data: env.data as T, message: env.message ?? '' };
}

type Extra = Omit<AxiosRequestConfig, 'url' | 'method' | 'data'>;

/** SPEC §7/§9: a video upload has no timeout (pass as `timeout` to api.upload). */
export const VIDEO_UPLOAD_TIMEOUT = 0;

/** Shorthands that return the envelope's data. */
export const api = {
  get: async <T>(url: string, fallback: string, extra: Extra = {}) => (await apiRequest<T>({ ...extra, url, method: 'GET' }, fallback)).data,
  post: async <T>(url: string, data: unknown, fallback: string, extra: Extra = {}) => (await apiRequest<T>({ ...extra, url, method: 'POST', data }, fallback)).data,
  put: async <T>(url: string, data: unknown, fallback: string, extra: Extra = {}) => (await apiRequest<T>({ ...extra, url, method: 'PUT', data }, fallback)).data,
  delete: async <T>(url: string, fallback: string, extra: Extra = {}) => (await apiRequest<T>({ ...extra, url, method: 'DELETE' }, fallback)).data,
  /**
   * Multipart upload with progress (0..100). `timeout: 0` is for video, whose
   * upload may take longer than the 30 s of every other call (SPEC §7).
   */
  upload: async <T>(
    url: string,
    form: FormData,
    fallback: string,
    opts: { onProgress?: (percent: number) => void; timeout?: number } = {},
  ) =>
    (
      await apiRequest<T>(
        {
          url,
          method: 'POST',
          data: form,
          timeout: opts.timeout ?? CONSTANTS.apiTimeoutMs,
          onUploadProgress: (e: AxiosProgressEvent) => {
            if (opts.onProgress && e.total) opts.onProgress(Math.round((e.loaded / e.total) * 100));
          },
        },
        fallback,
      )
    ).data,
};
