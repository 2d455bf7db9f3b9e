import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { ServerToClientEvents } from '@sitewalk/proto';
import { currentSocket, onServerEvent, onSocketConnect } from './socket';

type EventName = keyof ServerToClientEvents;
type EventArgs<E extends EventName> = Parameters<ServerToClientEvents[E]>;

/**
 * Marks the reads under `queryKey` stale and reads again those on screen.
 * A read on its way may predate what the event reports: TanStack Query drops
 * such a read for a new one only when the query already has an answer, so a
 * first read still on its way (a screen just opened) is cancelled here and
 * asked again, or its older answer would stay until the next event.
 */
export async function refreshReads(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  await queryClient.cancelQueries({
    queryKey,
    predicate: (q) => q.state.data === undefined && q.state.fetchStatus === 'fetching' && q.getObserversCount() > 0,
  });
  await queryClient.invalidateQueries({ queryKey });
}

/**
 * Keeps the reads under `queryKey` current: every `event` the server pushes
 * (that `concerns` accepts, when given) marks them stale, and the ones on
 * screen are read again. So does every reconnection, after which the events
 * missed meanwhile are unknown. Listens only while the calling screen is shown.
 */
export function useInvalidateOnEvent<E extends EventName>(event: E, queryKey: QueryKey, concerns?: (...args: EventArgs<E>) => boolean): void {
  const queryClient = useQueryClient();
  const concernsRef = useRef(concerns);
  concernsRef.current = concerns;
  // A stable key, so a new array with the same parts does not subscribe again.
  const keyText = JSON.stringify(queryKey);

  useEffect(() => {
    const key = JSON.parse(keyText) as QueryKey;
    const invalidate = () => void refreshReads(queryClient, key);
    const handler = (...args: EventArgs<E>) => {
      if (!concernsRef.current || concernsRef.current(...args)) invalidate();
    };
    const offEvent = onServerEvent(event, handler as unknown as ServerToClientEvents[E]);
    let connectedBefore = currentSocket()?.connected ?? false;
    const offConnect = onSocketConnect(() => {
      if (connectedBefore) invalidate();
      connectedBefore = true;
    });
    return () => {
      offEvent();
      offConnect();
    };
  }, [queryClient, event, keyText]);
}
