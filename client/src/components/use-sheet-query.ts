import { queryOptions, useQuery } from '@tanstack/react-query';
import { formMessages, type SheetDetail } from '@sitewalk/proto';
import { ApiError, api } from '../lib/api-client';

/** Every read of one sheet in the query cache. */
export const SHEET_READS = ['sheets'] as const;

/** The read of one sheet (GET /maps/{id}), for a hook or for a fetch a live event asks for. */
export const sheetQuery = (sheetId: number | null) =>
  queryOptions({
    queryKey: [...SHEET_READS, sheetId],
    queryFn: ({ signal }) => api.get<SheetDetail>(`/maps/${sheetId}`, formMessages('Sheet').loadFailed, { signal }),
  });

/** One sheet (GET /maps/{id}); `missing` when the user may not see it or it is gone (404/403). */
export function useSheetQuery(sheetId: number | null) {
  const query = useQuery({ ...sheetQuery(sheetId), enabled: sheetId !== null });
  const status = query.error instanceof ApiError ? query.error.status : null;
  return { ...query, missing: status === 404 || status === 403 };
}
