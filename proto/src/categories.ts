import { z } from 'zod';
import { idField } from './ids.js';

/**
 * Categories and project types (SPEC §7 "Categories and project types").
 * `data` of each answer:
 *
 *   GET    /categories                    → Category[]   the user's own categories, by name
 *   GET    /categories?id_project=…       → Category[]   the categories assigned to that project (404 if not visible)
 *   POST   /categories                    → 201 Category body {name}; 409 when the user already has that name
 *   PUT    /categories/{id}               → Category     body {name}; 404 for another user's category
 *   DELETE /categories/{id}               → {id}         also unassigns it from every project
 *   POST   /categories/assign             → CategoryRef[] the project's categories after the change; body {id_category, id_project}
 *   POST   /categories/remove             → CategoryRef[] idem
 *   GET    /project-types                 → ProjectType[] any signed-in user
 *   POST   /project-types                 → 201 ProjectType   super admin only (403), 409 on a duplicate name
 *   PUT    /project-types/{id}            → ProjectType       super admin only
 *   DELETE /project-types/{id}            → {id}              super admin only; projects of that type keep no type
 *
 * Categories belong to a user (names unique per user, whatever the case) and
 * label that user's projects; a category can only go on projects of its owner.
 */

const nameSchema = (entity: string) =>
  z.string().trim().min(1, `${entity} name is required`).max(100, `${entity} name must be at most 100 characters.`);

export const categoryBodySchema = z.object({ name: nameSchema('Category') }).strict();
export type CategoryBody = z.input<typeof categoryBodySchema>;

export const categoryListQuerySchema = z
  .object({ id_project: idField.optional() })
  .strict();

export const categoryAssignSchema = z
  .object({
    id_category: idField,
    id_project: idField,
  })
  .strict();
export type CategoryAssignRequest = z.input<typeof categoryAssignSchema>;

export const projectTypeBodySchema = z.object({ name: nameSchema('Project type') }).strict();
export type ProjectTypeBody = z.input<typeof projectTypeBodySchema>;

/** A category as a project carries it. */
export interface CategoryRef {
  id: number;
  name: string;
}

export interface Category extends CategoryRef {
  /** How many of the owner's projects carry it. */
  projects_count: number;
  created_at: string;
}

export interface ProjectType {
  id: number;
  name: string;
  /** How many projects (of anyone) have this type. */
  projects_count: number;
  created_at: string;
}
