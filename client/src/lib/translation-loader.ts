import { CONSTANTS, MESSAGES } from '@sitewalk/proto';
import { createLimiter, TRANSLATION_POLICY, withRetry, type RetryPolicy } from './retry-policy';

export type Dictionary = Record<string, string>;
export type TranslationState = 'pending' | 'loaded' | 'failed';

/**
 * Translation loading (SPEC §4, §7): each language is read once, retried up to
 * 5 times with the delay doubling from 350 ms, at most 10 reads in parallel;
 * when it still fails, an empty set is used and 'Failed to load translations'
 * is logged, so the interface shows its English source texts.
 */
export function createTranslationLoader(
  fetchDictionary: (lang: string) => Promise<Dictionary>,
  opts: { wait?: (ms: number) => Promise<void>; log?: (msg: string, err: unknown) => void; policy?: RetryPolicy } = {},
) {
  const limit = createLimiter(CONSTANTS.translationParallelMax);
  const cache = new Map<string, Promise<Dictionary>>();
  const states = new Map<string, TranslationState>();
  const log = opts.log ?? ((msg, err) => console.error(msg, err));

  function load(lang: string): Promise<Dictionary> {
    const cached = cache.get(lang);
    if (cached) return cached;
    states.set(lang, 'pending');
    const p = withRetry(() => limit(() => fetchDictionary(lang)), opts.policy ?? TRANSLATION_POLICY, { wait: opts.wait }).then(
      (dict) => {
        states.set(lang, 'loaded');
        return dict;
      },
      (err: unknown) => {
        log(MESSAGES.translationsFailed, err);
        states.set(lang, 'failed');
        // A later switch to this language may try again.
        cache.delete(lang);
        return {} as Dictionary;
      },
    );
    cache.set(lang, p);
    return p;
  }

  return { load, state: (lang: string): TranslationState | undefined => states.get(lang) };
}

/** Keeps only string values: a dictionary from the server is not trusted blindly. */
export function sanitizeDictionary(data: unknown): Dictionary {
  const src = data && typeof data === 'object' && 'translations' in data ? (data as { translations: unknown }).translations : data;
  if (!src || typeof src !== 'object' || Array.isArray(src)) throw new Error('Translations are not an object');
  const out: Dictionary = {};
  for (const [k, v] of Object.entries(src as Record<string, unknown>)) if (typeof v === 'string') out[k] = v;
  return out;
}
