import { useQuery } from '@tanstack/react-query';
import { MESSAGES, type Category, type ProjectType } from '@sitewalk/proto';
import { api } from '../lib/api-client';

/**
 * What the project screens look up again and again: the signed-in user's
 * categories and the project types, shared in the query cache by the list
 * filters, the edit form, the detail page and the pages that manage them
 * (which put their changes in the cache as the server answered them).
 * Categories belong to a user; the cache is emptied when the user changes (app.tsx).
 */
export const CATEGORY_READS = ['categories'] as const;
export const PROJECT_TYPE_READS = ['project-types'] as const;

/** The signed-in user's categories (GET /categories); nothing is asked while not `enabled`. */
export function useCategoriesQuery(enabled = true) {
  return useQuery({
    queryKey: CATEGORY_READS,
    enabled,
    queryFn: ({ signal }) => api.get<Category[]>('/categories', MESSAGES.fetchProjectsFailed, { signal }),
  });
}

/** The project types every user picks from (GET /project-types). */
export function useProjectTypesQuery() {
  return useQuery({
    queryKey: PROJECT_TYPE_READS,
    queryFn: ({ signal }) => api.get<ProjectType[]>('/project-types', MESSAGES.fetchProjectsFailed, { signal }),
  });
}
