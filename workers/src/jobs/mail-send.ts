import { UnrecoverableError } from 'bullmq';
import { db } from '@sitewalk/api/core/db';
import { logger } from '@sitewalk/api/core/logger';
import { getSettings } from '@sitewalk/api/core/services/settings.service.js';
import { createMailer, describeSmtpError, isPermanentSmtpError, smtpSettingsProblem } from '../adapters/mailer.js';
import type { Handler } from '../registry.js';
import { jobKey } from './job-key.js';

export type MailSendResult = { sent: true; message_id: string } | { sent: false; skipped: 'smtp_not_valid' | 'already_sent' };

/**
 * Sends one mail with the SMTP settings of the database. Skipped (completed,
 * with the reason logged) while the settings are not verified: retrying
 * would not make them valid. A row in sent_mails, written in the same
 * transaction as the hand-over to the server, makes a retried or stalled
 * run of the same job send nothing.
 */
export const mailSend: Handler<'mail.send'> = async (mail, job): Promise<MailSendResult> => {
  const log = logger.child({ job: job.name, job_id: job.id, reason: mail.reason });
  const settings = await getSettings();
  if (!settings.smtp_valid) {
    log.warn({ to: mail.to }, 'mail not sent: the SMTP settings are not verified (smtp_valid is off)');
    return { sent: false, skipped: 'smtp_not_valid' };
  }
  const problem = smtpSettingsProblem(settings);
  if (problem) throw new UnrecoverableError(problem);

  const key = jobKey(job);
  return db().transaction(async (trx) => {
    // A second run of this job waits here until the first commits, then finds the row.
    const claimed = await trx('sent_mails')
      .insert({ job_key: key, to: mail.to, subject: mail.subject.slice(0, 300) })
      .onConflict('job_key')
      .ignore()
      .returning('job_key');
    if (!claimed.length) {
      log.info('mail already sent by an earlier run of this job');
      return { sent: false, skipped: 'already_sent' } as const;
    }
    const mailer = createMailer(settings);
    try {
      const info = await mailer.send(mail);
      log.info({ message_id: info.messageId }, 'mail sent');
      return { sent: true, message_id: info.messageId } as const;
    } catch (err) {
      // Rolling back frees the key, so the retry may send.
      if (isPermanentSmtpError(err)) throw new UnrecoverableError(describeSmtpError(err));
      throw err;
    } finally {
      mailer.close();
    }
  });
};
