import { SMTP_SETTING_KEYS, notice, type Settings } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { logger } from '@sitewalk/core/logger.js';
import { getSettings, saveSettings } from '@sitewalk/core/services/settings.service.js';
import { notify, notifySuperAdmins, type NotifyInput } from '@sitewalk/core/services/notifications.service.js';
import { createMailer, describeSmtpError, smtpSettingsProblem } from '../adapters/mailer.js';
import type { Handler } from '../registry.js';
import { jobKey } from './job-key.js';

const smtpFingerprint = (s: Settings) => JSON.stringify(SMTP_SETTING_KEYS.map((k) => s[k]));

/**
 * Tries the SMTP settings against the server (connect, STARTTLS or TLS as
 * set, login) and stores the outcome in smtp_valid; super admins (and who
 * asked) get a notification saying whether mail works and, if not, why.
 */
export const mailVerify: Handler<'mail.verify'> = async (data, job) => {
  const settings = await getSettings();
  let reason = smtpSettingsProblem(settings);
  if (!reason) {
    const mailer = createMailer(settings);
    try {
      await mailer.verify();
    } catch (err) {
      reason = describeSmtpError(err);
    } finally {
      mailer.close();
    }
  }
  const valid = reason === null;

  const stored = await db().transaction(async (trx) => {
    // Settings changed while we checked: the newer check (queued by that change) decides.
    if (smtpFingerprint(await getSettings(trx)) !== smtpFingerprint(settings)) return false;
    await saveSettings({ smtp_valid: valid }, trx);
    return true;
  });
  logger.info({ job_id: job.id, valid, reason, stored }, 'SMTP settings checked');
  if (!stored) return { valid, stored };

  const message: NotifyInput = valid
    ? {
        kind: 'system',
        ...notice('mailWorks', { server: `${settings.smtp_server}:${settings.smtp_port}` }),
        type: 'success',
        link: '/settings',
      }
    : {
        kind: 'system',
        ...notice('mailFails', { reason: reason ?? '' }),
        type: 'error',
        link: '/settings',
        // Mail does not work: no point trying to send this one by mail.
        email: false,
      };
  const key = jobKey(job).replace(/[^A-Za-z0-9_-]/g, '_');
  const admins = await notifySuperAdmins(message, { key: `smtp-check-${key}` });
  if (data.requested_by && !admins.includes(data.requested_by)) {
    await notify(data.requested_by, message, { key: `smtp-check-${key}-u${data.requested_by}` });
  }
  return { valid, stored, reason };
};
