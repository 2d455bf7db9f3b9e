import type { Db } from '../db/query-types.js';

/** Every query of the record of mails sent (`sent_mails`): one row per mail job, so a rerun never sends twice. */

/**
 * Claims the sending of a mail job's mail: true when this run is the first, false when an earlier run already sent it.
 * Inside a transaction a second run waits here until the first commits; a rollback frees the key for a retry.
 */
export async function claimSentMail(k: Db, mail: { job_key: string; to: string; subject: string }): Promise<boolean> {
  const claimed = await k('sent_mails').insert(mail).onConflict('job_key').ignore().returning('job_key');
  return claimed.length > 0;
}
