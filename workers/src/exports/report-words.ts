import fsp from 'node:fs/promises';
import path from 'node:path';
import { LANGUAGE_CODES } from '@sitewalk/proto';
import { ROOT_DIR } from '@sitewalk/core/config.js';
import { english, interpolate, type Translate } from './snag-record.js';

/**
 * The words of a report in a language of the app, from the same
 * proto/translations files the client reads. An unknown language, or a word
 * without a translation, stays English.
 */
export async function reportTranslator(language: string | null | undefined): Promise<Translate> {
  if (!language || language === 'en' || !(LANGUAGE_CODES as readonly string[]).includes(language)) return english;
  let words: Record<string, unknown>;
  try {
    words = JSON.parse(await fsp.readFile(path.join(ROOT_DIR, 'proto', 'translations', `${language}.json`), 'utf8')) as Record<string, unknown>;
  } catch {
    return english;
  }
  return (key, vars) => interpolate(typeof words[key] === 'string' && words[key] ? (words[key] as string) : key, vars);
}
