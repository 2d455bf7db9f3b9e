import { logger } from '@sitewalk/core/logger.js';

/**
 * Job locks are renewed on a timer of this process's event loop: a loop held
 * by synchronous work for about half the lock (see runner.ts) lets another
 * worker take the job while this one still runs it. This reports such
 * stretches, with how long they were, so the step that blocks can be split
 * into awaited pieces.
 */
export function watchEventLoop(lockMs: number, every = 1000): () => void {
  const warnAfter = lockMs / 4;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const blocked = now - last - every;
    last = now;
    if (blocked > warnAfter) logger.warn({ blocked_ms: Math.round(blocked), lock_ms: lockMs }, 'the event loop was blocked: job locks may not have been renewed in time');
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
