import { ACTIVATION_TTL_MS } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { type Db } from '../db/query-types.js';
import { deleteExpiredInvitees, deleteInviteeIfAbandoned, type RemovedInvitees } from '../repositories/invited-accounts.repository.js';

export type { RemovedInvitees };

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
 * activation racing with the clean-up wins (invited-accounts.repository).
 */

/**
 * Removes the invited accounts whose invitation has expired: no invitation
 * link still open and no invitation younger than the link's lifetime.
 */
export async function purgeExpiredInvitees(now = new Date(), k: Db = db()): Promise<RemovedInvitees> {
  return deleteExpiredInvitees(k, new Date(now.getTime() - ACTIVATION_TTL_MS), now);
}

/** After an invitation is cancelled: removes the invited, never-activated account when no invitation of it waits any more. */
export async function removeIfAbandoned(userId: number, k: Db = db()): Promise<boolean> {
  return (await deleteInviteeIfAbandoned(k, userId)).users.length > 0;
}
