/**
 * Rate-limits repeated log lines: while a dependency is away, every request
 * and every reconnect attempt fails the same way, and thousands of identical
 * lines would bury the one that matters. Per key, the first occurrence is
 * logged at once, later ones at most once per interval, carrying how many
 * were left out in between. Pure: the clock is injected.
 */
export interface ThrottleDecision {
  /** Write this occurrence to the log. */
  log: boolean;
  /** Occurrences left out since the last written one (only when `log`). */
  suppressed: number;
}

export function createLogThrottle(intervalMs: number, now: () => number = Date.now) {
  const state = new Map<string, { lastAt: number; suppressed: number }>();
  return {
    /** Decides for one occurrence of `key`. */
    hit(key: string): ThrottleDecision {
      const t = now();
      const s = state.get(key);
      if (!s || t - s.lastAt >= intervalMs) {
        const suppressed = s?.suppressed ?? 0;
        state.set(key, { lastAt: t, suppressed: 0 });
        return { log: true, suppressed };
      }
      s.suppressed++;
      return { log: false, suppressed: 0 };
    },
    /** Forgets `key` (the incident is over): its next occurrence is logged at once. */
    reset(key: string): number {
      const s = state.get(key);
      state.delete(key);
      return s?.suppressed ?? 0;
    },
  };
}
