import type { NoticeParams, Notification as NotificationDto } from '@sitewalk/proto';
import { BaseModel } from './base.js';

export class Notification extends BaseModel {
  static override tableName = 'notifications';
  id!: number;
  user_id!: number;
  kind!: string;
  title!: string;
  message!: string;
  type!: string;
  link!: string | null;
  is_read!: boolean;
  dedupe_key!: string | null;
  title_key!: string | null;
  message_key!: string | null;
  params!: NoticeParams | null;
  created_at!: Date;

  toDto(): NotificationDto {
    return notificationDto(this);
  }
}

/**
 * The notification as the API shows it, from a model or a plain row. One
 * written as keys carries them too (title and message then hold its
 * rendering in the reader's language), so a screen renders it in its own.
 */
export function notificationDto(
  n: Pick<Notification, 'id' | 'title' | 'message' | 'type' | 'is_read' | 'link'> & { created_at: Date | string } & Partial<Pick<Notification, 'title_key' | 'message_key' | 'params'>>,
): NotificationDto {
  return {
    id: n.id,
    title: n.title,
    message: n.message,
    type: n.type,
    is_read: n.is_read,
    created_at: new Date(n.created_at).toISOString(),
    link: n.link,
    ...(n.title_key && n.message_key ? { title_key: n.title_key, message_key: n.message_key, params: n.params ?? {} } : {}),
  };
}

export class NotificationPreference extends BaseModel {
  static override tableName = 'notification_preferences';
  id!: number;
  user_id!: number;
  kind!: string;
  in_app!: boolean;
  email!: boolean;
}

export class NotificationGlobalSetting extends BaseModel {
  static override tableName = 'notification_global_settings';
  static override idColumn = 'user_id';
  user_id!: number;
  in_app!: boolean;
  email!: boolean;
  browser!: boolean;
}
