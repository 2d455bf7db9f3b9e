import { enqueue } from '../queue/index.js';
import { logger } from '../logger.js';
import type { MailContent, MailLanguage } from './templates.js';
import { sealedMailJob } from './sealed-mail.js';

/** A user's stored language as a mail language (anything unknown reads English). */
export const mailLanguage = (lang: string | null | undefined): MailLanguage => (lang === 'ar' ? 'ar' : 'en');

/**
 * Queues a mail for the workers' mail.send job; requests never talk SMTP.
 * `key` names the event ("password reset token 42"): the same key is queued
 * once, and the worker sends it once even when the job is retried.
 * Returns false when the queue could not take it (Redis down).
 */
export async function queueMail(to: string, content: MailContent, reason: string, key: string): Promise<boolean> {
  try {
    // BullMQ job ids may not contain ':' nor be plain integers.
    await enqueue('mail.send', sealedMailJob(to, content, reason), { jobId: `mail-${key.replace(/:/g, '_')}` });
    return true;
  } catch (err) {
    logger.error({ err, reason }, 'could not queue a mail');
    return false;
  }
}
