import { QueryClient } from '@tanstack/react-query';

/**
 * The one cache of the app's server reads (TanStack Query): every screen
 * asks through query hooks, so loading, errors, caching and refetching are
 * decided here once.
 *
 * - No retry of its own: the API client already retries a GET the server
 *   refused for a while (503 with Retry-After, lib/retry-policy.ts); a second
 *   policy on top would multiply the waits.
 * - No refetch on window focus: live Socket.IO events mark reads stale
 *   (realtime/query-invalidation.ts), so coming back to the tab changes
 *   nothing under the user's eyes.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
