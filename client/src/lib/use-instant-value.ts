import { useEffect, useState } from 'react';

/**
 * A control whose value lives in the address (filters, sort, "starred only") would show the
 * old value until the router commits the new URL: react-router v7 wraps navigations in
 * React.startTransition, and React puts a controlled checkbox back to its rendered value
 * straight after the click. On a busy phone or machine the click then looks ignored.
 * The control shows this instant copy, set on the click and re-synced whenever the
 * committed value changes (Back, a shared link, "Clear filters").
 */
export function useInstantValue<T>(committed: T): [T, (next: T) => void] {
  const [shown, setShown] = useState(committed);
  useEffect(() => setShown(committed), [committed]);
  return [shown, setShown];
}
