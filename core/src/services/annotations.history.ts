import type { Annotation, AnnotationChangedEvent, AnnotationFieldChange, AnnotationHistoryAction, AnnotationPerson } from '@sitewalk/proto';
import { db } from '../db/index.js';
import type { Db } from '../db/query-types.js';
import { findPerson, insertAnnotationHistory } from '../repositories/annotations.repository.js';
import { annotationChanged } from './annotations-events.js';
import { person } from './annotations.queries.js';
import type { Actor } from './actor.js';

/**
 * What happened to a snag: the history entry written in the change's
 * transaction, and the announcement (live event and notifications) made once
 * it is committed.
 */

export async function recordHistory(
  k: Db,
  id: number,
  userId: number,
  action: AnnotationHistoryAction,
  changes: AnnotationFieldChange[],
  comment: string | null = null,
): Promise<void> {
  await insertAnnotationHistory(k, { id_annotation: id, id_user: userId, action, changes, comment });
}

/** The actor as events name them. */
export async function actorPerson(user: Actor, k: Db = db()): Promise<AnnotationPerson> {
  const u = await findPerson(k, user.id);
  return person(user.id, u?.username ?? `#${user.id}`, u?.first_name, u?.last_name)!;
}

/** Tells everyone concerned (live, and the notification triggers) after the change is committed. */
export async function announce(
  user: Actor,
  action: AnnotationChangedEvent['action'],
  annotation: Annotation,
  changes: AnnotationFieldChange[],
  comment: string | null,
): Promise<void> {
  await annotationChanged({
    action,
    id_project: annotation.id_project,
    annotation,
    actor: await actorPerson(user),
    changes,
    comment,
    at: new Date().toISOString(),
  });
}
