import { useQuery } from '@tanstack/react-query';
import { MESSAGES, type ResetTokenCheckResponse } from '@sitewalk/proto';
import { api } from '../../lib/api-client';

/** Whether a password-reset link still works (GET /password/check-token); not asked without a token. */
export function useResetTokenQuery(token: string) {
  return useQuery({
    queryKey: ['password-reset-token', token],
    enabled: token !== '',
    queryFn: ({ signal }) => api.get<ResetTokenCheckResponse>('/password/check-token', MESSAGES.tokenValidationFailed, { params: { token }, signal }),
  });
}
