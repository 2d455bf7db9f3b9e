import { useMemo } from 'react';
import { keepPreviousData, queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { MESSAGES, type Notification, type NotificationListResponse, type UnreadCount } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { useInvalidateOnEvent } from '../../realtime/query-invalidation';

/** Every read of the user's notifications in the query cache (each page of the list, with its unread count). */
export const NOTIFICATION_READS = ['notifications'] as const;
const LISTS = [...NOTIFICATION_READS, 'list'] as const;

/** Notifications per page of the list (the top bar reads the first page). */
export const NOTIFICATIONS_PER_PAGE = 20;

/** SPEC §8: failures of the notification calls are only logged, never shown. */
const logOnly = (err: unknown) => console.error(err);

/** The read of one page of the list, with the unread count (GET /notifications). */
export const notificationListQuery = (page: number) =>
  queryOptions({
    queryKey: [...LISTS, page],
    queryFn: ({ signal }) =>
      api
        .get<NotificationListResponse>('/notifications', MESSAGES.fetchNotificationsFailed, { params: { page, per_page: NOTIFICATIONS_PER_PAGE }, signal })
        .catch((err: unknown) => {
          // A read dropped for a fresh one (a live event crossed it) is no failure.
          if (!signal.aborted) logOnly(err);
          throw err;
        }),
  });

/**
 * One page of the user's notifications with the server's unread count. The
 * count is never added to on this side: every new notification
 * ('notification:new') and every change of the count ('notification:unread',
 * sent after each one) marks the lists stale, and a list still on its way
 * then is dropped for a fresh one (TanStack Query cancels it), so a list
 * that crossed a live event can never count a notification twice.
 */
export function useNotificationsQuery(page = 1) {
  useInvalidateOnEvent('notification:new', NOTIFICATION_READS);
  useInvalidateOnEvent('notification:unread', NOTIFICATION_READS);
  return useQuery({
    ...notificationListQuery(page),
    // The items of the page shown stay while the next page loads.
    placeholderData: keepPreviousData,
  });
}

/** Shows a notification read at once, the count one less, until the server's answer replaces both. */
function markReadInCache(queryClient: QueryClient, id: number) {
  queryClient.setQueriesData<NotificationListResponse>({ queryKey: LISTS }, (l) => {
    if (!l?.items.some((n) => n.id === id && !n.is_read)) return l;
    return { ...l, items: l.items.map((n) => (n.id === id ? { ...n, is_read: true } : n)), unread: Math.max(0, l.unread - 1) };
  });
}

/**
 * The user's changes to their notifications (SPEC §7): mark one or all read,
 * delete one or every read one. Each reads the lists again once the server
 * has answered, so they show exactly what the server holds.
 */
export function notificationActions(queryClient: QueryClient) {
  const refresh = () => queryClient.invalidateQueries({ queryKey: NOTIFICATION_READS });
  const send = async (path: string, body: object | null) => {
    try {
      await api.post<UnreadCount>(path, body, MESSAGES.fetchNotificationsFailed);
    } catch (err) {
      logOnly(err);
    }
    await refresh();
  };
  return {
    /** Marks an unread notification read; it shows read at once. */
    async markRead(n: Notification) {
      if (n.is_read) return;
      // A list on its way now predates the change: it must not put the notification back to unread.
      await queryClient.cancelQueries({ queryKey: LISTS });
      markReadInCache(queryClient, n.id);
      await send('/notifications/mark-read', { notification_id: n.id });
    },
    markAllRead: () => send('/notifications/mark-all-read', null),
    remove: (id: number) => send('/notifications/delete', { notification_id: id }),
    deleteRead: () => send('/notifications/delete-read', null),
  };
}

/** notificationActions on the app's query cache. */
export function useNotificationActions() {
  const queryClient = useQueryClient();
  return useMemo(() => notificationActions(queryClient), [queryClient]);
}
