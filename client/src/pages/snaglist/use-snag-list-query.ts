import { useCallback, useEffect, useMemo, useRef } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnnotationBulkStatusResult, AnnotationList, AnnotationStatus } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';
import { applyEventToPage, needsRefetch } from '../../components/snags/snag-logic';
import { useSnagEvents } from '../../components/snags/use-snag-events';
import { toAnnotationQuery, type SnagListState } from './snag-list-state';

/** Every page of the snag list in the query cache, whatever its filters. */
export const SNAG_LISTS = ['annotations', 'list'] as const;

const LOAD_FAILED = tk('The snags could not be loaded.');
export const SAVE_FAILED = tk('The snag could not be saved.');

/**
 * One page of the user's snags under the list state (GET /annotations),
 * followed live: a changed row changes in place, a new or deleted snag (or a
 * reconnection, after which changes may have been missed) reads the page
 * again — once for a burst of changes. The projects of `projectIds` and of
 * the rows shown are watched.
 */
export function useSnagListQuery(state: SnagListState, projectIds: number[]) {
  const queryClient = useQueryClient();
  const params = useMemo(() => toAnnotationQuery(state), [state]);
  const queryKey = useMemo(() => [...SNAG_LISTS, params] as const, [params]);
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => api.get<AnnotationList>('/annotations', LOAD_FAILED, { params, signal }),
    // The rows of the last filters stay while the next ones load, instead of a spinner.
    placeholderData: keepPreviousData,
  });

  const refetchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refetchSoon = useCallback(() => {
    if (refetchTimer.current) clearTimeout(refetchTimer.current);
    // A burst of changes (a bulk move elsewhere) reads the list once.
    refetchTimer.current = setTimeout(() => void queryClient.invalidateQueries({ queryKey: SNAG_LISTS }), 300);
  }, [queryClient]);
  useEffect(() => () => void (refetchTimer.current && clearTimeout(refetchTimer.current)), []);

  const items = query.data?.items;
  const watched = useMemo(() => [...projectIds, ...(items ?? []).map((a) => a.id_project)], [projectIds, items]);
  useSnagEvents(
    watched,
    (e) => {
      if (needsRefetch(e)) return refetchSoon();
      queryClient.setQueryData<AnnotationList>(queryKey, (list) => list && applyEventToPage(list, e));
    },
    refetchSoon,
  );
  return query;
}

/**
 * PUT /annotations/status: the chosen snags moved to one status in one call,
 * all or none; the list is read again either way.
 */
export function useBulkStatusMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { ids: number[]; status: AnnotationStatus }) => api.put<AnnotationBulkStatusResult>('/annotations/status', input, SAVE_FAILED),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SNAG_LISTS }),
  });
}
