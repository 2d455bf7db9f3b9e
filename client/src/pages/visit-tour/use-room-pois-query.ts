import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Poi } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';

const roomPoisKey = (roomId: number | null) => ['rooms', roomId, 'pois'] as const;

/**
 * The points of interest of one room (GET /rooms/{id}/pois). A failed read
 * leaves the list empty (the editor still works). `setPois` shows a point as
 * the server answered a write of it.
 */
export function useRoomPoisQuery(roomId: number | null) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: roomPoisKey(roomId),
    enabled: roomId !== null,
    queryFn: ({ signal }) =>
      api.get<Poi[]>(`/rooms/${roomId}/pois`, tk('Failed to load the points of interest.'), { signal }).catch((err: unknown) => {
        console.warn(err);
        return [];
      }),
  });
  const setPois = useCallback((change: (list: Poi[]) => Poi[]) => queryClient.setQueryData<Poi[]>(roomPoisKey(roomId), (l) => change(l ?? [])), [queryClient, roomId]);
  return { ...query, setPois };
}
