import type { SocialProvider } from '@sitewalk/proto';
import type { Db } from '../db/query-types.js';

/** Every query of the sign-in services' identities linked to accounts (`user_identities`). The service holds the rules. */

/** The identity a service's subject is linked as, if any. */
export async function identityBySubject(k: Db, provider: SocialProvider, subject: string): Promise<{ id: number; user_id: number } | undefined> {
  return await k('user_identities').where({ provider, subject }).first('id', 'user_id');
}

export async function touchIdentity(k: Db, id: number): Promise<void> {
  await k('user_identities').where({ id }).update({ last_used_at: new Date() });
}

/** The subject the account is linked to at a service, if any. */
export async function linkedSubject(k: Db, userId: number, provider: SocialProvider): Promise<string | undefined> {
  return ((await k('user_identities').where({ user_id: userId, provider }).first('subject')) as { subject: string } | undefined)?.subject;
}

/** Links an identity; one linked elsewhere fails with a unique violation, a gone account with a foreign-key one. */
export async function insertIdentityRow(k: Db, row: { user_id: number; provider: SocialProvider; subject: string; email: string | null }): Promise<void> {
  await k('user_identities').insert({ ...row, last_used_at: new Date() });
}

/** The account's linked services, oldest link first. */
export function identitiesOfUser(k: Db, userId: number): Promise<{ provider: SocialProvider; email: string | null; created_at: Date; last_used_at: Date | null }[]> {
  return k('user_identities').where({ user_id: userId }).orderBy('created_at').select('provider', 'email', 'created_at', 'last_used_at');
}

export async function unlinkIdentity(k: Db, userId: number, provider: SocialProvider): Promise<void> {
  await k('user_identities').where({ user_id: userId, provider }).delete();
}
