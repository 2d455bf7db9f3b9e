/**
 * How long to wait before asking Autodesk again after a 429, from its
 * Retry-After header (seconds, or an HTTP date), within [0, maxMs]. A missing
 * or unreadable header waits `fallbackMs` (doubling with each attempt).
 * Framework-free so it is unit-tested on its own.
 */
export function retryAfterMs(header: string | null | undefined, attempt: number, now = Date.now(), maxMs = 60_000, fallbackMs = 1_000): number {
  const clamp = (ms: number) => Math.max(0, Math.min(maxMs, Math.round(ms)));
  const v = header?.trim();
  if (v) {
    if (/^\d+(\.\d+)?$/.test(v)) return clamp(Number(v) * 1000);
    const date = Date.parse(v);
    if (!Number.isNaN(date)) return clamp(date - now);
  }
  return clamp(fallbackMs * 2 ** Math.max(0, attempt));
}
