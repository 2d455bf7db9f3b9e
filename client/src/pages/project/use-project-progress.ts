import { useEffect, useRef, useState } from 'react';
import type { JobProgressEvent } from '@sitewalk/proto';
import { currentSocket, onServerEvent, onSocketConnect, type AppSocket } from '../../realtime/socket';
import { isPdfEventFor } from '../../lib/pdf-progress';

/**
 * Follows the PDF-sheet jobs of a project live: joins the project's Socket.IO
 * room (again after every reconnection, and tells the page so it can catch
 * up on what it missed), and hands each 'job:progress' event of this project
 * to `onEvent`. The uploader also gets the events in their own room; the
 * page merges both (events carry the absolute state). Returns whether the
 * page is in the project's room now.
 */
export function useProjectProgress(projectId: number | null, onEvent: (e: JobProgressEvent) => void, onReconnect: () => void): boolean {
  const handlers = useRef({ onEvent, onReconnect });
  handlers.current = { onEvent, onReconnect };
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
      // A reconnection may have missed events: the page reloads its state.
      if (connectedBefore) handlers.current.onReconnect();
      connectedBefore = true;
    });
    const offProgress = onServerEvent('job:progress', (e) => {
      if (isPdfEventFor(e, projectId)) handlers.current.onEvent(e);
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
