import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type ProjectList, type ProjectSummary } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { useInvalidateOnEvent } from '../../realtime/query-invalidation';
import { PROJECT_READS } from '../../components/use-project-query';

/** How many starred projects the dashboard lists. */
export const STARRED_SHOWN = 5;

const RECENT_KEY = [...PROJECT_READS, 'recent'] as const;
const WIDGETS_KEY = [...PROJECT_READS, 'dashboard-widgets'] as const;

/**
 * The user's recent projects (GET /projects/recent); until the projects
 * feature answers (404), an empty list. Read again when the server says the
 * user's projects changed ('profile:changed').
 */
export function useRecentProjectsQuery() {
  useInvalidateOnEvent('profile:changed', PROJECT_READS);
  return useQuery({
    queryKey: RECENT_KEY,
    queryFn: ({ signal }) =>
      api.get<ProjectSummary[]>('/projects/recent', MESSAGES.fetchProjectsFailed, { signal }).then(
        (items) => (Array.isArray(items) ? items : []),
        (err: unknown) => {
          if ((err as { status?: number }).status !== 404) console.error(err);
          return [];
        },
      ),
  });
}

/**
 * The dashboard's projects card: how many projects the user has (owned or
 * joined) and the first starred ones. `setStarred` shows a star change at
 * once, as POST /projects/star answered it.
 */
export function useProjectsWidgetsQuery() {
  const queryClient = useQueryClient();
  useInvalidateOnEvent('profile:changed', PROJECT_READS);
  const query = useQuery({
    queryKey: WIDGETS_KEY,
    queryFn: async ({ signal }) => {
      const [all, starred] = await Promise.all([
        api.get<ProjectList>('/projects', MESSAGES.fetchProjectsFailed, { params: { per_page: 1 }, signal }),
        api.get<ProjectList>('/projects', MESSAGES.fetchProjectsFailed, { params: { starred: 'true', per_page: STARRED_SHOWN, sort: 'name', order: 'asc' }, signal }),
      ]);
      return { total: all.total, starred };
    },
  });
  const setStarred = useCallback(
    (id: number, starred: boolean) =>
      queryClient.setQueryData<{ total: number; starred: ProjectList }>(WIDGETS_KEY, (d) =>
        d && { ...d, starred: { ...d.starred, items: d.starred.items.map((p) => (p.id === id ? { ...p, starred } : p)) } },
      ),
    [queryClient],
  );
  return { ...query, setStarred };
}
