import { useQuery } from '@tanstack/react-query';
import type { MyJoinRequest } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';
import { useInvalidateOnEvent } from '../../realtime/query-invalidation';

/** The signed-in user's requests to join projects, in the query cache. */
export const MY_JOIN_REQUESTS = ['join-requests', 'mine'] as const;

/**
 * GET /join-requests/check-join-status. The owner's answer arrives as a
 * notification ('notification:new'); the list is read again with it.
 */
export function useMyJoinRequestsQuery() {
  useInvalidateOnEvent('notification:new', MY_JOIN_REQUESTS);
  return useQuery({
    queryKey: MY_JOIN_REQUESTS,
    queryFn: ({ signal }) => api.get<MyJoinRequest[]>('/join-requests/check-join-status', tk('Failed to load your join requests.'), { signal }),
  });
}
