import { useQuery } from '@tanstack/react-query';
import { MESSAGES, type VisitList } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { VISIT_LISTS } from '../visits/use-visits-queries';
import { allPages } from '../visits/visits-paging';

/**
 * Every visit of a sheet, oldest first (GET /visits), page after page (the
 * API gives at most 100 at a time), so any two dates can be compared.
 */
export function useSheetVisitsQuery(sheetId: number | null) {
  return useQuery({
    queryKey: [...VISIT_LISTS, 'of-sheet', sheetId],
    enabled: sheetId !== null,
    queryFn: ({ signal }) =>
      allPages((page, perPage) => api.get<VisitList>('/visits', MESSAGES.fetchVisitsFailed, { params: { id_map: sheetId, page, per_page: perPage, sort: 'date', order: 'asc' }, signal })),
  });
}
