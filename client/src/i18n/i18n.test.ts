import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@sitewalk/proto';
import { sanitizeDictionary } from './dictionary';

/** The app's i18next instance, fresh, with fetch answered by `answer` and the reads recorded. */
async function freshI18n(answer: (n: number) => Response) {
  vi.resetModules();
  const reads: { url: string; at: number }[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    reads.push({ url, at: Date.now() });
    return answer(reads.length);
  });
  const { default: i18n } = await import('./i18n');
  return { i18n, reads };
}

const ok = (data: unknown) => new Response(JSON.stringify({ status: 'success', message: '', data }), { status: 200 });
const down = () => new Response('{"status":"error","message":"down"}', { status: 503 });

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('translation loading (SPEC §4, §7, §9)', () => {
  it('reads each language once from /api/translations/{lang} and shows its texts', async () => {
    const { i18n, reads } = await freshI18n(() => ok({ Hello: 'مرحبا', broken: 5 }));
    await i18n.changeLanguage('ar');
    await i18n.changeLanguage('ar');
    expect(reads.map((r) => r.url)).toEqual(['/api/translations/ar']);
    expect(i18n.t('Hello')).toBe('مرحبا');
    // Texts without a translation show their English source.
    expect(i18n.t('broken')).toBe('broken');
  });

  it('tries again up to 5 times with the delay doubling from 350 ms, then shows English and logs the failure', async () => {
    vi.useFakeTimers();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { i18n, reads } = await freshI18n(down);
    const switching = i18n.changeLanguage('ar');
    await vi.advanceTimersByTimeAsync(350 + 700 + 1400 + 2800 + 5600 + 1000);
    await switching;
    expect(reads).toHaveLength(6);
    expect(reads.slice(1).map((r, i) => r.at - reads[i].at)).toEqual([350, 700, 1400, 2800, 5600]);
    expect(i18n.t('Hello')).toBe('Hello');
    expect(logged.mock.calls.some((c) => c[0] === MESSAGES.translationsFailed)).toBe(true);
  });

  it('does not try again when the server refuses the language (4xx)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { i18n, reads } = await freshI18n(() => new Response('{"status":"error","message":"No such language"}', { status: 404 }));
    await i18n.changeLanguage('xx');
    expect(reads).toHaveLength(1);
  });
});

describe('a dictionary from the server', () => {
  it('keeps only text values, also under a translations key, and refuses what is not an object', () => {
    expect(sanitizeDictionary({ a: 'A', b: 1, c: null })).toEqual({ a: 'A' });
    expect(sanitizeDictionary({ translations: { a: 'A' } })).toEqual({ a: 'A' });
    expect(() => sanitizeDictionary(['a'])).toThrow();
  });
});
