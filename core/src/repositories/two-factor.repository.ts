import type { Db } from '../db/query-types.js';

/**
 * Every query of two-factor sign-in: an account's sealed authenticator
 * secret (`two_factor`) and its recovery codes' hashes
 * (`two_factor_recovery_codes`). The service holds the rules and the crypto.
 */

const TABLE = 'two_factor';
const CODES = 'two_factor_recovery_codes';

export interface TwoFactorRow {
  user_id: number;
  secret_sealed: string;
  enabled_at: Date | null;
  last_used_step: string | number | null;
}

export async function twoFactorRow(k: Db, userId: number): Promise<TwoFactorRow | undefined> {
  return await k<TwoFactorRow>(TABLE).where({ user_id: userId }).first();
}

/** Starts (or starts again) an enrolment: this sealed secret, not confirmed yet. */
export async function upsertEnrolment(k: Db, userId: number, secretSealed: string): Promise<void> {
  await k(TABLE)
    .insert({ user_id: userId, secret_sealed: secretSealed, enabled_at: null, last_used_step: null })
    .onConflict('user_id')
    .merge(['secret_sealed', 'enabled_at', 'last_used_step']);
}

/** Switches on the enrolment with this secret if it is still unconfirmed; whether it did. */
export async function enableEnrolment(k: Db, userId: number, secretSealed: string, step: number): Promise<boolean> {
  const n = await k(TABLE).where({ user_id: userId, secret_sealed: secretSealed }).whereNull('enabled_at').update({ enabled_at: k.fn.now(), last_used_step: step });
  return n > 0;
}

/** Moves the account's last accepted time step to `step` if it is later (two requests with one code cannot both pass); whether it did. */
export async function advanceLastUsedStep(k: Db, userId: number, step: number): Promise<boolean> {
  const n = await k(TABLE)
    .where({ user_id: userId })
    .whereNotNull('enabled_at')
    .andWhere((q) => q.whereNull('last_used_step').orWhere('last_used_step', '<', step))
    .update({ last_used_step: step });
  return n === 1;
}

/** Replaces the account's recovery codes by these hashes. */
export async function replaceRecoveryCodes(k: Db, userId: number, hashes: string[]): Promise<void> {
  await k(CODES).where({ user_id: userId }).delete();
  await k(CODES).insert(hashes.map((code_hash) => ({ user_id: userId, code_hash })));
}

export async function countUnusedRecoveryCodes(k: Db, userId: number): Promise<number> {
  const [row] = await k(CODES).where({ user_id: userId }).whereNull('used_at').count<{ count: string }[]>('id as count');
  return Number(row?.count ?? 0);
}

export function unusedRecoveryCodes(k: Db, userId: number): Promise<{ id: number; code_hash: string }[]> {
  return k(CODES).where({ user_id: userId }).whereNull('used_at').select('id', 'code_hash');
}

/** Marks a recovery code used unless it already was; whether it did. */
export async function useRecoveryCode(k: Db, id: number): Promise<boolean> {
  const n = await k(CODES).where({ id }).whereNull('used_at').update({ used_at: k.fn.now() });
  return n === 1;
}

/** Removes the account's second factor and its recovery codes. */
export async function deleteTwoFactor(k: Db, userId: number): Promise<void> {
  await k(CODES).where({ user_id: userId }).delete();
  await k(TABLE).where({ user_id: userId }).delete();
}
