import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type PlanDetail, type PlanSubscription } from '@sitewalk/proto';
import { api } from '../../lib/api-client';

const subscriptionsKey = (planId: number) => ['plan-subscriptions', planId] as const;

/**
 * Who has a plan (super admins' Edit Plan): the subscriptions of the plan
 * the screen opened with first, read again after each change made here.
 */
export function usePlanSubscriptionsQuery(planId: number, initial: PlanSubscription[]) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: subscriptionsKey(planId),
    queryFn: async ({ signal }) => (await api.get<PlanDetail>(`/plans/${planId}`, MESSAGES.fetchPlansFailed, { signal })).subscriptions,
    initialData: initial,
  });
  return {
    subscriptions: query.data,
    /** After a change: the list as the server has it now. */
    refresh: () => queryClient.invalidateQueries({ queryKey: subscriptionsKey(planId) }),
  };
}
