import type { JobOf } from '@sitewalk/proto';
import { tokenLink } from '../../test/support/mime.js';
import { queue } from '@sitewalk/core/queue';
import { openMailJob } from '@sitewalk/core/mail/sealed-mail.js';

/**
 * The mail.send jobs queued for an address, in whatever state a worker left
 * them, oldest first: what the API asked to be mailed.
 */
export async function queuedMails(to: string): Promise<ReturnType<typeof openMailJob>[]> {
  const jobs = await queue('mail').getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed', 'paused']);
  return jobs
    .filter((j) => j?.name === 'mail.send' && (j.data as JobOf<'mail.send'>).to === to)
    .sort((a, b) => a.timestamp - b.timestamp)
    .map((j) => openMailJob(j.data as JobOf<'mail.send'>));
}

/** The token of the last link to `path` mailed to an address. */
export async function lastMailedToken(to: string, path: string): Promise<string> {
  const mails = await queuedMails(to);
  for (const m of mails.reverse()) {
    const link = tokenLink(m.text, path);
    if (link) return link.token;
  }
  throw new Error(`no mail with a ${path} link was queued for ${to}`);
}
