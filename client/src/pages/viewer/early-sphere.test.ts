import { describe, expect, it } from 'vitest';
import { afterEarlySphere } from './viewer-preload';

/** A window with real timers; frames run on the next timer turn. */
function fakeWindow(boot?: Promise<unknown>) {
  return {
    __swPanoBoot: boot,
    setTimeout: (f: () => void, ms: number) => setTimeout(f, ms),
    requestAnimationFrame: (f: () => void) => setTimeout(f, 1),
  } as unknown as Window;
}

/** An early viewer whose sphere arrives when `load()` is called. */
function earlyViewer(state: 'loading' | 'ready') {
  const listeners: (() => void)[] = [];
  return {
    session: {
      host: { dataset: { panoState: state } },
      viewer: { addEventListener: (_type: string, cb: () => void) => void listeners.push(cb) },
    },
    load: () => listeners.forEach((f) => f()),
  };
}

/**
 * 'done' if `p` settles within `ms`, else 'waiting'. Expected 'done' is given a long guard (a pass returns
 * at once; on a busy machine a chain of timer turns can outlast a short one); expected 'waiting' a short look.
 */
const DONE_GUARD_MS = 5_000;
const settled = async (p: Promise<void>, ms: number) => Promise.race([p.then(() => 'done'), new Promise((r) => setTimeout(() => r('waiting'), ms))]);

describe('afterEarlySphere', () => {
  it('goes at once on screens without an early viewer, and when none was made', async () => {
    expect(await settled(afterEarlySphere(10_000, fakeWindow()), DONE_GUARD_MS)).toBe('done');
    expect(await settled(afterEarlySphere(10_000, fakeWindow(Promise.resolve(null))), DONE_GUARD_MS)).toBe('done');
    expect(await settled(afterEarlySphere(10_000, fakeWindow(Promise.reject(new Error('no WebGL')))), DONE_GUARD_MS)).toBe('done');
  });

  it('waits for the sphere and the frame that draws it', async () => {
    const early = earlyViewer('loading');
    const waiting = afterEarlySphere(10_000, fakeWindow(Promise.resolve(early)));
    expect(await settled(waiting, 50)).toBe('waiting');
    early.load();
    expect(await settled(waiting, DONE_GUARD_MS)).toBe('done');
  });

  it('goes after the frame when the sphere is already there', async () => {
    expect(await settled(afterEarlySphere(10_000, fakeWindow(Promise.resolve(earlyViewer('ready')))), DONE_GUARD_MS)).toBe('done');
  });

  it('never waits longer than the cap', async () => {
    const never = afterEarlySphere(60, fakeWindow(new Promise(() => undefined)));
    expect(await settled(never, 20)).toBe('waiting');
    expect(await settled(never, DONE_GUARD_MS)).toBe('done');
  });
});
