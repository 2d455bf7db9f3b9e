import { SESSION_REMEMBER_TTL_MS, SESSION_TTL_MS } from '@sitewalk/proto';
import type { Knex } from 'knex';
import { Session, User, db } from '../db/index.js';
import { hashToken, randomToken } from '../secrets.js';

export interface IssuedSession {
  token: string;
  expiresAt: number;
  session: Session;
}

/** Creates a session and returns its token; only the hash is stored. */
export async function issueSession(
  userId: number,
  opts: { remember: boolean; ip?: string; userAgent?: string },
  trx?: Knex.Transaction,
): Promise<IssuedSession> {
  const token = randomToken();
  const expiresAt = Date.now() + (opts.remember ? SESSION_REMEMBER_TTL_MS : SESSION_TTL_MS);
  const session = await Session.query(trx).insertAndFetch({
    user_id: userId,
    token_hash: hashToken(token),
    expires_at: new Date(expiresAt),
    remember: opts.remember,
    ip: opts.ip?.slice(0, 64) ?? null,
    user_agent: opts.userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt, session };
}

/**
 * The live session and active user a bearer token belongs to, or null.
 * One query (session joined with its user): it runs on every request.
 */
export async function resolveToken(token: string): Promise<{ session: Session; user: User } | null> {
  if (!token || token.length > 200) return null;
  const row = await db()('sessions as s')
    .join('users as u', 'u.id', 's.user_id')
    .where('s.token_hash', hashToken(token))
    .andWhere('s.expires_at', '>', new Date())
    .andWhere('u.active', true)
    .first(db().raw('row_to_json(s.*) as session'), db().raw('row_to_json(u.*) as "user"'));
  if (!row) return null;
  const session = Session.fromDatabaseJson(row.session as Record<string, unknown>);
  const user = User.fromDatabaseJson(row.user as Record<string, unknown>);
  // row_to_json gives timestamps as strings; the models carry Dates.
  session.expires_at = new Date(session.expires_at);
  session.created_at = new Date(session.created_at);
  user.created_at = new Date(user.created_at);
  user.updated_at = new Date(user.updated_at);
  if (user.email_verified_at) user.email_verified_at = new Date(user.email_verified_at);
  return { session, user };
}

/** Replaces a session by a fresh one (new token, new expiry) atomically. */
export async function rotateSession(old: Session): Promise<IssuedSession> {
  return db().transaction(async (trx) => {
    const deleted = await Session.query(trx).deleteById(old.id);
    if (!deleted) throw new Error('session already rotated');
    return issueSession(old.user_id, { remember: old.remember, ip: old.ip ?? undefined, userAgent: old.user_agent ?? undefined }, trx);
  });
}

export async function revokeSession(id: number): Promise<void> {
  await Session.query().deleteById(id);
}

/** Ends every session of a user, e.g. after a password reset. */
export async function revokeAllSessions(userId: number, trx?: Knex.Transaction): Promise<void> {
  await Session.query(trx).delete().where({ user_id: userId });
}
