import { z } from 'zod';

/** SPEC §3 Notification. */
export interface Notification {
  id: number;
  title: string;
  message: string;
  type: string;
  is_read: boolean;
  created_at: string;
  link?: string | null;
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

export const notificationIdSchema = z.object({ notification_id: z.coerce.number().int().positive() });

/** POST /notifications/preferences: the preference object (with id), or global settings. */
export const preferenceUpdateSchema = z.union([
  z.object({
    id: z.number().int().positive(),
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
]);
