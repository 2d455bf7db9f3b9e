import { SESSION_REMEMBER_TTL_MS, SESSION_TTL_MS } from '@sitewalk/proto';
import type { Knex } from 'knex';
import { Session, User, db } from '../db/index.js';
import { SESSION_COLUMNS, deleteSessionRow, deleteSessionsOfUser, insertSession, sessionWithUserRow } from '../repositories/sessions.repository.js';
import { hashToken, randomToken } from '../secrets.js';
import type { CachedRows } from '../session-cache.js';
import { listenForAuthWrites, sessionCache } from './session-invalidation.js';

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
  const session = await insertSession(trx ?? db(), {
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
 * It runs on every authenticated request. A token seen in the last few
 * seconds is answered from this process's session cache, which every
 * logout, password change or account edit in any process empties at once
 * (session-invalidation.ts); otherwise one prepared statement (session
 * joined with its user), whose columns come back typed by pg (timestamps as
 * Dates), straight into the two models.
 */
export async function resolveToken(token: string): Promise<{ session: Session; user: User } | null> {
  if (!token || token.length > 200) return null;
  listenForAuthWrites();
  const hash = hashToken(token);
  const cached = sessionCache.get(hash, Date.now());
  if (cached) return toModels(cached);
  const rows = await sessionCache.share(hash, (ticket) => lookUpToken(hash, ticket));
  return rows ? toModels(rows) : null;
}

/** One database lookup of a token hash; its answer is kept in the cache unless a write came in since `ticket`. */
async function lookUpToken(hash: string, ticket: number): Promise<CachedRows | null> {
  const row = await sessionWithUserRow(hash, new Date());
  if (!row) return null;
  const session: Record<string, unknown> = {};
  for (const c of SESSION_COLUMNS) {
    session[c] = row[`session.${c}`];
    delete row[`session.${c}`];
  }
  const found = { session: Session.fromDatabaseJson(session), user: User.fromDatabaseJson(row) };
  // Kept as the models' own fields (after objection parsed them): every caller gets fresh models copied from them.
  const fields = (m: object) => copyInto<Record<string, unknown>>({}, m as Record<string, unknown>);
  const rows = { session: fields(found.session), user: fields(found.user) };
  sessionCache.store(hash, rows, found.user.id, found.session.expires_at.getTime(), ticket, Date.now());
  return rows;
}

/**
 * Fresh models each time, so a route may change what it is given without
 * touching the cache: the cached fields copied into new instances (Dates
 * too), several times cheaper than objection's fromDatabaseJson.
 */
function toModels(rows: CachedRows): { session: Session; user: User } {
  return { session: copyInto(new Session(), rows.session), user: copyInto(new User(), rows.user) };
}

function copyInto<M extends object>(model: M, fields: Record<string, unknown>): M {
  const target = model as Record<string, unknown>;
  for (const k in fields) {
    const v = fields[k];
    target[k] = v instanceof Date ? new Date(v.getTime()) : v;
  }
  return model;
}

/** Replaces a session by a fresh one (new token, new expiry) atomically. */
export async function rotateSession(old: Session): Promise<IssuedSession> {
  return db().transaction(async (trx) => {
    const deleted = await deleteSessionRow(trx, old.id);
    if (!deleted) throw new Error('session already rotated');
    return issueSession(old.user_id, { remember: old.remember, ip: old.ip ?? undefined, userAgent: old.user_agent ?? undefined }, trx);
  });
}

export async function revokeSession(id: number): Promise<void> {
  await deleteSessionRow(db(), id);
}

/** Ends every session of a user, e.g. after a password reset. */
export async function revokeAllSessions(userId: number, trx?: Knex.Transaction): Promise<void> {
  await deleteSessionsOfUser(trx ?? db(), userId);
}
