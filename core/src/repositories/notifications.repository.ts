import type { NoticeParams, NotificationGlobalSettings } from '@sitewalk/proto';
import { Notification, NotificationGlobalSetting, NotificationPreference, preparedQuery } from '../db/index.js';
import type { Db } from '../db/query-types.js';

/**
 * Every query of a user's notifications and of their notification
 * preferences (the global switches and one row per kind). Rows are the
 * Objection models; the services hold the rules.
 */

// ---- Preferences ----

/** The user's global switches (none before the first read) and their preferences per kind, by id. */
export async function preferenceRows(k: Db, userId: number): Promise<{ global: NotificationGlobalSetting | undefined; prefs: NotificationPreference[] }> {
  const [global, prefs] = await Promise.all([
    NotificationGlobalSetting.query(k).findById(userId),
    NotificationPreference.query(k).where({ user_id: userId }).orderBy('id'),
  ]);
  return { global, prefs };
}

/**
 * Writes the global switches and the preferences of these kinds with the
 * given defaults where the user has none yet; ON CONFLICT keeps two
 * concurrent first reads from failing or duplicating.
 */
export async function insertMissingPreferences(k: Db, userId: number, global: NotificationGlobalSettings, kinds: string[]): Promise<void> {
  await k('notification_global_settings').insert({ user_id: userId, ...global }).onConflict('user_id').ignore();
  if (kinds.length) {
    await k('notification_preferences')
      .insert(kinds.map((kind) => ({ user_id: userId, kind, in_app: true, email: true })))
      .onConflict(['user_id', 'kind'])
      .ignore();
  }
}

export async function patchGlobalPreferences(k: Db, userId: number, patch: Partial<NotificationGlobalSettings>): Promise<void> {
  await NotificationGlobalSetting.query(k).patch(patch).where({ user_id: userId });
}

/** The preference with this id if it is the user's. */
export async function preferenceOfUser(k: Db, id: number, userId: number): Promise<NotificationPreference | undefined> {
  return await NotificationPreference.query(k).findOne({ id, user_id: userId });
}

export async function patchPreference(k: Db, id: number, userId: number, patch: { in_app?: boolean; email?: boolean }): Promise<void> {
  await NotificationPreference.query(k).patch(patch).where({ id, user_id: userId });
}

// ---- Notifications ----

/** What one notification stores. */
export type NotificationInsert = Pick<Notification, 'user_id' | 'kind' | 'title' | 'message' | 'type' | 'link' | 'dedupe_key'> &
  Partial<{ title_key: string; message_key: string; params: NoticeParams }>;

/** Stores a notification once per dedupe key (a retried job stores nothing more) and returns the one stored under that key. */
export async function insertNotificationOnce(k: Db, row: NotificationInsert & { dedupe_key: string }): Promise<Notification | undefined> {
  await k('notifications')
    .insert({ ...row, ...(row.params ? { params: JSON.stringify(row.params) } : {}) })
    .onConflict('dedupe_key')
    .ignore();
  return await Notification.query(k).findOne({ dedupe_key: row.dedupe_key });
}

export async function countUnread(k: Db, userId: number): Promise<number> {
  const row = await k('notifications').where({ user_id: userId, is_read: false }).count<{ count: number }[]>({ count: '*' }).first();
  return Number(row?.count ?? 0);
}

/** A row of a page of notifications with the user's counts; `id` is null on the one row of a page past the end. */
export type NotificationPageRow = {
  total: number;
  unread: number;
  id: number | null;
  title: string;
  message: string;
  type: string;
  is_read: boolean;
  created_at: string;
  link: string | null;
  title_key: string | null;
  message_key: string | null;
  params: NoticeParams | null;
};

/**
 * One page and both counts in one statement: the counts (one pass over the
 * user's rows) joined with the page, so a page past the end still gives one
 * row with the counts and no notification. created_at comes as the ISO text
 * the answer carries (what Date#toISOString writes: UTC, milliseconds, both
 * truncated alike), instead of pg parsing it into a Date to be written back.
 */
const PAGE_SQL =
  'select c.total, c.unread, n.id, n.title, n.message, n.type, n.is_read, ' +
  `to_char(n.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at, n.link, n.title_key, n.message_key, n.params ` +
  'from (select count(*)::int as total, (count(*) filter (where not is_read))::int as unread from notifications where user_id = $1) c ' +
  'left join lateral (select id, title, message, type, is_read, created_at, link, title_key, message_key, params from notifications where user_id = $1 ' +
  'order by created_at desc, id desc limit $2 offset $3) n on true ' +
  'order by n.created_at desc, n.id desc';

/** The user's notifications newest first, one page, with the total and unread counts: every page of the app asks for it, so one prepared statement. */
export function notificationPageRows(userId: number, page: number, perPage: number): Promise<NotificationPageRow[]> {
  return preparedQuery<NotificationPageRow>('notifications-page-and-counts-v3', PAGE_SQL, [userId, perPage, (page - 1) * perPage]);
}

/** The notification with this id if it is the user's. */
export async function notificationOfUser(k: Db, id: number, userId: number): Promise<Notification | undefined> {
  return await Notification.query(k).findOne({ id, user_id: userId });
}

/** Marks the user's notification with this id, or all their unread ones, read; how many changed. */
export async function markNotificationsRead(k: Db, userId: number, id?: number): Promise<number> {
  const q = Notification.query(k).patch({ is_read: true }).where({ user_id: userId });
  if (id) q.where({ id });
  else q.where({ is_read: false });
  return await q;
}

/** Deletes the user's notification with this id, or all their read ones; how many went. */
export async function deleteNotificationRows(k: Db, userId: number, which: { id: number } | { is_read: true }): Promise<number> {
  return await Notification.query(k).delete().where({ user_id: userId, ...which });
}
