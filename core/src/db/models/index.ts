export { BaseModel } from './base.js';
export { User, toUserDto } from './user.js';
export { Session, UserToken } from './session.js';
export { Notification, NotificationPreference, NotificationGlobalSetting, notificationDto } from './notification.js';
export { Project, ProjectMember, ProjectStar, ProjectType } from './project.js';
export { Category, ProjectCategory } from './category.js';
export { Sheet, PdfUpload, Room } from './sheet.js';
export { Visit, RoomHotspot, Poi } from './visit.js';
export { Video } from './video.js';
