import { UserToken } from '../db/index.js';
import type { Db } from '../db/query-types.js';

/** Every query of one-time tokens (`user_tokens`: activation, invitation, password reset …; only their hashes are stored). */

type Purpose = UserToken['purpose'];

/** Deletes the user's unused tokens of a purpose (or of these purposes). */
export async function deleteUnusedTokens(k: Db, userId: number, purposes: Purpose | readonly Purpose[]): Promise<void> {
  await k('user_tokens')
    .where({ user_id: userId })
    .whereIn('purpose', typeof purposes === 'string' ? [purposes] : [...purposes])
    .whereNull('used_at')
    .delete();
}

export async function insertUserToken(k: Db, row: Pick<UserToken, 'user_id' | 'purpose' | 'token_hash' | 'expires_at'>): Promise<UserToken> {
  return await UserToken.query(k).insertAndFetch(row);
}

/** The unused, unexpired token with this hash and one of these purposes. */
export async function liveToken(k: Db, tokenHash: string, purposes: readonly Purpose[]): Promise<UserToken | undefined> {
  return await UserToken.query(k)
    .findOne({ token_hash: tokenHash })
    .whereIn('purpose', [...purposes])
    .whereNull('used_at')
    .where('expires_at', '>', new Date());
}

/** Marks the live token with this hash used and returns it, in one statement (two racing requests cannot both have it). */
export async function useLiveToken(k: Db, tokenHash: string, purposes: readonly Purpose[]): Promise<UserToken | undefined> {
  const rows = await UserToken.query(k)
    .patch({ used_at: new Date() })
    .where({ token_hash: tokenHash })
    .whereIn('purpose', [...purposes])
    .whereNull('used_at')
    .where('expires_at', '>', new Date())
    .returning('*');
  return (rows as unknown as UserToken[])[0];
}
