import { useQuery } from '@tanstack/react-query';
import type { ProjectTeam } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';
import { useInvalidateOnEvent } from '../../realtime/query-invalidation';
import { PROJECT_READS } from '../../components/use-project-query';

/** The query key of one project's team. */
export const teamKey = (projectId: number) => [...PROJECT_READS, 'team', projectId] as const;

/**
 * A project's team: owner, members, invitations and join requests
 * (GET /team-members), read again when the server says it changed
 * ('team:changed' of this project: a join request, an answer, another manager's change).
 */
export function useTeamQuery(projectId: number) {
  useInvalidateOnEvent('team:changed', teamKey(projectId), (e) => e.id_project === projectId);
  return useQuery({
    queryKey: teamKey(projectId),
    queryFn: ({ signal }) => api.get<ProjectTeam>('/team-members', tk('Failed to load the team.'), { params: { id_project: projectId }, signal }),
  });
}
