import { userRoom } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { userById } from '@sitewalk/core/repositories/users.repository.js';
import { insertNotificationOnce } from '@sitewalk/core/repositories/notifications.repository.js';
import { config } from '@sitewalk/core/config.js';
import { enqueue } from '@sitewalk/core/queue';
import { emitTo } from '@sitewalk/core/realtime';
import { logger } from '@sitewalk/core/logger.js';
import { sealedMailJob } from '@sitewalk/core/mail/sealed-mail.js';
import { notificationMail } from '@sitewalk/core/mail/templates.js';
import { deliveryFor, pushUnread } from '@sitewalk/core/services/notifications.service.js';
import { noticeLanguage, renderNotice, siteName } from '@sitewalk/core/services/notice-text.js';
import { displayName } from '@sitewalk/core/services/users.service.js';
import type { Handler } from '../registry.js';
import { jobKey } from './job-key.js';

export interface NotifyDispatchResult {
  notification_id: number | null;
  mail_queued: boolean;
  skipped?: 'no_user';
}

/** App links are stored relative ('/project/5'); a mail needs the full address. */
const absoluteLink = (link: string | undefined) => (link ? (/^https?:\/\//i.test(link) ? link : `${config.appUrl}${link.startsWith('/') ? '' : '/'}${link}`) : null);

/**
 * Delivers one notification as the user's preferences say (global switch and
 * the switch of its kind): stores it in the app and pushes it to the user's
 * open browsers, and queues the e-mail, in the user's language when it is
 * written as keys. The job's key is the notification's dedupe_key and the
 * mail job's id, so a retried run adds neither twice.
 */
export const notifyDispatch: Handler<'notify.dispatch'> = async (n, job): Promise<NotifyDispatchResult> => {
  const log = logger.child({ job: job.name, job_id: job.id, user_id: n.user_id, kind: n.kind });
  const user = await userById(db(), n.user_id);
  if (!user || !user.active) {
    log.info('notification dropped: the user no longer exists or is disabled');
    return { notification_id: null, mail_queued: false, skipped: 'no_user' };
  }
  const key = jobKey(job);
  const delivery = await deliveryFor(user.id, n.kind);
  const site = await siteName();
  const lang = noticeLanguage(user.language);
  const keyed = n.title_key && n.message_key ? { title_key: n.title_key, message_key: n.message_key, params: n.params ?? {} } : null;
  // What this reader sees (and what is stored, so the table reads as the screen did); a plain notice stays as written.
  const text = keyed ? await renderNotice({ ...n, ...keyed }, lang, site) : { title: n.title, message: n.message };

  let notificationId: number | null = null;
  if (delivery.in_app) {
    const stored = await insertNotificationOnce(db(), {
      user_id: user.id,
      kind: n.kind,
      title: text.title.slice(0, 200),
      message: text.message,
      type: n.type,
      link: n.link ?? null,
      dedupe_key: key,
      ...(keyed ?? {}),
    });
    if (stored) {
      notificationId = stored.id;
      // Pushed again on a retry too: the browser keys notifications by id.
      emitTo(userRoom(user.id), 'notification:new', stored.toDto());
      await pushUnread(user.id);
    }
  }

  let mailQueued = false;
  if (n.email && delivery.email) {
    await enqueue(
      'mail.send',
      sealedMailJob(
        user.email,
        notificationMail(lang, { siteName: site, name: displayName(user), title: text.title, message: text.message, link: absoluteLink(n.link) }),
        `notification:${n.kind}`,
      ),
      // BullMQ ids may not contain ':'.
      { jobId: `mail-for-${key.replace(/:/g, '_')}` },
    );
    mailQueued = true;
  }
  log.info({ notification_id: notificationId, mail_queued: mailQueued }, 'notification delivered');
  return { notification_id: notificationId, mail_queued: mailQueued };
};
