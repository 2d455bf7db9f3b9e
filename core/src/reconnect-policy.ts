/**
 * How long a client waits before its next attempt to reconnect to a server
 * that went away: doubling from `baseMs`, never more than `capMs`, with a
 * little jitter so that many clients (API, workers, Socket.IO) do not knock
 * at the same instant. Never gives up: a restarted server is found again.
 * Pure: the randomness is injected.
 */
export interface ReconnectPolicy {
  baseMs: number;
  capMs: number;
  /** Share of the delay that is random, 0..1 (0.2: between 80 % and 100 %). */
  jitter: number;
}

export const REDIS_RECONNECT: ReconnectPolicy = { baseMs: 100, capMs: 3_000, jitter: 0.2 };

/** Delay before reconnect attempt number `attempt` (1 = the first one after the loss). */
export function reconnectDelayMs(attempt: number, policy: ReconnectPolicy = REDIS_RECONNECT, random: () => number = Math.random): number {
  const n = Math.max(1, Math.floor(attempt));
  // 2 ** 30 is far past any cap; it keeps the exponent from overflowing to Infinity.
  const raw = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(n - 1, 30));
  return Math.round(raw * (1 - policy.jitter * random()));
}
