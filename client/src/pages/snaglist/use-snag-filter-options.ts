import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MESSAGES, type ProjectDetail, type ProjectList, type VisitList } from '@sitewalk/proto';
import { api } from '../../lib/api-client';

export interface FilterOption {
  id: number;
  name: string;
}

/** What the snag list's filters offer: the user's projects, and the visits and sheets of the chosen one. */
export function useSnagFilterOptions(projectId: string): { projects: FilterOption[]; visits: FilterOption[]; sheets: FilterOption[] } {
  const projects = useQuery({
    queryKey: ['projects', 'by-name'],
    queryFn: ({ signal }) =>
      api.get<ProjectList>('/projects', MESSAGES.fetchProjectsFailed, { params: { per_page: 100, sort: 'name', order: 'asc' }, signal }).then((l) => l.items.map(({ id, name }) => ({ id, name }))),
  });
  const places = useQuery({
    queryKey: ['projects', Number(projectId), 'visits-and-sheets'],
    enabled: !!projectId,
    queryFn: async ({ signal }) => {
      const [visits, project] = await Promise.all([
        api.get<VisitList>('/visits', MESSAGES.fetchVisitsFailed, { params: { id_project: projectId, per_page: 100, sort: 'date', order: 'desc' }, signal }),
        api.get<ProjectDetail>(`/projects/${projectId}`, MESSAGES.fetchProjectsFailed, { signal }),
      ]);
      return { visits: visits.items.map(({ id, name }) => ({ id, name })), sheets: project.maps.map(({ id, name }) => ({ id, name })) };
    },
  });
  // The filters then offer less; the list itself still works.
  useEffect(() => void (projects.error && console.warn(projects.error)), [projects.error]);
  useEffect(() => void (places.error && console.warn(places.error)), [places.error]);
  const shown = projectId ? places.data : undefined;
  return { projects: projects.data ?? [], visits: shown?.visits ?? [], sheets: shown?.sheets ?? [] };
}
