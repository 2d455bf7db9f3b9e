import { useQuery } from '@tanstack/react-query';
import { formMessages, type ProjectDetail } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { PROJECT_READS } from '../projects/use-project-list-query';

/** One project with its sheets (GET /projects/{id}); nothing is read without an id. */
export function useProjectQuery(projectId: number | null) {
  return useQuery({
    queryKey: [...PROJECT_READS, 'detail', projectId],
    enabled: projectId !== null,
    queryFn: ({ signal }) => api.get<ProjectDetail>(`/projects/${projectId}`, formMessages('Project').loadFailed, { signal }),
  });
}
