import { useEffect } from 'react';
import { showToast } from './toast';

/**
 * Tells the user in an error toast that a read failed (its message, as the
 * API client gave it), once for each failure: for screens that show what
 * they have, or nothing, instead of an error in their place.
 */
export function useFailureToast(error: Error | null, text: (message: string) => string = (m) => m): void {
  const message = error ? text(error.message) : null;
  useEffect(() => {
    if (error && message) showToast('error', message);
    // Once per failure: a new error object, not a new rendering of its text.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [error]);
}
