import { userRoom } from '@sitewalk/proto';
import { Notification, User, db } from '@sitewalk/api/core/db';
import { config } from '@sitewalk/api/core/config';
import { enqueue } from '@sitewalk/api/core/queue';
import { emitTo } from '@sitewalk/api/core/realtime';
import { logger } from '@sitewalk/api/core/logger';
import { deliveryFor, pushUnread } from '@sitewalk/api/core/services/notifications.service.js';
import type { Handler } from '../registry.js';
import { jobKey } from './job-key.js';

export interface NotifyDispatchResult {
  notification_id: number | null;
  mail_queued: boolean;
  skipped?: 'no_user';
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** App links are stored relative ('/project/5'); a mail needs the full address. */
const absoluteLink = (link: string | undefined) => (link ? (/^https?:\/\//i.test(link) ? link : `${config.appUrl}${link.startsWith('/') ? '' : '/'}${link}`) : null);

/**
 * Delivers one notification as the user's preferences say (global switch and
 * the switch of its kind): stores it in the app and pushes it to the user's
 * open browsers, and queues the e-mail. The job's key is the notification's
 * dedupe_key and the mail job's id, so a retried run adds neither twice.
 */
export const notifyDispatch: Handler<'notify.dispatch'> = async (n, job): Promise<NotifyDispatchResult> => {
  const log = logger.child({ job: job.name, job_id: job.id, user_id: n.user_id, kind: n.kind });
  const user = await User.query().findById(n.user_id);
  if (!user || !user.active) {
    log.info('notification dropped: the user no longer exists or is disabled');
    return { notification_id: null, mail_queued: false, skipped: 'no_user' };
  }
  const key = jobKey(job);
  const delivery = await deliveryFor(user.id, n.kind);

  let notificationId: number | null = null;
  if (delivery.in_app) {
    await db()('notifications')
      .insert({ user_id: user.id, kind: n.kind, title: n.title, message: n.message, type: n.type, link: n.link ?? null, dedupe_key: key })
      .onConflict('dedupe_key')
      .ignore();
    const stored = await Notification.query().findOne({ dedupe_key: key });
    if (stored) {
      notificationId = stored.id;
      // Pushed again on a retry too: the browser keys notifications by id.
      emitTo(userRoom(user.id), 'notification:new', stored.toDto());
      await pushUnread(user.id);
    }
  }

  let mailQueued = false;
  if (n.email && delivery.email) {
    const link = absoluteLink(n.link);
    await enqueue(
      'mail.send',
      {
        to: user.email,
        subject: n.title,
        text: [n.message, ...(link ? ['', link] : [])].join('\n'),
        html: `<p>${escapeHtml(n.message)}</p>${link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : ''}`,
        reason: `notification:${n.kind}`,
      },
      // BullMQ ids may not contain ':'.
      { jobId: `mail-for-${key.replace(/:/g, '_')}` },
    );
    mailQueued = true;
  }
  log.info({ notification_id: notificationId, mail_queued: mailQueued }, 'notification delivered');
  return { notification_id: notificationId, mail_queued: mailQueued };
};
