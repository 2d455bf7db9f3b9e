import { type Db } from '../db/query-types.js';

/**
 * The SQL of removing abandoned invited accounts (invited-accounts.service
 * holds the rules of when): one predicate, checked in the DELETE itself, so
 * an activation racing with the clean-up wins.
 */

const ABANDONED = `
      u.invited_at IS NOT NULL AND NOT u.active AND u.email_verified_at IS NULL AND NOT u.super_admin
  AND NOT EXISTS (SELECT 1 FROM projects x WHERE x.id_owner = u.id)
  AND NOT EXISTS (SELECT 1 FROM project_members x WHERE x.id_user = u.id)
  AND NOT EXISTS (SELECT 1 FROM categories x WHERE x.id_owner = u.id)
  AND NOT EXISTS (SELECT 1 FROM plan_subscriptions x WHERE x.id_owner = u.id)
  AND NOT EXISTS (SELECT 1 FROM plan_members x WHERE x.id_user = u.id)
  AND NOT EXISTS (SELECT 1 FROM sessions x WHERE x.user_id = u.id)
  AND NOT EXISTS (SELECT 1 FROM invitations x WHERE x.id_user = u.id AND x.status = 'accepted')`;

export interface RemovedInvitees {
  /** The accounts removed. */
  users: number[];
  /** Projects whose pending invitations went with them (their Team cards change). */
  projects: number[];
}

async function removeWhere(k: Db, extra: string, bindings: Record<string, unknown>): Promise<RemovedInvitees> {
  // The pending invitations go with the account (ON DELETE CASCADE); their projects are read first.
  const { rows } = await k.raw(
    `WITH gone AS (
       DELETE FROM users u WHERE ${ABANDONED} AND ${extra}
       RETURNING u.id
     )
     SELECT g.id, coalesce(array_agg(DISTINCT i.id_project) FILTER (WHERE i.id_project IS NOT NULL), '{}') AS projects
       FROM gone g LEFT JOIN invitations i ON i.id_user = g.id AND i.status = 'pending' AND i.kind = 'project'
      GROUP BY g.id`,
    bindings,
  );
  const projects = new Set<number>();
  for (const r of rows as { id: number; projects: number[] }[]) for (const p of r.projects) projects.add(p);
  return { users: (rows as { id: number }[]).map((r) => r.id), projects: [...projects] };
}

/** Deletes the abandoned invited accounts invited before `since` with no open link or recent invitation. */
export function deleteExpiredInvitees(k: Db, since: Date, now: Date): Promise<RemovedInvitees> {
  return removeWhere(
    k,
    `u.invited_at < :since
     AND NOT EXISTS (SELECT 1 FROM user_tokens t WHERE t.user_id = u.id AND t.used_at IS NULL AND t.expires_at > :now)
     AND NOT EXISTS (SELECT 1 FROM invitations i WHERE i.id_user = u.id AND i.kind = 'project' AND i.status = 'pending' AND i.created_at >= :since)`,
    { since, now },
  );
}

/** Deletes this invited account when it is abandoned and no invitation of it waits any more. */
export function deleteInviteeIfAbandoned(k: Db, userId: number): Promise<RemovedInvitees> {
  return removeWhere(k, `u.id = :id AND NOT EXISTS (SELECT 1 FROM invitations i WHERE i.id_user = u.id AND i.kind = 'project' AND i.status = 'pending')`, { id: userId });
}
