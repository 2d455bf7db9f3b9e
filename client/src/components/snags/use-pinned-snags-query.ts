import { useCallback, useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Annotation, AnnotationList, VisitList } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';

const LOAD_FAILED = tk('The snags could not be loaded.');
const NONE: Annotation[] = [];

/** A visit as the viewer's snag layer needs it. */
export interface SnagVisitRef {
  id: number;
  id_project: number;
  can_edit: boolean;
}

/**
 * Which visit a viewer code is, for a signed-in person of its project (the
 * code is the visit's public handle; GET /visits finds it by its code). Null
 * for anyone else, or when the read fails. Nothing is read without a code.
 */
export function useVisitOfCodeQuery(code: string) {
  return useQuery({
    queryKey: ['visits', 'by-code', code],
    enabled: code !== '',
    queryFn: ({ signal }) =>
      api.get<VisitList>('/visits', LOAD_FAILED, { params: { search: code, per_page: 10 }, signal }).then(
        (list): SnagVisitRef | null => {
          const v = list.items.find((i) => i.code === code);
          return v ? { id: v.id, id_project: v.id_project, can_edit: v.can_edit } : null;
        },
        (err: unknown) => {
          console.warn(err);
          return null;
        },
      ),
  });
}

/**
 * The snags a screen pins (a visit's in the viewer, a sheet's on the sheet
 * screen), read by `read` once there is an id. `setSnags` changes the list in
 * place (a live event, the panel's answer), `reload` reads it again. A failed
 * read leaves the pins as they were.
 */
function usePinnedSnags(of: 'of-visit' | 'of-sheet', id: number | null, read: (id: number, signal: AbortSignal) => Promise<Annotation[]>) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ['annotations', of, id], enabled: id !== null, queryFn: ({ signal }) => read(id!, signal) });
  useEffect(() => void (query.error && console.warn(query.error)), [query.error]);
  const setSnags = useCallback(
    (change: (list: Annotation[]) => Annotation[]) => queryClient.setQueryData<Annotation[]>(['annotations', of, id], (l) => change(l ?? [])),
    [queryClient, of, id],
  );
  const reload = useCallback(() => void queryClient.invalidateQueries({ queryKey: ['annotations', of, id] }), [queryClient, of, id]);
  return { snags: query.data ?? NONE, setSnags, reload };
}

/** Every snag of the visit (GET /annotations, pages of 100, oldest first). */
async function readVisitSnags(visitId: number, signal: AbortSignal): Promise<Annotation[]> {
  const out: Annotation[] = [];
  for (let page = 1; page <= 50; page++) {
    const list = await api.get<AnnotationList>('/annotations', LOAD_FAILED, { params: { id_visit: visitId, per_page: 100, page, sort: 'created_at', order: 'asc' }, signal });
    out.push(...list.items);
    if (out.length >= list.total || !list.items.length) break;
  }
  return out;
}

/** The snags pinned on one sheet, most urgent first (GET /annotations, the first 100). */
const readSheetSnags = (sheetId: number, signal: AbortSignal) =>
  api.get<AnnotationList>('/annotations', LOAD_FAILED, { params: { id_map: sheetId, per_page: 100, sort: 'priority' }, signal }).then((l) => l.items);

export const useVisitSnagsQuery = (visitId: number | null) => usePinnedSnags('of-visit', visitId, readVisitSnags);
export const useSheetSnagsQuery = (sheetId: number | null) => usePinnedSnags('of-sheet', sheetId, readSheetSnags);
