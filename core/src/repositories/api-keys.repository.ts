import type { ApiKeyScope } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';

/** Every query of personal API keys (`api_keys`; only their hashes are stored). The service holds the rules. */

export interface ApiKeyRow {
  id: number;
  id_user: number;
  name: string;
  scope: ApiKeyScope;
  prefix: string;
  key_hash: string;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

/** The account's keys, newest first, revoked ones included. */
export function apiKeysOfUser(k: Db, userId: number): Promise<ApiKeyRow[]> {
  return k('api_keys').where({ id_user: userId }).orderBy('id', 'desc');
}

/** How many keys of the account are not revoked. */
export async function countLiveApiKeys(k: Db, userId: number): Promise<number> {
  const [{ count }] = await k('api_keys').where({ id_user: userId }).whereNull('revoked_at').count<{ count: string }[]>('id as count');
  return Number(count);
}

export async function insertApiKey(k: Db, row: Pick<ApiKeyRow, 'id_user' | 'name' | 'scope' | 'prefix' | 'key_hash'>): Promise<ApiKeyRow> {
  const [inserted] = await k('api_keys').insert(row).returning('*');
  return inserted as ApiKeyRow;
}

/** Revokes one of the account's keys (its first revocation time is kept); undefined when it has no such key. */
export async function revokeApiKeyRow(k: Db, id: number, userId: number): Promise<ApiKeyRow | undefined> {
  const [row] = await k('api_keys')
    .where({ id, id_user: userId })
    .update({ revoked_at: k.raw('coalesce(revoked_at, now())') })
    .returning('*');
  return row as ApiKeyRow | undefined;
}

export async function setApiKeyLastUsed(k: Db, id: number, at: Date): Promise<void> {
  await k('api_keys').where({ id }).update({ last_used_at: at });
}

/** The key with this prefix, unless revoked. */
export async function liveApiKeyByPrefix(k: Db, prefix: string): Promise<ApiKeyRow | undefined> {
  return await k('api_keys').where({ prefix }).whereNull('revoked_at').first();
}
