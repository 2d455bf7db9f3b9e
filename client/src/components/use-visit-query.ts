import { useCallback, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formMessages, type VisitDetail } from '@sitewalk/proto';
import { ApiError, api } from '../lib/api-client';
import { useProjectQuery } from './use-project-query';
import type { VisitLoad } from './visit-load-guard';

/** Every read of one visit with its rooms in the query cache. */
export const VISIT_DETAILS = ['visits', 'detail'] as const;
const visitKey = (visitId: number | null) => [...VISIT_DETAILS, visitId] as const;

/** One visit with its rooms, hotspots and sheets (GET /visits/{id}); nothing is read without an id. */
export function useVisitQuery(visitId: number | null) {
  return useQuery({
    queryKey: visitKey(visitId),
    enabled: visitId !== null,
    queryFn: ({ signal }) => api.get<VisitDetail>(`/visits/${visitId}`, formMessages('Visit').loadFailed, { signal }),
  });
}

/** Changes the cached visit (an answer of a write the screen made), when it is there. */
export function useSetVisit(visitId: number | null) {
  const queryClient = useQueryClient();
  return useCallback(
    (change: (v: VisitDetail) => VisitDetail) => queryClient.setQueryData<VisitDetail>(visitKey(visitId), (v) => v && change(v)),
    [queryClient, visitId],
  );
}

interface ReadState {
  status: 'pending' | 'error' | 'success';
  error: Error | null;
}

/**
 * How far a visit screen got with its reads: a refused one (404, or 403 for a
 * visit of someone else's project) makes the visit missing, another failure
 * an error; a read not started yet (it waits for the one before) is loading.
 */
export function visitLoadOf(reads: readonly ReadState[]): VisitLoad {
  for (const r of reads) {
    if (r.status !== 'error') continue;
    const code = r.error instanceof ApiError ? r.error.status : null;
    return code === 404 || code === 403 ? { status: 'missing' } : { status: 'error' };
  }
  return reads.every((r) => r.status === 'success') ? { status: 'ready' } : { status: 'loading' };
}

/**
 * The visit of a visit screen and the ready sheets of its project (read once
 * the visit names the project), with the screen's load state and a retry of
 * what failed.
 */
export function useVisitWithSheets(visitId: number | null) {
  const visit = useVisitQuery(visitId);
  const project = useProjectQuery(visit.data?.id_project ?? null);
  const sheets = useMemo(() => (project.data?.maps ?? []).filter((m) => m.status === 'ready'), [project.data]);
  const load = visitLoadOf([visit, project]);
  const retry = () => {
    for (const q of [visit, project]) if (q.isError) void q.refetch();
  };
  return { visit: visit.data ?? null, sheets, load, retry };
}
