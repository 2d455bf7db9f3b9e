import { useQuery } from '@tanstack/react-query';
import type { TwoFactorStatus } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';

/** The query key of an account's two-factor status: the signed-in user's (null) or another user's. */
export const twoFactorKey = (userId: number | null) => ['two-factor', userId ?? 'mine'] as const;

/**
 * Whether two-factor sign-in is on and available: the signed-in user's own
 * (GET /two-factor) or, for a super admin, another user's
 * (GET /users/{id}/two-factor).
 */
export function useTwoFactorQuery(userId: number | null) {
  return useQuery({
    queryKey: twoFactorKey(userId),
    queryFn: ({ signal }) =>
      userId === null
        ? api.get<TwoFactorStatus>('/two-factor', tk('Could not load your two-factor sign-in.'), { signal })
        : api.get<TwoFactorStatus>(`/users/${userId}/two-factor`, tk('Could not load the two-factor sign-in of this account.'), { signal }),
  });
}
