import { useQuery } from '@tanstack/react-query';
import { MESSAGES, type InvitationCheckResponse } from '@sitewalk/proto';
import { api } from '../../lib/api-client';

/** What an activation or invitation link is for (GET /check-invitation-token); not asked without a token. */
export function useInvitationCheckQuery(token: string) {
  return useQuery({
    queryKey: ['invitation-token', token],
    enabled: token !== '',
    queryFn: ({ signal }) => api.get<InvitationCheckResponse>('/check-invitation-token', MESSAGES.invitationTokenFailed, { params: { token }, signal }),
  });
}
