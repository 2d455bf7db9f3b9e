import { useCallback, useMemo } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type ProjectList } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { useInvalidateOnEvent } from '../../realtime/query-invalidation';
import { PROJECT_READS } from '../../components/use-project-query';
import { toApiQuery, type ProjectListState } from './project-list-query';

/**
 * One page of the user's projects under the list state (GET /projects),
 * read again when the server says the user's projects changed
 * ('profile:changed': added to a project, a project gone). `setStarred`
 * shows a star at once, as POST /projects/star answered it.
 */
export function useProjectListQuery(state: ProjectListState) {
  const queryClient = useQueryClient();
  const params = useMemo(() => toApiQuery(state), [state]);
  const queryKey = useMemo(() => [...PROJECT_READS, 'list', params] as const, [params]);
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => api.get<ProjectList>('/projects', MESSAGES.fetchProjectsFailed, { params, signal }),
    // The cards of the last filters stay while the next ones load, instead of a spinner.
    placeholderData: keepPreviousData,
  });
  useInvalidateOnEvent('profile:changed', PROJECT_READS);
  const setStarred = useCallback(
    (id: number, starred: boolean) =>
      queryClient.setQueryData<ProjectList>(queryKey, (l) => l && { ...l, items: l.items.map((p) => (p.id === id ? { ...p, starred } : p)) }),
    [queryClient, queryKey],
  );
  return { ...query, setStarred };
}
