import type { Knex } from 'knex';
import { UserToken, db } from '../db/index.js';
import { hashToken, randomToken } from '../secrets.js';

export type TokenPurpose = UserToken['purpose'];

export interface IssuedUserToken {
  /** The secret for the link; only its hash is stored. */
  token: string;
  id: number;
  expiresAt: number;
}

/**
 * A fresh one-time token for a user. Earlier unused tokens of the same
 * purpose stop working, so only the newest link mailed to someone opens.
 */
export async function issueUserToken(userId: number, purpose: TokenPurpose, ttlMs: number, trx?: Knex.Transaction): Promise<IssuedUserToken> {
  const k = trx ?? db();
  await k('user_tokens').where({ user_id: userId, purpose }).whereNull('used_at').delete();
  const token = randomToken();
  const expiresAt = Date.now() + ttlMs;
  const row = await UserToken.query(k).insertAndFetch({
    user_id: userId,
    purpose,
    token_hash: hashToken(token),
    expires_at: new Date(expiresAt),
  });
  return { token, id: row.id, expiresAt };
}

/** The unused, unexpired token of one of the purposes, or null. */
export async function findLiveToken(token: string, purposes: readonly TokenPurpose[], trx?: Knex.Transaction): Promise<UserToken | null> {
  const row = await UserToken.query(trx ?? db())
    .findOne({ token_hash: hashToken(token) })
    .whereIn('purpose', [...purposes])
    .whereNull('used_at')
    .where('expires_at', '>', new Date());
  return row ?? null;
}

/**
 * Marks a live token used and returns it, in one statement, so two requests
 * racing with the same link cannot both succeed. Null when it was not live.
 */
export async function consumeToken(token: string, purposes: readonly TokenPurpose[], trx: Knex.Transaction): Promise<UserToken | null> {
  const rows = await UserToken.query(trx)
    .patch({ used_at: new Date() })
    .where({ token_hash: hashToken(token) })
    .whereIn('purpose', [...purposes])
    .whereNull('used_at')
    .where('expires_at', '>', new Date())
    .returning('*');
  const list = rows as unknown as UserToken[];
  return list[0] ?? null;
}
