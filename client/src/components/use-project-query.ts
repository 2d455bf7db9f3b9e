import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formMessages, type ProjectDetail } from '@sitewalk/proto';
import { api } from '../lib/api-client';

/** Every read of the user's projects in the query cache (lists, pickers, one project's detail and team). */
export const PROJECT_READS = ['projects'] as const;

/** The query key of one project's detail. */
export const projectDetailKey = (projectId: number | null) => [...PROJECT_READS, 'detail', projectId] as const;

/**
 * One project with its sheets (GET /projects/{id}); nothing is read without
 * an id. `setProject` shows what a write answered (a new cover, a star, the
 * categories) without reading the project again.
 */
export function useProjectQuery(projectId: number | null) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: projectDetailKey(projectId),
    enabled: projectId !== null,
    queryFn: ({ signal }) => api.get<ProjectDetail>(`/projects/${projectId}`, formMessages('Project').loadFailed, { signal }),
  });
  const setProject = useCallback(
    (change: (p: ProjectDetail) => ProjectDetail) => queryClient.setQueryData<ProjectDetail>(projectDetailKey(projectId), (p) => p && change(p)),
    [queryClient, projectId],
  );
  return { ...query, setProject };
}
