import { conflict } from '../errors.js';
import { isUniqueViolation, type Db } from '../db/query-types.js';
import {
  closeInvitation,
  closePendingInvitation,
  hasPendingInvitation,
  insertInvitation,
  lockInvitationFor,
  type InvitationKind,
  type InvitationRow,
  type InvitationTarget,
  type Invitee,
} from '../repositories/invitations.repository.js';

/**
 * The life cycle of an invitation, the same into a project's team
 * (team-invitations.service.ts) and into a subscription plan
 * (plan-members.service.ts): sent while none waits for the same person,
 * then accepted or declined once by the person it is addressed to, or
 * cancelled. Who may invite, what accepting grants and who hears of it are
 * the callers' rules.
 *
 * A plan invitation names an e-mail address: it waits for whichever active
 * account has that address — one made after it was sent too, however it
 * was made — and records the account that answers it.
 */

/** Sends an invitation: one pending per target and person, else 409 with `alreadyInvited`. Run in the caller's transaction. */
export async function createInvitation(
  trx: Db,
  target: InvitationTarget,
  who: Invitee,
  terms: { role: string; permissions?: object; invited_by: number },
  alreadyInvited: string,
): Promise<InvitationRow> {
  if (await hasPendingInvitation(trx, target, who)) throw conflict(alreadyInvited);
  try {
    return await insertInvitation(trx, target, who, terms);
  } catch (err) {
    // Two at once: the unique index keeps the second out.
    if (isUniqueViolation(err)) throw conflict(alreadyInvited);
    throw err;
  }
}

/**
 * The answer of the person an invitation is addressed to: it is locked
 * for the rest of the transaction and, while pending, closed as accepted
 * or declined by them. `undefined` when it is not theirs; `answered` false
 * when it was answered or cancelled before (the row says how).
 */
export async function recordAnswer(trx: Db, kind: InvitationKind, id: number, userId: number, accept: boolean): Promise<{ invitation: InvitationRow; answered: boolean } | undefined> {
  const invitation = await lockInvitationFor(trx, kind, id, userId);
  if (!invitation) return undefined;
  if (invitation.status !== 'pending') return { invitation, answered: false };
  await closeInvitation(trx, id, accept ? 'accepted' : 'declined', userId);
  return { invitation, answered: true };
}

/** Cancels one pending invitation by its id (a plan's owner or manager takes it back); false when it was answered meanwhile. */
export async function cancelInvitationById(k: Db, id: number): Promise<boolean> {
  return closeInvitation(k, id, 'cancelled');
}

/** Cancels this person's pending invitation to the target; whether there was one. */
export async function cancelPendingInvitation(k: Db, target: InvitationTarget, who: Invitee): Promise<boolean> {
  return (await closePendingInvitation(k, target, who, 'cancelled')) > 0;
}

/** The person joined another way (a join request was accepted): their pending invitation is answered by the same fact. */
export async function acceptedAnotherWay(k: Db, target: InvitationTarget, who: Invitee): Promise<void> {
  await closePendingInvitation(k, target, who, 'accepted');
}
