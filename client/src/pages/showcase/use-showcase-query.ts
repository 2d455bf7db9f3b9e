import { useQuery } from '@tanstack/react-query';
import type { ShowcaseProject } from '@sitewalk/proto';
import { ApiError, api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';

const SHOWCASE_FAILED = tk('Failed to load the project.');

/**
 * The public page of an active, validated project by its code
 * (GET /showcase); nothing is asked without a code. `missing` when no such
 * project is shown (404).
 */
export function useShowcaseQuery(code: string) {
  const query = useQuery({
    queryKey: ['showcase', code],
    enabled: code !== '',
    queryFn: ({ signal }) => api.get<ShowcaseProject>('/showcase', SHOWCASE_FAILED, { params: { project_code: code }, signal }),
  });
  return { ...query, missing: query.error instanceof ApiError && query.error.status === 404 };
}
