import { tk } from '../../lib/i18n-keys';

/**
 * The SPEC §8 form messages of the entities these screens edit, written out
 * so the translation check finds them (the code builds them with
 * formMessages(entity); edit-form-texts.test.ts keeps both in step), and the
 * per-entity button texts.
 */
export const ENTITY_FORM_TEXTS = {
  Project: [
    tk('Project name is required'),
    tk('Failed to create Project'),
    tk('Failed to update Project'),
    tk('Failed to delete Project'),
    tk('Error loading Project data'),
    tk('Project created successfully!'),
    tk('Project updated successfully!'),
    tk('Project deleted successfully!'),
  ],
  Sheet: [
    tk('Sheet name is required'),
    tk('Failed to create Sheet'),
    tk('Failed to update Sheet'),
    tk('Failed to delete Sheet'),
    tk('Error loading Sheet data'),
    tk('Sheet created successfully!'),
    tk('Sheet updated successfully!'),
    tk('Sheet deleted successfully!'),
  ],
  Company: [
    tk('Company name is required'),
    tk('Failed to create Company'),
    tk('Failed to update Company'),
    tk('Failed to delete Company'),
    tk('Error loading Company data'),
    tk('Company created successfully!'),
    tk('Company updated successfully!'),
    tk('Company deleted successfully!'),
  ],
  Category: [
    tk('Category name is required'),
    tk('Failed to create Category'),
    tk('Failed to update Category'),
    tk('Failed to delete Category'),
    tk('Error loading Category data'),
    tk('Category created successfully!'),
    tk('Category updated successfully!'),
    tk('Category deleted successfully!'),
  ],
  'Project type': [
    tk('Project type name is required'),
    tk('Failed to create Project type'),
    tk('Failed to update Project type'),
    tk('Failed to delete Project type'),
    tk('Error loading Project type data'),
    tk('Project type created successfully!'),
    tk('Project type updated successfully!'),
    tk('Project type deleted successfully!'),
  ],
} as const;

/** "Delete project", "New category": one text per entity, not built from parts (word order differs in Arabic). */
export const DELETE_LABEL = {
  Project: tk('Delete project'),
  Sheet: tk('Delete sheet'),
  Visit: tk('Delete visit'),
  Plan: tk('Delete plan'),
  User: tk('Delete user'),
  Company: tk('Delete company'),
  Category: tk('Delete category'),
  'Project type': tk('Delete project type'),
} as const;

export const NEW_LABEL = {
  Category: tk('New category'),
  'Project type': tk('New project type'),
} as const;
