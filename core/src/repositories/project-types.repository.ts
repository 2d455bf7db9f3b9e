import type { ProjectType as ProjectTypeDto } from '@sitewalk/proto';
import { ProjectType } from '../db/index.js';
import type { Db } from '../db/query-types.js';

/**
 * Every query of the project types (one list for everybody, managed by super
 * administrators). The service holds the rules.
 */

/** A project type with the number of projects of that type; the date as the driver gives it. */
export type ProjectTypeRow = Omit<ProjectTypeDto, 'created_at'> & { created_at: Date };

/** Every type (or the one with this id), by name. */
export function projectTypeRows(k: Db, id?: number): Promise<ProjectTypeRow[]> {
  const q = k('project_types as t')
    .select('t.id', 't.name', 't.created_at', k.raw('(select count(*) from projects p where p.id_project_type = t.id)::int as projects_count'))
    .orderByRaw('lower(t.name)')
    .orderBy('t.id');
  if (id) q.where('t.id', id);
  return q;
}

export async function projectTypeExists(k: Db, id: number): Promise<boolean> {
  return !!(await k('project_types').where({ id }).first('id'));
}

/** Writes a new type; a taken name (whatever the case) fails with a unique violation. */
export async function insertProjectType(k: Db, name: string): Promise<ProjectType> {
  return await ProjectType.query(k).insertAndFetch({ name });
}

/** Renames a type; how many rows changed (0: no such type). A taken name fails with a unique violation. */
export async function renameProjectTypeRow(k: Db, id: number, name: string): Promise<number> {
  return await ProjectType.query(k).patch({ name }).where({ id });
}

/** Deletes a type; how many went (0: no such type). Projects of that type keep no type (the foreign key sets it to null). */
export async function deleteProjectTypeRow(k: Db, id: number): Promise<number> {
  return await ProjectType.query(k).deleteById(id);
}
