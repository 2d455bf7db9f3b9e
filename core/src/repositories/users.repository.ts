import type { PersonRef } from '@sitewalk/proto';
import { Session, User } from '../db/index.js';
import type { Db } from '../db/query-types.js';

/**
 * Every query of `users` (rows are the Objection model `User`), and the
 * reads other aggregates need (who to invite, whose name to show). The
 * services hold the rules.
 */

/** The columns a person is shown with (PersonRef, the avatar as its storage key). */
export type PersonRow = Omit<PersonRef, 'avatar_url'> & { avatar: string | null };

export const PERSON_COLUMNS = ['id', 'username', 'first_name', 'last_name', 'email', 'avatar'] as const;

/** The account whose username or e-mail this is (either, case-insensitive). */
export async function userByLogin(k: Db, login: string): Promise<User | undefined> {
  return await User.query(k).whereRaw('lower(username) = lower(?)', [login]).orWhereRaw('lower(email) = lower(?)', [login]).first();
}

/** The account with this e-mail (case-insensitive). */
export async function userByEmail(k: Db, email: string): Promise<User | undefined> {
  return await User.query(k).whereRaw('lower(email) = lower(?)', [email]).first();
}

export async function userById(k: Db, id: number): Promise<User | undefined> {
  return await User.query(k).findById(id);
}

/** Whether another account (not `exceptId`) has this username or e-mail, whatever the case. */
export async function isTaken(k: Db, column: 'username' | 'email', value: string, exceptId?: number): Promise<boolean> {
  const q = k('users').whereRaw(`lower(${column}) = lower(?)`, [value]).first('id');
  if (exceptId) q.whereNot('id', exceptId);
  return !!(await q);
}

/** One page of accounts by id, optionally those with a text in username, e-mail or name; and how many match. */
export async function userPage(k: Db, search: string | undefined, page: number, perPage: number): Promise<{ rows: User[]; total: number }> {
  const base = User.query(k);
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => {
      for (const col of ['username', 'email', 'first_name', 'last_name']) w.orWhere(col, 'ilike', like);
    });
  }
  const [rows, total] = await Promise.all([base.clone().orderBy('id').limit(perPage).offset((page - 1) * perPage), base.clone().resultSize()]);
  return { rows, total };
}

export async function insertUser(k: Db, row: Partial<User>): Promise<User> {
  return await User.query(k).insertAndFetch(row);
}

export async function patchUser(k: Db, id: number, changes: Partial<User>): Promise<User> {
  return await User.query(k).patchAndFetchById(id, changes);
}

/** Deletes an account and its sessions (what it owns goes by the foreign keys). */
export async function deleteUserRow(k: Db, id: number): Promise<void> {
  await Session.query(k).delete().where({ user_id: id });
  await User.query(k).deleteById(id);
}

/** The projects a user owns. */
export async function ownedProjectIds(k: Db, userId: number): Promise<number[]> {
  return k('projects').where({ id_owner: userId }).pluck('id');
}

/** A few columns of one account. */
export async function userColumns<C extends 'username' | 'email' | 'language'>(k: Db, id: number, ...columns: C[]): Promise<Record<C, string> | undefined> {
  return (await k('users').where({ id }).first(...(columns as string[]))) as Record<C, string> | undefined;
}

/** People by id, as they are shown. */
export function peopleRows(k: Db, ids: number[]): Promise<PersonRow[]> {
  return k('users').whereIn('id', ids).select(...PERSON_COLUMNS);
}

/** One person as they are shown. */
export function personRow(k: Db, id: number): Promise<PersonRow> {
  return k('users').where({ id }).first(...PERSON_COLUMNS);
}

/** What the user's newest one-time link (of these purposes, when given) was for (activation, invitation, ...). */
export async function lastTokenPurpose(k: Db, userId: number, purposes?: readonly string[]): Promise<string | undefined> {
  const q = k('user_tokens').where({ user_id: userId }).orderBy('id', 'desc').first('purpose');
  if (purposes) q.whereIn('purpose', [...purposes]);
  return (await q)?.purpose;
}

/** Writes a new password hash (through the model: sessions cached for the account are dropped). */
export async function setPasswordHash(k: Db, id: number, passwordHash: string): Promise<void> {
  await User.query(k).patch({ password_hash: passwordHash }).where({ id });
}

/** The ids of the super administrators (only the active ones unless `withInactive`). */
export async function superAdminIds(k: Db, opts: { withInactive?: boolean } = {}): Promise<number[]> {
  return k('users').where({ super_admin: true, ...(opts.withInactive ? {} : { active: true }) }).pluck('id');
}

/** Reads and locks an account for the rest of the transaction. */
export async function lockUser(k: Db, id: number): Promise<User | undefined> {
  return await User.query(k).findById(id).forUpdate();
}

/** The active account with this id. */
export async function activeUserById(k: Db, id: number): Promise<User | undefined> {
  return await User.query(k).findById(id).where({ active: true });
}

/** The active super administrator with the lowest id (the site-wide API key acts as them). */
export async function firstActiveSuperAdmin(k: Db): Promise<User | undefined> {
  return await User.query(k).where({ super_admin: true, active: true }).orderBy('id').first();
}

/** Sets whether the account is linked to Autodesk, through the model (every process forgets the cached session that says otherwise). */
export async function setAdskAuth(k: Db, id: number, linked: boolean): Promise<void> {
  await User.query(k).findById(id).patch({ adsk_auth: linked });
}
