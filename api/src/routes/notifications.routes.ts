import {
  MESSAGES,
  notificationIdSchema,
  pageQuerySchema,
  preferenceUpdateSchema,
  type NotificationListResponse,
  type NotificationPreferences,
  type UnreadCount,
} from '@sitewalk/proto';
import { ok } from '../http/envelope.js';
import { notFound } from '@sitewalk/core/errors.js';
import { currentUser, requireAuth } from '../http/auth.js';
import { body, query } from '../http/validate.js';
import {
  deleteNotification,
  deleteRead,
  getPreferences,
  listNotifications,
  markAllRead,
  markRead,
  pushUnread,
  updatePreferences,
} from '@sitewalk/core/services/notifications.service.js';
import type { RouteModule } from './types.js';

const NOT_FOUND = 'This notification does not exist.';

/** SPEC §7 "Notifications": every call acts on the signed-in user's own notifications only. */
const notificationsRoutes: RouteModule = (r) => {
  r.get('/notifications', requireAuth, async (ctx) => {
    const { page, per_page } = query(ctx, pageQuerySchema);
    const user = currentUser(ctx);
    // Notices written as keys come in the user's language (SPEC §3 user language, saved by POST /language).
    ok<NotificationListResponse>(ctx, await listNotifications(user.id, page, per_page, user.language));
  });

  r.get('/notifications/preferences', requireAuth, async (ctx) => {
    ok<NotificationPreferences>(ctx, await getPreferences(currentUser(ctx).id));
  });

  r.post('/notifications/preferences', requireAuth, async (ctx) => {
    const input = body(ctx, preferenceUpdateSchema);
    const prefs = await updatePreferences(currentUser(ctx).id, input);
    if (!prefs) throw notFound('This notification preference does not exist.');
    ok<NotificationPreferences>(ctx, prefs, MESSAGES.preferencesUpdated);
  });

  r.post('/notifications/mark-all-read', requireAuth, async (ctx) => {
    const user = currentUser(ctx);
    await markAllRead(user.id);
    ok<UnreadCount>(ctx, { unread: await pushUnread(user.id) }, 'All notifications are marked as read.');
  });

  r.post('/notifications/mark-read', requireAuth, async (ctx) => {
    const user = currentUser(ctx);
    const { notification_id } = body(ctx, notificationIdSchema);
    if (!(await markRead(user.id, notification_id))) throw notFound(NOT_FOUND);
    ok<UnreadCount>(ctx, { unread: await pushUnread(user.id) }, 'Notification marked as read.');
  });

  r.post('/notifications/delete', requireAuth, async (ctx) => {
    const user = currentUser(ctx);
    const { notification_id } = body(ctx, notificationIdSchema);
    if (!(await deleteNotification(user.id, notification_id))) throw notFound(NOT_FOUND);
    ok<UnreadCount>(ctx, { unread: await pushUnread(user.id) }, 'Notification deleted.');
  });

  r.post('/notifications/delete-read', requireAuth, async (ctx) => {
    const user = currentUser(ctx);
    const deleted = await deleteRead(user.id);
    ok<UnreadCount & { deleted: number }>(ctx, { unread: await pushUnread(user.id), deleted }, `${deleted} read notification(s) deleted.`);
  });
};

export default notificationsRoutes;
