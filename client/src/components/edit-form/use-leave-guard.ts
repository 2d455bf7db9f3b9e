import { useEffect, useRef } from 'react';
import { useBlocker, type Blocker } from 'react-router-dom';

/**
 * Asks before unsaved changes are lost: an in-app navigation to another page
 * (Back, a sidebar link) is held by the router's blocker until the user
 * answers, and closing or reloading the tab raises the browser's own
 * question. `dirty` is read when the navigation happens, so a form that
 * navigates while it saves (busy) is never held by its own redirect.
 */
export function useLeaveGuard(dirty: boolean): Blocker {
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers show the question only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  // Saved meanwhile (or the changes undone): a held navigation may go on.
  useEffect(() => {
    if (!dirty && blocker.state === 'blocked') blocker.proceed();
  }, [dirty, blocker]);

  return blocker;
}
