import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type PlanMember } from '@sitewalk/proto';
import { ApiError, api } from '../../lib/api-client';

/** The query key of one member of a subscription plan. */
const planMemberKey = (id: number | null) => ['plan-members', id] as const;

/**
 * One member of a subscription plan (GET /plan-members/{id}, super admins);
 * nothing is read without an id. `missing` when it is gone or not the
 * user's to see (404/403); `setMember` shows what a save answered.
 */
export function usePlanMemberQuery(id: number | null) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: planMemberKey(id),
    enabled: id !== null,
    queryFn: ({ signal }) => api.get<PlanMember>(`/plan-members/${id}`, MESSAGES.fetchPlansFailed, { signal }),
  });
  const setMember = useCallback((m: PlanMember) => queryClient.setQueryData(planMemberKey(id), m), [queryClient, id]);
  const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 403);
  return { ...query, missing, setMember };
}
