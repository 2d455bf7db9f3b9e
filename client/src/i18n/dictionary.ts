export type Dictionary = Record<string, string>;

/** Keeps only string values: a dictionary from the server is not trusted blindly. */
export function sanitizeDictionary(data: unknown): Dictionary {
  const src = data && typeof data === 'object' && 'translations' in data ? (data as { translations: unknown }).translations : data;
  if (!src || typeof src !== 'object' || Array.isArray(src)) throw new Error('Translations are not an object');
  const out: Dictionary = {};
  for (const [k, v] of Object.entries(src as Record<string, unknown>)) if (typeof v === 'string') out[k] = v;
  return out;
}
