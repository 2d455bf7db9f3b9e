import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AccountSession, PlanMember } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { useInvalidateOnEvent } from '../../realtime/query-invalidation';

const PLAN_INVITATIONS = ['plan-members', 'invitations'] as const;

/** The plan invitations waiting for the user (GET /plan-members/invitations), read again when the server says their plan things changed. */
export function usePlanInvitationsQuery() {
  useInvalidateOnEvent('profile:changed', PLAN_INVITATIONS);
  const query = useQuery({
    queryKey: PLAN_INVITATIONS,
    queryFn: ({ signal }) => api.get<PlanMember[]>('/plan-members/invitations', tk('Could not load your plan invitations.'), { signal }),
  });
  useEffect(() => void (query.error && showToast('error', query.error.message)), [query.error]);
  return query;
}

/** The account's sessions (GET /sessions); a failed read is said in a toast. */
export function useSessionsQuery() {
  const query = useQuery({
    queryKey: ['sessions'],
    queryFn: ({ signal }) => api.get<AccountSession[]>('/sessions', tk('Could not load your signed-in devices.'), { signal }),
  });
  useEffect(() => void (query.error && showToast('error', query.error.message)), [query.error]);
  return query;
}
