import { useQuery } from '@tanstack/react-query';
import type { MyInvitation } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';
import { useInvalidateOnEvent } from '../../realtime/query-invalidation';

/** The invitations to projects the signed-in user has, in the query cache. */
export const MY_INVITATIONS = ['users', 'invitations'] as const;

/** GET /users/invitations; a new invitation, or one cancelled by the project ('team:changed'), shows at once. */
export function useMyInvitationsQuery() {
  useInvalidateOnEvent('team:changed', MY_INVITATIONS, (e) => e.change === 'invitation');
  return useQuery({
    queryKey: MY_INVITATIONS,
    queryFn: ({ signal }) => api.get<MyInvitation[]>('/users/invitations', tk('Failed to load your invitations.'), { signal }),
  });
}
