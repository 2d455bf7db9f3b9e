import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ViewerRoomPois, ViewerVisit } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';
import { takePreloadedVisit, viewerVisitQuery } from './viewer-preload';

export const VIEWER_LOAD_FAILED = tk('The visit could not be opened.');

/**
 * The visit of the public viewer (GET /viewer-visit), by its code and the
 * point of interest asked in the address. The first read takes the answer
 * index.html's preload script asked for before the app ran; any other answer
 * than a visit is asked again through the API client (its messages, its
 * retries after a 503). The read is never cut short: a screen mounted twice
 * in a row (React's development checks) shares the one on its way, preload
 * included. `retry` forgets the failure and asks again, behind the spinner.
 */
export function useViewerVisitQuery(code: string, poi: number | null) {
  const queryClient = useQueryClient();
  const search = viewerVisitQuery({ code, poi });
  const query = useQuery({
    queryKey: ['viewer-visit', search],
    queryFn: async () => {
      const ask = () => api.get<ViewerVisit>(`/viewer-visit?${search}`, VIEWER_LOAD_FAILED);
      const preloaded = takePreloadedVisit(search);
      const visit = preloaded ? await preloaded.then((a) => (a?.status === 200 && (a.body as { data?: ViewerVisit } | null)?.data) || ask()) : await ask();
      // Read by the benchmark (bench/viewer-perf.ts): when the visit is known.
      performance.mark('sw-visit');
      return visit;
    },
  });
  const retry = useCallback(() => void queryClient.resetQueries({ queryKey: ['viewer-visit', search] }), [queryClient, search]);
  return { ...query, retry };
}

/** The points of interest of the room on screen (GET /viewer-room-pois); none when the read fails. */
export function useViewerRoomPoisQuery(code: string | null, roomId: number | null) {
  return useQuery({
    queryKey: ['viewer-room-pois', code, roomId],
    enabled: code !== null && roomId !== null,
    queryFn: ({ signal }) =>
      api.get<ViewerRoomPois>('/viewer-room-pois', VIEWER_LOAD_FAILED, { params: { code, id_room: roomId }, signal }).then(
        (answer) => answer.pois,
        (err: unknown) => {
          console.warn(err);
          return [];
        },
      ),
  });
}
