import { db } from '../db/index.js';
import type { Db } from '../db/query-types.js';
import { forbidden, notFound } from '../errors.js';
import { findAnnotation, type AnnotationRow } from '../repositories/annotations.repository.js';
import { canManageSnagsOf, projectAccess, type ProjectAccess } from './access.service.js';
import type { Actor } from './actor.js';

export const SNAG_NOT_FOUND = 'Snag not found.';
export const SNAG_READ_ONLY = 'You can view the snags of this project but not change them.';

/**
 * Who may create, change and delete a project's snags: the one rule every
 * snag call asks. The owner, super admins, project admins and members whose
 * permissions include 'manage snags' (editors by default); the rest only read.
 */
export function canManageSnags(access: Pick<ProjectAccess, 'permissions'> | null): boolean {
  return access !== null && canManageSnagsOf(access);
}

/** The project's access, with a missing project named as what was asked for; 403 when the user may only read. */
export async function snagProjectAccess(user: Actor, projectId: number, manage: boolean, what: string, k: Db = db()): Promise<ProjectAccess> {
  const access = await projectAccess(user, projectId, k);
  if (!access) throw notFound(what);
  if (manage && !canManageSnags(access)) throw forbidden(SNAG_READ_ONLY);
  return access;
}

/** A snag and the user's access to its project: 404 when they may not see it, 403 when they may only read and `manage` is asked. */
export async function requireAnnotation(user: Actor, id: number, manage: boolean, k: Db = db(), lock = false): Promise<{ row: AnnotationRow; access: ProjectAccess }> {
  const row = await findAnnotation(k, id, lock);
  if (!row) throw notFound(SNAG_NOT_FOUND);
  return { row, access: await snagProjectAccess(user, row.id_project, manage, SNAG_NOT_FOUND, k) };
}
