import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnnotationDetail, AnnotationPerson } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';

export const SNAG_LOAD_FAILED = tk('The snag could not be loaded.');

/** The cache key of one snag with its history. */
export const snagDetailKey = (id: number) => ['annotations', 'detail', id] as const;

/**
 * One snag with its history (GET /annotations/{id}), read again whenever
 * `version` moves on (the screen heard a live change of it).
 */
export function useSnagDetail(snagId: number | null, version: number) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: snagDetailKey(snagId ?? 0),
    enabled: snagId !== null,
    queryFn: ({ signal }) => api.get<AnnotationDetail>(`/annotations/${snagId}`, SNAG_LOAD_FAILED, { signal }),
  });
  // Only a new version of the same snag: another snag is read anyway when it opens.
  const seen = useRef({ snagId, version });
  useEffect(() => {
    const before = seen.current;
    seen.current = { snagId, version };
    if (snagId !== null && before.snagId === snagId && before.version !== version) void queryClient.invalidateQueries({ queryKey: snagDetailKey(snagId) });
  }, [queryClient, snagId, version]);
  return query;
}

/** Who a snag of the project may be given to (GET /annotations/people). */
export function useSnagPeople(projectId: number | null): AnnotationPerson[] {
  const query = useQuery({
    queryKey: ['annotations', 'people', projectId],
    enabled: projectId !== null,
    queryFn: ({ signal }) => api.get<AnnotationPerson[]>('/annotations/people', SNAG_LOAD_FAILED, { params: { id_project: projectId }, signal }),
  });
  // Without the list, the panel still offers "Nobody" and the current assignee.
  useEffect(() => void (query.error && console.warn(query.error)), [query.error]);
  return query.data ?? [];
}
