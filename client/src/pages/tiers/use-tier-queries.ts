import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MESSAGES, type Tier, type TierAdminStats, type TierUsageMonth, type TierUsageYear } from '@sitewalk/proto';
import { api } from '../../lib/api-client';

/** Every read of the project tiers and their usage in the query cache. */
export const TIER_READS = ['project-tiers'] as const;

/** The project tiers (GET /project-tiers, super admins). */
export function useTiersQuery() {
  return useQuery({
    queryKey: [...TIER_READS, 'list'],
    queryFn: ({ signal }) => api.get<Tier[]>('/project-tiers', MESSAGES.fetchTiersFailed, { signal }),
  });
}

/**
 * The tiers' usage charts: projects per tier in a month, month by month in
 * its year, and every project per tier today. The figures shown stay while
 * those of another month or year load.
 */
export function useTierUsageQueries(year: number, month: number) {
  const current = useQuery({
    queryKey: [...TIER_READS, 'usage', 'month', year, month],
    queryFn: ({ signal }) => api.get<TierUsageMonth>('/project-tiers/usage/current', MESSAGES.fetchTiersFailed, { params: { year, month }, signal }),
    placeholderData: keepPreviousData,
  });
  const yearly = useQuery({
    queryKey: [...TIER_READS, 'usage', 'year', year],
    queryFn: ({ signal }) => api.get<TierUsageYear>('/project-tiers/usage/yearly', MESSAGES.fetchTiersFailed, { params: { year }, signal }),
    placeholderData: keepPreviousData,
  });
  const stats = useQuery({
    queryKey: [...TIER_READS, 'stats'],
    queryFn: ({ signal }) => api.get<TierAdminStats>('/project-tiers/admin/stats', MESSAGES.fetchTiersFailed, { signal }),
  });
  return { current, yearly, stats, error: current.error ?? yearly.error ?? stats.error };
}
