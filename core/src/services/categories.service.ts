import type { Category as CategoryDto, CategoryRef, ProjectType as ProjectTypeDto } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { conflict, notFound } from '../errors.js';
import { requireProject } from './access.service.js';
import type { Actor } from './actor.js';
import { iso, isUniqueViolation, type Db } from '../db/query-types.js';
import {
  categoryOfOwner,
  categoryRowById,
  categoryRowsOfOwner,
  categoryRowsOfProject,
  deleteCategoryRow,
  insertCategory,
  renameCategoryRow,
  setProjectCategory,
  type CategoryRow,
} from '../repositories/categories.repository.js';
import { categoryRowsOf, touchProject } from '../repositories/projects.repository.js';
import { deleteProjectTypeRow, insertProjectType, projectTypeRows, renameProjectTypeRow, type ProjectTypeRow } from '../repositories/project-types.repository.js';

/** Runs a write that may hit a case-insensitive unique name, turning the clash into a 409 with words. */
async function uniqueName<T>(message: string, write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(message);
    throw err;
  }
}

/** A category or a project type as the API shows it. */
const toDto = <T extends CategoryRow | ProjectTypeRow>(r: T) => ({ id: r.id, name: r.name, projects_count: Number(r.projects_count), created_at: iso(r.created_at) });

// ---- Categories: each user's own labels for their projects ----

/** GET /categories: the user's categories, or (with a project) the categories that project carries. */
export async function listCategories(user: Actor, projectId?: number): Promise<CategoryDto[]> {
  const k = db();
  if (projectId) {
    await requireProject(user, projectId, 'read');
    return (await categoryRowsOfProject(k, projectId)).map(toDto);
  }
  return (await categoryRowsOfOwner(k, user.id)).map(toDto);
}

const ownCategory = async (user: Actor, id: number, k: Db = db()) => {
  const c = await categoryOfOwner(k, id, user.id);
  if (!c) throw notFound('Category not found.');
  return c;
};

async function categoryDto(id: number, k: Db = db()): Promise<CategoryDto> {
  return toDto((await categoryRowById(k, id))!);
}

const duplicateCategory = (name: string) => `You already have a category named "${name}".`;

export async function createCategory(user: Actor, name: string): Promise<CategoryDto> {
  const c = await uniqueName(duplicateCategory(name), () => insertCategory(db(), user.id, name));
  return categoryDto(c.id);
}

export async function renameCategory(user: Actor, id: number, name: string): Promise<CategoryDto> {
  await ownCategory(user, id);
  await uniqueName(duplicateCategory(name), () => renameCategoryRow(db(), id, user.id, name));
  return categoryDto(id);
}

/** Deletes a category; the projects that carried it simply lose it. */
export async function deleteCategory(user: Actor, id: number): Promise<{ id: number }> {
  await ownCategory(user, id);
  await deleteCategoryRow(db(), id, user.id);
  return { id };
}

/**
 * Puts one of the project owner's categories on the project, or takes it off.
 * Only those who may change the project may do it; a category of anyone but
 * the project's owner is not found.
 */
export async function assignCategory(user: Actor, idCategory: number, idProject: number, assigned: boolean): Promise<CategoryRef[]> {
  return db().transaction(async (trx) => {
    const { project } = await requireProject(user, idProject, 'manage', trx);
    const category = await categoryOfOwner(trx, idCategory, project.id_owner);
    if (!category) throw notFound('Category not found.');
    await setProjectCategory(trx, idProject, idCategory, assigned);
    await touchProject(trx, idProject);
    return (await categoryRowsOf(trx, [idProject])).map(({ id, name }) => ({ id, name }));
  });
}

// ---- Project types: one list for everybody, managed by super admins ----

export const listProjectTypes = async (): Promise<ProjectTypeDto[]> => (await projectTypeRows(db())).map(toDto);

const projectTypeDto = async (id: number): Promise<ProjectTypeDto> => toDto((await projectTypeRows(db(), id))[0]);

const duplicateType = (name: string) => `A project type named "${name}" already exists.`;

export async function createProjectType(name: string): Promise<ProjectTypeDto> {
  const t = await uniqueName(duplicateType(name), () => insertProjectType(db(), name));
  return projectTypeDto(t.id);
}

export async function renameProjectType(id: number, name: string): Promise<ProjectTypeDto> {
  const n = await uniqueName(duplicateType(name), () => renameProjectTypeRow(db(), id, name));
  if (!n) throw notFound('Project type not found.');
  return projectTypeDto(id);
}

/** Deletes a type; projects of that type keep no type (the foreign key sets it to null). */
export async function deleteProjectType(id: number): Promise<{ id: number }> {
  const n = await deleteProjectTypeRow(db(), id);
  if (!n) throw notFound('Project type not found.');
  return { id };
}
