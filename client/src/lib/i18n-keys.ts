/**
 * Marks a text as a translation key where it is written down, for texts that
 * are translated later (tables of labels, messages returned by checks). It
 * returns the text unchanged; the translations test finds every literal key
 * of t() and tk() calls in the client and checks en.json and ar.json have it.
 */
export const tk = <T extends string>(text: T): T => text;

const CALL = /\b(?:t|tk)\(\s*(['"])((?:\\.|(?!\1)[^\\])*)\1/g;

/** The literal keys passed to t() or tk() in a source text. */
export function extractKeys(source: string): string[] {
  const keys: string[] = [];
  for (const m of source.matchAll(CALL)) keys.push(m[2].replace(/\\(['"\\])/g, '$1'));
  return keys;
}
