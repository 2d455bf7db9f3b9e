import { useQuery } from '@tanstack/react-query';
import type { ApiKey, LinkedAccountsResponse } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';

/** The query key of the sign-in services linked to the account. */
export const LINKED_ACCOUNTS = ['account', 'social'] as const;
/** The query key of the user's API keys. */
export const API_KEYS = ['api-keys'] as const;

/** The sign-in services turned on, and those linked to the account (GET /account/social). */
export function useLinkedAccountsQuery() {
  return useQuery({
    queryKey: LINKED_ACCOUNTS,
    queryFn: ({ signal }) => api.get<LinkedAccountsResponse>('/account/social', tk('Could not load your linked accounts.'), { signal }),
  });
}

/** The user's API keys (GET /api-keys; the secret of each is never read back). */
export function useApiKeysQuery() {
  return useQuery({
    queryKey: API_KEYS,
    queryFn: ({ signal }) => api.get<ApiKey[]>('/api-keys', tk('Could not load your API keys.'), { signal }),
  });
}
