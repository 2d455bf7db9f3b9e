import { useEffect, useRef } from 'react';
import type { JobProgressEvent } from '@sitewalk/proto';
import { currentSocket, onServerEvent, onSocketConnect } from '../../realtime/socket';
import { isPdfEventFor } from '../../lib/pdf-progress';

/**
 * Follows the PDF-sheet jobs of a project live: joins the project's Socket.IO
 * room (again after every reconnection, and tells the page so it can catch
 * up on what it missed), and hands each 'job:progress' event of this project
 * to `onEvent`. The uploader also gets the events in their own room; the
 * page merges both (events carry the absolute state).
 */
export function useProjectProgress(projectId: number | null, onEvent: (e: JobProgressEvent) => void, onReconnect: () => void) {
  const handlers = useRef({ onEvent, onReconnect });
  handlers.current = { onEvent, onReconnect };

  useEffect(() => {
    if (projectId === null) return;
    const join = () => currentSocket()?.emit('project:join', projectId);
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
      offConnect();
      offProgress();
      currentSocket()?.emit('project:leave', projectId);
    };
  }, [projectId]);
}
