import { UnrecoverableError } from 'bullmq';
import { db } from '@sitewalk/core/db';
import { claimSentMail } from '@sitewalk/core/repositories/sent-mails.repository.js';
import { logger } from '@sitewalk/core/logger.js';
import { getSettings } from '@sitewalk/core/services/settings.service.js';
import { localPath } from '@sitewalk/core/storage/index.js';
import { openMailJob } from '@sitewalk/core/mail/sealed-mail.js';
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
export const mailSend: Handler<'mail.send'> = async (payload, job): Promise<MailSendResult> => {
  const log = logger.child({ job: job.name, job_id: job.id, reason: payload.reason });
  let mail: ReturnType<typeof openMailJob>;
  try {
    mail = openMailJob(payload);
  } catch (err) {
    // Sealed with another key (SETTINGS_KEY / APP_SECRET differ from the API's): retrying cannot help.
    throw new UnrecoverableError(`The mail does not open with this server's key: ${(err as Error).message}`);
  }
  if (!mail.subject) throw new UnrecoverableError('The mail has no subject.');
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
    if (!(await claimSentMail(trx, { job_key: key, to: mail.to, subject: mail.subject.slice(0, 300) }))) {
      log.info('mail already sent by an earlier run of this job');
      return { sent: false, skipped: 'already_sent' } as const;
    }
    const mailer = createMailer(settings);
    try {
      // Attachments are storage keys the server chose (an invoice PDF); never a path from a request.
      const attachments = mail.attachments?.map((a) => ({ filename: a.filename, path: localPath(a.key) }));
      const info = await mailer.send({ ...mail, attachments });
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
