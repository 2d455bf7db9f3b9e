import type { Db } from '../db/query-types.js';

/** Every query of the users' Autodesk links (`adsk_links`: one per user, tokens sealed by adsk/link.service). */

export interface AdskLinkRow {
  id_user: number;
  access_token: string;
  refresh_token: string;
  expires_at: Date;
  handle_hash: string;
}

/** The user's link (locked for the rest of the transaction with `lock`). */
export async function adskLinkOf(k: Db, userId: number, opts: { lock?: boolean } = {}): Promise<AdskLinkRow | undefined> {
  const q = k('adsk_links').where({ id_user: userId }).first();
  if (opts.lock) q.forUpdate();
  return (await q) as AdskLinkRow | undefined;
}

/** Writes the user's link, replacing the one they had. */
export async function upsertAdskLink(k: Db, row: AdskLinkRow & { scope: string; updated_at: Date }): Promise<void> {
  await k('adsk_links').insert(row).onConflict('id_user').merge();
}

export async function deleteAdskLink(k: Db, userId: number): Promise<void> {
  await k('adsk_links').where({ id_user: userId }).delete();
}
