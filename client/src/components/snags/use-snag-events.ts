import { useEffect, useRef } from 'react';
import type { AnnotationChangedEvent } from '@sitewalk/proto';
import { currentSocket, onServerEvent, onSocketConnect } from '../../realtime/socket';

/**
 * Follows the snags of some projects live: joins each project's Socket.IO
 * room (again after every reconnection, calling `onReconnect` so the screen
 * reads what it missed) and hands every 'annotation:changed' of those
 * projects to `onEvent`. Events carry the snag's whole state, so one that
 * arrives twice changes nothing.
 */
export function useSnagEvents(projectIds: number[], onEvent: (e: AnnotationChangedEvent) => void, onReconnect: () => void): void {
  const handlers = useRef({ onEvent, onReconnect });
  handlers.current = { onEvent, onReconnect };
  // A stable key, so a new array with the same projects does not rejoin.
  const key = [...new Set(projectIds)].sort((a, b) => a - b).join(',');

  useEffect(() => {
    const ids = key ? key.split(',').map(Number) : [];
    if (!ids.length) return;
    const wanted = new Set(ids);
    const join = () => {
      const socket = currentSocket();
      for (const id of ids) socket?.emit('project:join', id);
    };
    let connectedBefore = currentSocket()?.connected ?? false;
    if (connectedBefore) join();
    const offConnect = onSocketConnect(() => {
      join();
      if (connectedBefore) handlers.current.onReconnect();
      connectedBefore = true;
    });
    const offEvent = onServerEvent('annotation:changed', (e) => {
      if (wanted.has(e.id_project)) handlers.current.onEvent(e);
    });
    return () => {
      offConnect();
      offEvent();
      // The screens that follow snags (viewer, sheet, snag list) follow nothing else of the project.
      for (const id of ids) currentSocket()?.emit('project:leave', id);
    };
  }, [key]);
}
