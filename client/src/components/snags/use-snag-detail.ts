import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AnnotationDetail, AnnotationPerson } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';
import { useInvalidateOnEvent } from '../../realtime/query-invalidation';

export const SNAG_LOAD_FAILED = tk('The snag could not be loaded.');

/** The cache key of one snag with its history. */
export const snagDetailKey = (id: number) => ['annotations', 'detail', id] as const;

/**
 * One snag with its history (GET /annotations/{id}), read again on every live
 * change of it ('annotation:changed', heard while the screen follows the
 * snag's project) and after a reconnection.
 */
export function useSnagDetail(snagId: number | null) {
  useInvalidateOnEvent('annotation:changed', snagDetailKey(snagId ?? 0), (e) => e.annotation.id === snagId);
  return useQuery({
    queryKey: snagDetailKey(snagId ?? 0),
    enabled: snagId !== null,
    queryFn: ({ signal }) => api.get<AnnotationDetail>(`/annotations/${snagId}`, SNAG_LOAD_FAILED, { signal }),
  });
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
