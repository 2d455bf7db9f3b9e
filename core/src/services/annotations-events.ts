import { ANNOTATION_CHANGED_EVENT, projectRoom, type AnnotationChangedEvent } from '@sitewalk/proto';
import { emitTo } from '../realtime/index.js';
import { logger } from '../logger.js';
import { notifyAnnotationChange } from './annotation-notifications.service.js';

export type { AnnotationChangedEvent };

/**
 * The one thing that happens after a snag is created, changed, commented,
 * given or relieved of files, or deleted — once the change is committed.
 * Browsers of the project's people hear it live; the notification triggers
 * (assignment, status change, comment) hang off this same call.
 * Never throws: the change is already saved, a lost live update must not undo it.
 */
export async function annotationChanged(event: AnnotationChangedEvent): Promise<void> {
  try {
    emitTo(projectRoom(event.id_project), ANNOTATION_CHANGED_EVENT, event);
  } catch (err) {
    logger.warn({ err, annotation: event.annotation.id }, 'annotation:changed could not be pushed');
  }
  // Assignment, status change, review and comment notifications (never throws).
  await notifyAnnotationChange(event);
}
