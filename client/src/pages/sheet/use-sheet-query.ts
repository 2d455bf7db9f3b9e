import { queryOptions, useQuery } from '@tanstack/react-query';
import { formMessages, type SheetDetail } from '@sitewalk/proto';
import { ApiError, api } from '../../lib/api-client';

/** Every read of one sheet in the query cache. */
export const SHEET_READS = ['sheets'] as const;

/** The read of one sheet (GET /maps/{id}), for every screen that shows one; nothing is read without an id. */
export const sheetQueryOptions = (sheetId: number | null) =>
  queryOptions({
    queryKey: [...SHEET_READS, sheetId],
    enabled: sheetId !== null,
    queryFn: ({ signal }) => api.get<SheetDetail>(`/maps/${sheetId}`, formMessages('Sheet').loadFailed, { signal }),
  });

/** One sheet; `missing` when the user may not see it or it is gone (404/403). */
export function useSheetQuery(sheetId: number | null) {
  const query = useQuery(sheetQueryOptions(sheetId));
  const status = query.error instanceof ApiError ? query.error.status : null;
  return { ...query, missing: status === 404 || status === 403 };
}
