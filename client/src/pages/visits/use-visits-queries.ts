import { useCallback, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type ProjectList, type VisitList } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { useInvalidateOnEvent } from '../../realtime/query-invalidation';
import { PROJECT_READS } from '../../components/use-project-query';
import { allPages, VISITS_PER_PAGE } from './visits-paging';

/** Every read of visit lists in the query cache. */
export const VISIT_LISTS = ['visits', 'list'] as const;

/**
 * Every project of the user by name, for a project chooser, page after page
 * (the API gives at most 100 at a time). A failure leaves the chooser empty.
 */
export function useProjectChoicesQuery() {
  useInvalidateOnEvent('profile:changed', PROJECT_READS);
  return useQuery({
    queryKey: [...PROJECT_READS, 'all-by-name'],
    queryFn: ({ signal }) =>
      allPages((page, perPage) => api.get<ProjectList>('/projects', MESSAGES.fetchProjectsFailed, { params: { page, per_page: perPage, sort: 'name', order: 'asc' }, signal })).catch(
        (err: unknown) => {
          console.warn(err);
          return [];
        },
      ),
  });
}

/**
 * One page of visits, newest first (GET /visits), of one project or of every
 * project the user sees. `setStarred` shows a star at once, as POST
 * /visits/star answered it.
 */
export function useVisitListQuery(projectId: number | null, page: number) {
  const queryClient = useQueryClient();
  const params = useMemo(() => {
    const p: Record<string, string | number> = { page, per_page: VISITS_PER_PAGE, sort: 'date', order: 'desc' };
    if (projectId) p.id_project = projectId;
    return p;
  }, [projectId, page]);
  const queryKey = useMemo(() => [...VISIT_LISTS, params] as const, [params]);
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => api.get<VisitList>('/visits', MESSAGES.fetchVisitsFailed, { params, signal }),
  });
  const setStarred = useCallback(
    (visitId: number, starred: boolean) =>
      queryClient.setQueryData<VisitList>(queryKey, (l) => l && { ...l, items: l.items.map((v) => (v.id === visitId ? { ...v, starred } : v)) }),
    [queryClient, queryKey],
  );
  return { ...query, setStarred };
}
