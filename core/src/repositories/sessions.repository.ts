import { Session, preparedQuery } from '../db/index.js';
import type { Db } from '../db/query-types.js';

/**
 * Every query of sign-in sessions (rows are the Objection model `Session`:
 * its writes through the model tell every process to empty its session
 * cache, see session-invalidation.ts). The services hold the rules.
 */

export async function insertSession(k: Db, row: Pick<Session, 'user_id' | 'token_hash' | 'expires_at' | 'remember' | 'ip' | 'user_agent'>): Promise<Session> {
  return await Session.query(k).insertAndFetch(row);
}

/** Deletes a session; how many went (0: it was gone already). */
export async function deleteSessionRow(k: Db, id: number): Promise<number> {
  return await Session.query(k).deleteById(id);
}

/** Deletes every session of a user. */
export async function deleteSessionsOfUser(k: Db, userId: number): Promise<void> {
  await Session.query(k).delete().where({ user_id: userId });
}

/** Deletes one of the user's sessions; how many went (0: not theirs, or gone). */
export async function deleteSessionOfUser(k: Db, id: number, userId: number): Promise<number> {
  return await Session.query(k).delete().where({ id, user_id: userId });
}

/** Deletes every session of the user but one; the ids that went. */
export async function deleteOtherSessions(k: Db, userId: number, keepId: number): Promise<number[]> {
  const gone = (await Session.query(k).delete().where({ user_id: userId }).whereNot({ id: keepId }).returning('id')) as unknown as { id: number }[];
  return gone.map((s) => s.id);
}

/** The user's sessions that have not expired. */
export async function liveSessionsOfUser(k: Db, userId: number): Promise<Session[]> {
  return await Session.query(k).where({ user_id: userId }).where('expires_at', '>', new Date());
}

/** Writes when a session was last used, straight to the table (not through the model: no reason to empty the session caches). */
export async function setSessionLastUsed(k: Db, id: number, at: Date): Promise<void> {
  await k('sessions').where({ id }).update({ last_used_at: at });
}

/** The session columns, prefixed in the lookup so they do not clash with the user's. */
export const SESSION_COLUMNS = ['id', 'user_id', 'token_hash', 'expires_at', 'remember', 'ip', 'user_agent', 'last_used_at', 'created_at'] as const;
const RESOLVE_TOKEN_SQL =
  `select ${SESSION_COLUMNS.map((c) => `s.${c} as "session.${c}"`).join(', ')}, u.* ` +
  'from sessions s join users u on u.id = s.user_id where s.token_hash = $1 and s.expires_at > $2 and u.active';

/**
 * The live session of a token hash joined with its active user: the
 * session's columns as `session.<column>`, then the user's. It runs on every
 * authenticated request not answered from the cache: one prepared statement.
 */
export async function sessionWithUserRow(tokenHash: string, now: Date): Promise<Record<string, unknown> | undefined> {
  const [row] = await preparedQuery<Record<string, unknown>>('session-resolve-token', RESOLVE_TOKEN_SQL, [tokenHash, now]);
  return row;
}

/** The role of the active user of a live session, or undefined when the session ended or its user is inactive. */
export function liveSessionUserRole(k: Db, sessionId: number, now: Date): Promise<{ super_admin: boolean; role: string } | undefined> {
  return k('sessions as s').join('users as u', 'u.id', 's.user_id').where('s.id', sessionId).where('s.expires_at', '>', now).where('u.active', true).first('u.super_admin', 'u.role');
}

/** A session by id while it lasts. */
export async function liveSessionById(k: Db, id: number, now: Date): Promise<Session | undefined> {
  return await Session.query(k).findById(id).where('expires_at', '>', now);
}
