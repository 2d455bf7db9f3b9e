import { useEffect, useRef, useState } from 'react';

/**
 * A search box whose text is kept in the address (a list's `q`): the box
 * follows the address (Back, a shared link, "Clear the filters"), and the
 * address follows the box once typing pauses, so each keystroke does not
 * read the list again. Returns the box's text and its setter.
 */
export function useAddressSearch(committed: string, commit: (text: string) => void, pauseMs = 350): [string, (text: string) => void] {
  const [text, setText] = useState(committed);
  const commitRef = useRef(commit);
  commitRef.current = commit;
  useEffect(() => setText(committed), [committed]);
  useEffect(() => {
    if (text.trim() === committed.trim()) return;
    const timer = setTimeout(() => commitRef.current(text), pauseMs);
    return () => clearTimeout(timer);
  }, [text, committed, pauseMs]);
  return [text, setText];
}
