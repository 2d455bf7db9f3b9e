import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root: api/src/config.ts -> ../.. */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const env = process.env;
const int = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);

/** Process configuration from the environment; one place, read once. */
export const config = {
  env: env.NODE_ENV ?? 'development',
  port: int(env.PORT, 8080),
  host: env.HOST ?? '0.0.0.0',
  appUrl: (env.APP_URL ?? `http://localhost:${int(env.PORT, 8080)}`).replace(/\/$/, ''),
  databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sitewalk',
  redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379/0',
  /** Prefix of every Redis key SiteWalk writes (BullMQ, rate limits, socket.io). */
  redisPrefix: env.REDIS_PREFIX ?? 'sitewalk',
  dataDir: path.resolve(ROOT_DIR, env.DATA_DIR ?? '.data'),
  storageDir: path.resolve(ROOT_DIR, env.STORAGE_DIR ?? path.join(env.DATA_DIR ?? '.data', 'storage')),
  /** Per-job scratch folders of tools that need files on disk (never shared between machines). */
  scratchDir: path.resolve(ROOT_DIR, env.SCRATCH_DIR ?? path.join(env.DATA_DIR ?? '.data', 'scratch')),
  clientDist: path.resolve(ROOT_DIR, env.CLIENT_DIST ?? 'client/dist'),
  logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'warn' : 'info'),
  /** Trust X-Forwarded-* (set behind a reverse proxy, and in tests). */
  trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
  corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  /** Secret for signed file URLs; generated into .data when not given. */
  appSecret: env.APP_SECRET ?? '',
  /** Key material for secret settings at rest; APP_SECRET's when not given. */
  settingsKey: env.SETTINGS_KEY ?? '',
  /** Autodesk Platform Services; tests point it at a local stand-in. */
  adskBaseUrl: (env.ADSK_BASE_URL ?? 'https://developer.api.autodesk.com').replace(/\/$/, ''),
  /** Key material for the Autodesk tokens at rest; SETTINGS_KEY's (or APP_SECRET's) when not given. */
  adskTokenKey: env.ADSK_TOKEN_KEY ?? '',
  /** PayPal REST; empty: sandbox or live by the paypal_live setting. Tests point it at a local stand-in. */
  paypalBaseUrl: (env.PAYPAL_BASE_URL ?? '').replace(/\/$/, ''),
  /** The id PayPal gave the webhook subscription, needed to verify each webhook's signature. */
  paypalWebhookId: env.PAYPAL_WEBHOOK_ID ?? '',
  /** Sign-in services (Google, Facebook, X): a base URL each replaces the real service's hosts (tests point them at local stand-ins). */
  socialBaseUrls: {
    google: (env.SOCIAL_GOOGLE_URL ?? '').replace(/\/$/, ''),
    facebook: (env.SOCIAL_FACEBOOK_URL ?? '').replace(/\/$/, ''),
    twitter: (env.SOCIAL_TWITTER_URL ?? '').replace(/\/$/, ''),
  },
  requestTimeoutMs: int(env.REQUEST_TIMEOUT_MS, 30_000),
  /** How long an API process may answer a bearer token from memory (core/services/session-invalidation.ts); 0 turns that off. */
  sessionCacheTtlMs: int(env.SESSION_CACHE_TTL_MS, 5_000),
  /** Failed sign-ins from one address after which each sign-in from it needs the captcha (never a lock-out). */
  loginLimitPerIp: int(env.LOGIN_LIMIT_PER_IP, 5),
  loginLimitPerAccount: int(env.LOGIN_LIMIT_PER_ACCOUNT, 5),
  loginLimitWindowSec: int(env.LOGIN_LIMIT_WINDOW_SEC, 15 * 60),
  /** The captcha's work: PBKDF2 iterations per try, and the largest number of tries a challenge needs. */
  captchaCost: Math.max(1, int(env.CAPTCHA_COST, 1_000)),
  captchaMaxCounter: Math.max(5, int(env.CAPTCHA_MAX_COUNTER, 5_000)),
  /**
   * Memory of each password hash (argon2id, KiB; at least 1,024): the library's 64 MiB unless set. Tests set a small
   * one, as they set CAPTCHA_COST: a stored hash names its own cost, so any hash verifies whatever this is now.
   */
  passwordHashMemoryKib: Math.max(1_024, int(env.PASSWORD_HASH_MEMORY_KIB, 65_536)),
};
export type Config = typeof config;
