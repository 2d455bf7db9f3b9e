import type { AnnotationChangedEvent } from './annotations.js';
import type { Notification } from './notifications.js';
import type { TeamChangedEvent } from './teams.js';

/** Socket.IO rooms: every authenticated socket joins `user:{id}`. */
export const userRoom = (userId: number) => `user:${userId}`;
export const projectRoom = (projectId: number) => `project:${projectId}`;

/** Events the server pushes to browsers. */
export interface ServerToClientEvents {
  'notification:new': (n: Notification) => void;
  'notification:unread': (p: { unread: number }) => void;
  /** Progress of a long job the user started (PDF sheets, video, ...). */
  'job:progress': (p: JobProgressEvent) => void;
  'session:revoked': () => void;
  /** A snag of the project was created, changed or deleted (to `project:{id}`). */
  'annotation:changed': (p: AnnotationChangedEvent) => void;
  /** A project's team changed (join request, invitation, membership): the Team card reloads. */
  'team:changed': (p: TeamChangedEvent) => void;
  /** An invoice of the user was created, paid, voided or got its PDF (to `user:{id}` and to super admins): billing lists reload. */
  'invoice:changed': (p: { id_invoice: number; status: string }) => void;
  /** Something the user's profile load shows changed on the server (their plan, its members, their projects): reload it. */
  'profile:changed': () => void;
}

export interface ClientToServerEvents {
  'project:join': (projectId: number, ack?: (ok: boolean) => void) => void;
  'project:leave': (projectId: number) => void;
}

export interface JobProgressEvent {
  job: string;
  /** The object the job works on, e.g. `{kind: 'pdf-upload', id: 12}`. */
  subject: { kind: string; id: number };
  project_id?: number;
  state: 'queued' | 'active' | 'completed' | 'failed';
  /** 0..100 */
  percent: number;
  /** Short human text: 'Page 3 of 10', or the failure reason. */
  message: string;
  detail?: Record<string, unknown>;
}
