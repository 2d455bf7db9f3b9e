import crypto from 'node:crypto';
import type { Knex } from 'knex';
import {
  NOTIFICATION_KINDS,
  userRoom,
  type JobInput,
  type NoticeParams,
  type NoticeText,
  type Notification as NotificationDto,
  type NotificationGlobalSettings,
  type NotificationKind,
  type NotificationPreference as PreferenceDto,
  type NotificationPreferences,
  type Page,
} from '@sitewalk/proto';
import { type NotificationGlobalSetting, type NotificationPreference, db, notificationDto } from '../db/index.js';
import {
  countUnread,
  deleteNotificationRows,
  insertMissingPreferences,
  markNotificationsRead,
  notificationOfUser,
  notificationPageRows,
  patchGlobalPreferences,
  patchPreference,
  preferenceOfUser,
  preferenceRows,
} from '../repositories/notifications.repository.js';
import { superAdminIds } from '../repositories/users.repository.js';
import { enqueue } from '../queue/index.js';
import { emitTo } from '../realtime/emitter.js';
import { type Db } from '../db/query-types.js';
import { renderNotice, siteName } from './notice-text.js';

const GLOBAL_DEFAULTS: NotificationGlobalSettings = { in_app: true, email: true, browser: true };

const toPreferenceDto = (p: NotificationPreference): PreferenceDto => ({
  id: p.id,
  kind: p.kind as NotificationKind,
  in_app: p.in_app,
  email: p.email,
});

const toGlobalDto = (g: NotificationGlobalSetting | undefined): NotificationGlobalSettings =>
  g ? { in_app: g.in_app, email: g.email, browser: g.browser } : { ...GLOBAL_DEFAULTS };

/**
 * A user's notification preferences: global switches and one row per
 * NOTIFICATION_KINDS. Missing rows (a new user, or a kind added later) are
 * created with the defaults on first read; ON CONFLICT keeps two concurrent
 * first reads from failing or duplicating.
 */
export async function getPreferences(userId: number, trx?: Knex.Transaction): Promise<NotificationPreferences> {
  const k = trx ?? db();
  let { global, prefs } = await preferenceRows(k, userId);
  const missingKinds = NOTIFICATION_KINDS.filter((kind) => !prefs.some((p) => p.kind === kind));
  if (!global || missingKinds.length) {
    const create = async (t: Db) => {
      await insertMissingPreferences(t, userId, GLOBAL_DEFAULTS, missingKinds);
      return preferenceRows(t, userId);
    };
    ({ global, prefs } = trx ? await create(trx) : await db().transaction(create));
  }
  const known = new Set<string>(NOTIFICATION_KINDS);
  return {
    global_settings: toGlobalDto(global),
    preferences: prefs.filter((p) => known.has(p.kind)).map(toPreferenceDto),
  };
}

/** Whether a notification of this kind goes to the user in the app and by e-mail. */
export async function deliveryFor(userId: number, kind: string, trx?: Knex.Transaction): Promise<{ in_app: boolean; email: boolean }> {
  const prefs = await getPreferences(userId, trx);
  const own = prefs.preferences.find((p) => p.kind === kind);
  return {
    in_app: prefs.global_settings.in_app && (own?.in_app ?? true),
    email: prefs.global_settings.email && (own?.email ?? true),
  };
}

/**
 * Changes one preference (by its id, which must be the user's) or the global
 * switches. Returns the preferences as they are now, or null when the id is
 * not one of the user's (the caller answers 404).
 */
export async function updatePreferences(
  userId: number,
  input: { id: number; in_app?: boolean; email?: boolean } | { global_settings: Partial<NotificationGlobalSettings> },
): Promise<NotificationPreferences | null> {
  return db().transaction(async (trx) => {
    await getPreferences(userId, trx);
    if ('global_settings' in input) {
      const patch = definedOnly(input.global_settings);
      if (Object.keys(patch).length) await patchGlobalPreferences(trx, userId, patch);
    } else {
      const { id, ...rest } = input;
      const patch = definedOnly(rest);
      const row = await preferenceOfUser(trx, id, userId);
      if (!row) return null;
      if (Object.keys(patch).length) await patchPreference(trx, id, userId, patch);
    }
    return getPreferences(userId, trx);
  });
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

interface NotifyCommon {
  kind: NotificationKind;
  type?: string;
  link?: string;
  /** Also by e-mail when the user's preferences allow it (default true). */
  email?: boolean;
}

/**
 * What notify() takes: a notice of the catalogue as keys and values
 * (`{ kind, ...notice('visitCreated', {...}) }`, shown in each reader's
 * language), or a plain title and message (shown as written; a text the
 * translations know is still translated by the client).
 */
export type NotifyInput = NotifyCommon & ({ title: string; message: string } | NoticeText);

/** Keys win over a plain text given too. */
const isKeyed = (input: NotifyInput): input is NotifyCommon & NoticeText => 'title_key' in input && !!input.title_key;

/** The notice in English: the title and message stored with it and carried by the job (readers without keys see these). */
async function plainText(input: NotifyInput): Promise<{ title: string; message: string; title_key?: string; message_key?: string; params?: NoticeParams }> {
  if (!isKeyed(input)) return { title: input.title, message: input.message };
  const { title, message } = await renderNotice({ title: '', message: '', ...input }, 'en');
  return { title: title.slice(0, 200), message: message.slice(0, 2000), title_key: input.title_key, message_key: input.message_key, params: input.params ?? {} };
}

/**
 * The one way a feature notifies a user: a notify.dispatch job applies the
 * user's preferences, stores the in-app notification, pushes it live and
 * sends the e-mail, in the user's language. `key` makes it idempotent: the
 * same key is not queued twice while the first job is kept (use it for
 * "this event of this object").
 */
export async function notify(userId: number, input: NotifyInput, opts: { key?: string } = {}) {
  const { kind, type, link, email } = input;
  const payload: JobInput<'notify.dispatch'> = { user_id: userId, kind, type, link, email, ...(await plainText(input)) };
  // BullMQ ids may not be integers nor contain ':'.
  const jobId = opts.key ? `notify-${opts.key.replace(/:/g, '_')}` : `notify-${crypto.randomUUID()}`;
  return enqueue('notify.dispatch', payload, { jobId });
}

/** Notifies every active super administrator (e.g. new registrations, SMTP check results); returns their ids. */
export async function notifySuperAdmins(input: NotifyInput, opts: { key?: string } = {}): Promise<number[]> {
  const admins = await superAdminIds(db());
  await Promise.all(admins.map((id) => notify(id, input, opts.key ? { key: `${opts.key}-u${id}` } : {})));
  return admins;
}

export const unreadCount = (userId: number, k: Db = db()): Promise<number> => countUnread(k, userId);

/** Tells the user's open browsers the new unread count (after any change). */
export async function pushUnread(userId: number): Promise<number> {
  const unread = await unreadCount(userId);
  emitTo(userRoom(userId), 'notification:unread', { unread });
  return unread;
}

export interface NotificationList extends Page<NotificationDto> {
  unread: number;
}

/**
 * The user's notifications, newest first, one page, with the total and
 * unread counts, rows straight into the answer without model hydration. A notification
 * written as keys is rendered in `language` (the reader's) and carries its
 * keys; an older one keeps its stored text.
 */
export async function listNotifications(userId: number, page: number, perPage: number, language = 'en'): Promise<NotificationList> {
  const rows = await notificationPageRows(userId, page, perPage);
  const items: NotificationDto[] = [];
  // The site's name is read only when a page has a keyed notice.
  let site: string | undefined;
  for (const r of rows) {
    if (r.id === null) continue;
    if (r.title_key && r.message_key) {
      site ??= await siteName();
      items.push(notificationDto({ ...r, id: r.id, ...(await renderNotice(r, language, site)) }));
      continue;
    }
    // The fields of notificationDto (models/notification.ts), in its order: the answer's bytes are the same.
    items.push({ id: r.id, title: r.title, message: r.message, type: r.type, is_read: r.is_read, created_at: r.created_at, link: r.link });
  }
  return { items, total: rows[0]?.total ?? 0, page, per_page: perPage, unread: rows[0]?.unread ?? 0 };
}

/** Marks one of the user's notifications read; false when it is not theirs or does not exist. */
export async function markRead(userId: number, notificationId: number): Promise<boolean> {
  const found = await notificationOfUser(db(), notificationId, userId);
  if (!found) return false;
  if (!found.is_read) await markNotificationsRead(db(), userId, notificationId);
  return true;
}

export async function markAllRead(userId: number): Promise<number> {
  return markNotificationsRead(db(), userId);
}

/** Deletes one of the user's notifications; false when it is not theirs or does not exist. */
export async function deleteNotification(userId: number, notificationId: number): Promise<boolean> {
  return (await deleteNotificationRows(db(), userId, { id: notificationId })) > 0;
}

export async function deleteRead(userId: number): Promise<number> {
  return deleteNotificationRows(db(), userId, { is_read: true });
}
