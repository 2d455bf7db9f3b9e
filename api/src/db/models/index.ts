export { BaseModel } from './base.js';
export { User, toUserDto } from './user.js';
export { Session, UserToken } from './session.js';
export { Notification, NotificationPreference, NotificationGlobalSetting } from './notification.js';
