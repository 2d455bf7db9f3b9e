import { ACTIVATION_TTL_MS } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { type Db } from '../db/query-types.js';

/**
 * The inactive accounts that project invitations to unknown e-mail
 * addresses make (users.invited_at). One nobody activates must not stay for
 * ever: it expires with its invitation link (ACTIVATION_TTL_MS, renewed by
 * each new invitation) and the hourly `users.purge-invited` job removes it,
 * with its pending invitations; cancelling its last pending invitation
 * removes it at once.
 *
 * Never removed: anyone who activated (active, or e-mail verified), and an
 * account with anything of its own — a project, a team membership, a
 * category, a plan or a place in one, a session, an accepted invitation.
 * The conditions are one SQL predicate, checked in the DELETE itself, so an
 * activation racing with the clean-up wins.
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

/**
 * Removes the invited accounts whose invitation has expired: no invitation
 * link still open and no invitation younger than the link's lifetime.
 */
export async function purgeExpiredInvitees(now = new Date(), k: Db = db()): Promise<RemovedInvitees> {
  const since = new Date(now.getTime() - ACTIVATION_TTL_MS);
  return removeWhere(
    k,
    `u.invited_at < :since
     AND NOT EXISTS (SELECT 1 FROM user_tokens t WHERE t.user_id = u.id AND t.used_at IS NULL AND t.expires_at > :now)
     AND NOT EXISTS (SELECT 1 FROM invitations i WHERE i.id_user = u.id AND i.kind = 'project' AND i.status = 'pending' AND i.created_at >= :since)`,
    { since, now },
  );
}

/** After an invitation is cancelled: removes the invited, never-activated account when no invitation of it waits any more. */
export async function removeIfAbandoned(userId: number, k: Db = db()): Promise<boolean> {
  const removed = await removeWhere(
    k,
    `u.id = :id AND NOT EXISTS (SELECT 1 FROM invitations i WHERE i.id_user = u.id AND i.kind = 'project' AND i.status = 'pending')`,
    { id: userId },
  );
  return removed.users.length > 0;
}
