import type { AccountSession } from '@sitewalk/proto';
import { type Session, db } from '../db/index.js';
import { deleteOtherSessions, deleteSessionOfUser, liveSessionsOfUser, setSessionLastUsed } from '../repositories/sessions.repository.js';
import { userById } from '../repositories/users.repository.js';
import { notFound } from '../errors.js';
import { logger } from '../logger.js';
import { signalSessionRevoked } from '../realtime/index.js';
import { deviceFromUserAgent } from '../user-agent-device.js';
import { iso } from '../db/query-types.js';

/** How often a session's "last used" time is written: at most once a minute, not on every request. */
const TOUCH_EVERY_MS = 60_000;
const touched = new Map<number, number>();

/**
 * Notes that a session was used now (for "last used" in the list of
 * devices). Written straight to the table, not through the model: a
 * last-used time is no reason to empty every process's session cache.
 */
export function touchSession(session: Pick<Session, 'id' | 'last_used_at'>, now = Date.now()): void {
  const last = Math.max(touched.get(session.id) ?? 0, session.last_used_at?.getTime() ?? 0);
  if (now - last < TOUCH_EVERY_MS) return;
  touched.set(session.id, now);
  if (touched.size > 10_000) touched.clear();
  setSessionLastUsed(db(), session.id, new Date(now)).catch((err: unknown) => logger.warn({ err, session_id: session.id }, 'could not note when a session was last used'));
}


/** GET /sessions: the account's live sessions, the one of this request first, then the most recently used. */
export async function listSessions(userId: number, currentId: number): Promise<AccountSession[]> {
  const rows = await liveSessionsOfUser(db(), userId);
  return rows
    .map((s) => ({
      id: s.id,
      device: deviceFromUserAgent(s.user_agent),
      ip: s.ip,
      last_used_at: iso(s.last_used_at ?? s.created_at),
      created_at: iso(s.created_at),
      expires_at: iso(s.expires_at),
      current: s.id === currentId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.last_used_at.localeCompare(a.last_used_at));
}

/** DELETE /sessions/{id}: signs one of the account's own sessions out (another account's answers 404). */
export async function revokeOwnSession(userId: number, id: number): Promise<{ id: number }> {
  const n = await deleteSessionOfUser(db(), id, userId);
  if (!n) throw notFound('This session does not exist or has already ended.');
  signalSessionRevoked(id);
  return { id };
}

/** POST /sessions/revoke-others: every session of the account but this one ends. */
export async function revokeOtherSessions(userId: number, currentId: number): Promise<{ revoked: number }> {
  return endSessions(userId, currentId);
}

/**
 * POST /users/{id}/sessions/revoke (super admins): every session of that
 * account ends at once — a lost laptop, someone who left, or the site just
 * started to require two-step verification. The administrator's own session
 * is kept when they sign themselves out everywhere.
 */
export async function revokeSessionsOf(userId: number, adminSessionId: number): Promise<{ revoked: number }> {
  if (!(await userById(db(), userId))) throw notFound('User not found.');
  return endSessions(userId, adminSessionId);
}

/** Ends the account's sessions but `keep`, and tells their browsers, which sign out at once. */
async function endSessions(userId: number, keep: number): Promise<{ revoked: number }> {
  const gone = await deleteOtherSessions(db(), userId, keep);
  for (const id of gone) signalSessionRevoked(id);
  return { revoked: gone.length };
}
