import { useQuery } from '@tanstack/react-query';
import { MESSAGES, type Plan } from '@sitewalk/proto';
import { api } from '../../lib/api-client';

/** Every read of the subscription plans in the query cache. */
export const PLAN_READS = ['plans'] as const;

/** The subscription plans (GET /plans, super admins). */
export function usePlansQuery() {
  return useQuery({ queryKey: PLAN_READS, queryFn: ({ signal }) => api.get<Plan[]>('/plans', MESSAGES.fetchPlansFailed, { signal }) });
}
