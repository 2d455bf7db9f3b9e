import { z } from 'zod';
import { idOf } from './ids.js';
import type { NoticeParams } from './notification-text.js';

/**
 * SPEC §3 Notification. title and message are in the reader's language;
 * a notification written as keys also carries them (title_key, message_key,
 * params), so a screen can render it in the language it shows
 * (noticeInLanguage).
 */
export interface Notification {
  id: number;
  title: string;
  message: string;
  type: string;
  is_read: boolean;
  created_at: string;
  link?: string | null;
  title_key?: string | null;
  message_key?: string | null;
  params?: NoticeParams | null;
}

export const NOTIFICATION_TYPES = ['info', 'error', 'success'] as const;

/**
 * What a user can be notified about. Each has an in-app and an e-mail switch
 * in the user's preferences.
 */
export const NOTIFICATION_KINDS = [
  'account',
  'project_created',
  'sheets_ready',
  'visit_created',
  'video_processed',
  'plan',
  'team',
  'registration',
  /** Platform messages for administrators, such as the result of the mail server check. */
  'system',
  /** A snag was given to me. */
  'snag_assigned',
  /** A snag I wrote or work on changed status, is ready for my review, or got a comment. */
  'snag_updated',
  /** The daily reminder of my overdue snags. */
  'snag_overdue',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface NotificationPreference {
  id: number;
  kind: NotificationKind;
  in_app: boolean;
  email: boolean;
}

export interface NotificationGlobalSettings {
  in_app: boolean;
  email: boolean;
  browser: boolean;
}

export interface NotificationPreferences {
  global_settings: NotificationGlobalSettings;
  preferences: NotificationPreference[];
}

export const notificationIdSchema = z.object({
  notification_id: idOf('notification_id'),
});

/**
 * POST /notifications/preferences: the preference object (with its id; the
 * client may send it whole, kind included, which is ignored), or the global
 * switches as {global_settings}.
 */
export const preferenceUpdateSchema = z.union(
  [
    z.object({
      id: z.number().int().positive(),
      kind: z.string().max(60).optional(),
      in_app: z.boolean().optional(),
      email: z.boolean().optional(),
    }).strict(),
    z.object({
      global_settings: z.object({
        in_app: z.boolean().optional(),
        email: z.boolean().optional(),
        browser: z.boolean().optional(),
      }).strict(),
    }).strict(),
  ],
  { error: 'Send a notification preference with its id, or {global_settings} with in_app, email or browser switches.' },
);
export type PreferenceUpdate = z.infer<typeof preferenceUpdateSchema>;

/** GET /notifications: one page of the user's notifications, newest first, and the unread count. */
export interface NotificationListResponse {
  items: Notification[];
  total: number;
  page: number;
  per_page: number;
  unread: number;
}

/** Answer of the calls that change notifications: the unread count after the change. */
export interface UnreadCount {
  unread: number;
}
