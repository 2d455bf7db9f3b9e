import type { KeyValueStore } from './stored-auth';

/**
 * Web storage that never throws: a blocked or full storage (private windows,
 * quotas) acts as an empty one, so the app still runs.
 */
function safe(get: () => Storage): KeyValueStore {
  return {
    getItem: (k) => {
      try {
        return get().getItem(k);
      } catch {
        return null;
      }
    },
    setItem: (k, v) => {
      try {
        get().setItem(k, v);
      } catch {
        /* storage unavailable: the value lives only in memory for this page */
      }
    },
    removeItem: (k) => {
      try {
        get().removeItem(k);
      } catch {
        /* nothing stored, nothing to remove */
      }
    },
  };
}

export const local = safe(() => window.localStorage);
export const session = safe(() => window.sessionStorage);

/** A storage in memory, for tests. */
export function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { dump(): Record<string, string> } {
  const m = new Map(Object.entries(initial));
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, String(v)),
    removeItem: (k) => void m.delete(k),
    dump: () => Object.fromEntries(m),
  };
}
