import { db } from '../db/index.js';

/**
 * Whether a user may see a project: its owner, a member, or a super admin.
 * Projects arrive with their own issue; until then no project is visible.
 */
export async function canAccessProject(userId: number, projectId: number): Promise<boolean> {
  const k = db();
  if (!(await k.schema.hasTable('projects'))) return false;
  const user = await k('users').where({ id: userId }).first('super_admin');
  if (!user) return false;
  if (user.super_admin) return !!(await k('projects').where({ id: projectId }).first('id'));
  const row = await k('projects').where({ id: projectId, owner_id: userId }).first('id');
  return !!row;
}
