import { useEffect, useRef, useState } from 'react';
import type { JobProgressEvent } from '@sitewalk/proto';
import { currentSocket, onServerEvent, onSocketConnect, type AppSocket } from './socket';

/**
 * Follows the long jobs of a project live: joins the project's Socket.IO
 * room (again after every reconnection, calling `onReconnect` so the screen
 * catches up on what it missed) and hands each 'job:progress' event that
 * `accept` keeps to `onEvent`. Events carry the absolute state, so one that
 * arrives twice (user room and project room) changes nothing. Returns
 * whether the screen is in the project's room now.
 */
export function useProjectJobs(
  projectId: number | null,
  accept: (e: JobProgressEvent) => boolean,
  onEvent: (e: JobProgressEvent) => void,
  onReconnect: () => void,
): boolean {
  const handlers = useRef({ accept, onEvent, onReconnect });
  handlers.current = { accept, onEvent, onReconnect };
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (projectId === null) return;
    let active = true;
    let watched: AppSocket | null = null;
    const offline = () => active && setLive(false);
    const join = () => {
      const socket = currentSocket();
      if (!socket) return;
      if (watched !== socket) {
        watched?.off('disconnect', offline);
        socket.on('disconnect', offline);
        watched = socket;
      }
      socket.emit('project:join', projectId, (ok) => active && setLive(ok));
    };
    let connectedBefore = currentSocket()?.connected ?? false;
    if (connectedBefore) join();
    const offConnect = onSocketConnect(() => {
      join();
      if (connectedBefore) handlers.current.onReconnect();
      connectedBefore = true;
    });
    const offProgress = onServerEvent('job:progress', (e) => {
      if (handlers.current.accept(e)) handlers.current.onEvent(e);
    });
    return () => {
      active = false;
      offConnect();
      offProgress();
      watched?.off('disconnect', offline);
      currentSocket()?.emit('project:leave', projectId);
      setLive(false);
    };
  }, [projectId]);

  return live;
}
