/**
 * Mixed-direction text (SPEC §9, Arabic): a value put into a sentence or a
 * list ("Amman, Jordan · 28/11/2026") is isolated, so its own direction does
 * not reorder its neighbours. In JSX use <bdi>; in a string (a title, a
 * tooltip, a joined line) use these Unicode isolates.
 */
import { isolate } from '@sitewalk/proto';

/** The value as one isolated run, its direction taken from its first strong letter (the server's notifications use the same). */
export { isolate };

/** The non-empty parts, each isolated, joined by `separator`. */
export function joinIsolated(parts: (string | number | null | undefined | false)[], separator = ' · '): string {
  return parts
    .filter((p): p is string | number => p !== null && p !== undefined && p !== false && p !== '')
    .map(isolate)
    .join(separator);
}
