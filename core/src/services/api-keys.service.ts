import crypto from 'node:crypto';
import { API_KEYS_PER_USER, PERSONAL_API_KEY_PATTERN, SITE_API_KEY_MIN_LENGTH, type ApiKey, type ApiKeyCreate, type ApiKeyCreated, type ApiKeyScope } from '@sitewalk/proto';
import { type User, db } from '../db/index.js';
import { apiKeysOfUser, countLiveApiKeys, insertApiKey, liveApiKeyByPrefix, revokeApiKeyRow, setApiKeyLastUsed, type ApiKeyRow } from '../repositories/api-keys.repository.js';
import { activeUserById, firstActiveSuperAdmin, lockUser } from '../repositories/users.repository.js';
import { notFound, unprocessable } from '../errors.js';
import { logger } from '../logger.js';
import { hashToken, safeEqual } from '../secrets.js';
import { getSetting } from './settings.service.js';
import { iso, isoOrNull } from '../db/query-types.js';

/** Who a request carrying a key acts as, and what the key allows. */
export interface ApiKeyPrincipal {
  user: User;
  scope: ApiKeyScope;
  /** The personal key's id, or null for the site-wide key of the settings (`api_key`). */
  keyId: number | null;
  /** What the key's own rate limit counts against. */
  limitKey: string;
}


const toDto = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  prefix: r.prefix,
  last_used_at: isoOrNull(r.last_used_at),
  created_at: iso(r.created_at),
  revoked_at: isoOrNull(r.revoked_at),
});

/** GET /api-keys: the account's keys, newest first, revoked ones included (marked). */
export async function listApiKeys(userId: number): Promise<ApiKey[]> {
  const rows = await apiKeysOfUser(db(), userId);
  return rows.map(toDto);
}

/** POST /api-keys: a new key; the answer holds the key itself, which is never shown again. */
export async function createApiKey(userId: number, input: ApiKeyCreate): Promise<ApiKeyCreated> {
  return db().transaction(async (trx) => {
    // One account's key creations queue behind each other, so the count below cannot be raced past.
    await lockUser(trx, userId);
    if ((await countLiveApiKeys(trx, userId)) >= API_KEYS_PER_USER) {
      throw unprocessable(`An account holds at most ${API_KEYS_PER_USER} API keys. Revoke one you no longer use first.`);
    }
    const prefix = `sw_${crypto.randomBytes(6).toString('hex')}`;
    const key = `${prefix}_${crypto.randomBytes(32).toString('base64url')}`;
    const row = await insertApiKey(trx, { id_user: userId, name: input.name, scope: input.scope, prefix, key_hash: hashToken(key) });
    return { ...toDto(row), key };
  });
}

/** DELETE /api-keys/:id: the key stops working at once; another account's key is "not found". */
export async function revokeApiKey(userId: number, id: number): Promise<ApiKey> {
  const row = await revokeApiKeyRow(db(), id, userId);
  if (!row) throw notFound('This API key does not exist.');
  return toDto(row);
}

/** How often a key's "last used" time is written: at most once a minute per key and process. */
const TOUCH_EVERY_MS = 60_000;
const touched = new Map<number, number>();

/** Awaited (a write at most once a minute per key), so "last used" is right as soon as the answer is. */
async function touchApiKey(row: Pick<ApiKeyRow, 'id' | 'last_used_at'>, now = Date.now()): Promise<void> {
  const last = Math.max(touched.get(row.id) ?? 0, row.last_used_at ? new Date(row.last_used_at).getTime() : 0);
  if (now - last < TOUCH_EVERY_MS) return;
  touched.set(row.id, now);
  if (touched.size > 10_000) touched.clear();
  await setApiKeyLastUsed(db(), row.id, new Date(now)).catch((err: unknown) => logger.warn({ err, api_key_id: row.id }, 'could not note when an API key was last used'));
}

/** The owner and scope of a personal key (sw_…), or null when it is unknown, revoked or its owner is inactive. */
async function resolvePersonalKey(key: string): Promise<ApiKeyPrincipal | null> {
  const m = PERSONAL_API_KEY_PATTERN.exec(key);
  if (!m) return null;
  const row = await liveApiKeyByPrefix(db(), `sw_${m[1]}`);
  if (!row || !safeEqual(row.key_hash, hashToken(key))) return null;
  const user = await activeUserById(db(), row.id_user);
  if (!user) return null;
  await touchApiKey(row);
  return { user, scope: row.scope, keyId: row.id, limitKey: `key:${row.id}` };
}

/**
 * The settings' site-wide key (`api_key`, SPEC §3 "Integration") for
 * server-to-server integrations: it acts as the site's first active super
 * administrator, with that account's rights, read and write.
 */
async function resolveSiteKey(key: string): Promise<ApiKeyPrincipal | null> {
  const site = String((await getSetting('api_key')) ?? '');
  if (site.length < SITE_API_KEY_MIN_LENGTH || !safeEqual(hashToken(site), hashToken(key))) return null;
  const user = await firstActiveSuperAdmin(db());
  if (!user) return null;
  return { user, scope: 'read-write', keyId: null, limitKey: 'site' };
}

/** True when the text has the form of a personal key (a session token never has: it is shorter). */
export const looksLikePersonalKey = (key: string): boolean => PERSONAL_API_KEY_PATTERN.test(key);

/** Whom an API key (personal or the site-wide one) acts as, or null when it is not a valid key. */
export async function resolveApiKey(key: string): Promise<ApiKeyPrincipal | null> {
  if (!key || key.length > 200) return null;
  return looksLikePersonalKey(key) ? resolvePersonalKey(key) : resolveSiteKey(key);
}
