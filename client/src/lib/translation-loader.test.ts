import { describe, expect, it } from 'vitest';
import { createTranslationLoader, sanitizeDictionary } from './translation-loader';

describe('translation loading', () => {
  it('reads each language once', async () => {
    let reads = 0;
    const loader = createTranslationLoader(async () => {
      reads++;
      return { Hello: 'مرحبا' };
    });
    await Promise.all([loader.load('ar'), loader.load('ar')]);
    await loader.load('ar');
    expect(reads).toBe(1);
    expect(loader.state('ar')).toBe('loaded');
  });

  it('retries 5 times with doubling delays, then uses an empty set and logs the failure', async () => {
    const waited: number[] = [];
    const logged: string[] = [];
    let reads = 0;
    const loader = createTranslationLoader(
      async () => {
        reads++;
        throw new Error('down');
      },
      { wait: async (ms) => void waited.push(ms), log: (msg) => logged.push(msg) },
    );
    expect(await loader.load('ar')).toEqual({});
    expect(reads).toBe(6);
    expect(waited).toEqual([350, 700, 1400, 2800, 5600]);
    expect(logged).toEqual(['Failed to load translations']);
    expect(loader.state('ar')).toBe('failed');
  });

  it('succeeds on a retry', async () => {
    let reads = 0;
    const loader = createTranslationLoader(
      async () => {
        reads++;
        if (reads < 3) throw new Error('flaky');
        return { Yes: 'نعم' };
      },
      { wait: async () => undefined },
    );
    expect(await loader.load('ar')).toEqual({ Yes: 'نعم' });
  });

  it('reads at most 10 languages in parallel', async () => {
    let running = 0;
    let peak = 0;
    const loader = createTranslationLoader(async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return {};
    });
    await Promise.all(Array.from({ length: 15 }, (_, i) => loader.load(`l${i}`)));
    expect(peak).toBe(10);
  });

  it('keeps only string entries of a dictionary', () => {
    expect(sanitizeDictionary({ a: 'A', b: 1, c: null })).toEqual({ a: 'A' });
    expect(() => sanitizeDictionary(null)).toThrow();
    expect(() => sanitizeDictionary(['x'])).toThrow();
  });
});
