import type { Knex } from 'knex';
import { type UserToken, db } from '../db/index.js';
import { deleteUnusedTokens, insertUserToken, liveToken, useLiveToken } from '../repositories/user-tokens.repository.js';
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
  await deleteUnusedTokens(k, userId, purpose);
  const token = randomToken();
  const expiresAt = Date.now() + ttlMs;
  const row = await insertUserToken(k, {
    user_id: userId,
    purpose,
    token_hash: hashToken(token),
    expires_at: new Date(expiresAt),
  });
  return { token, id: row.id, expiresAt };
}

/** The unused, unexpired token of one of the purposes, or null. */
export async function findLiveToken(token: string, purposes: readonly TokenPurpose[], trx?: Knex.Transaction): Promise<UserToken | null> {
  return (await liveToken(trx ?? db(), hashToken(token), purposes)) ?? null;
}

/**
 * Marks a live token used and returns it, in one statement, so two requests
 * racing with the same link cannot both succeed. Null when it was not live.
 */
export async function consumeToken(token: string, purposes: readonly TokenPurpose[], trx: Knex.Transaction): Promise<UserToken | null> {
  return (await useLiveToken(trx, hashToken(token), purposes)) ?? null;
}
