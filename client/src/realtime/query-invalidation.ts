import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { ServerToClientEvents } from '@sitewalk/proto';
import { currentSocket, onServerEvent, onSocketConnect } from './socket';

type EventName = keyof ServerToClientEvents;
type EventArgs<E extends EventName> = Parameters<ServerToClientEvents[E]>;

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
    const invalidate = () => void queryClient.invalidateQueries({ queryKey: key });
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
