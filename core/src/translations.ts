import fsp from 'node:fs/promises';
import path from 'node:path';
import { ROOT_DIR } from './config.js';

const TRANSLATIONS_DIR = path.join(ROOT_DIR, 'proto', 'translations');

// Parsed files, kept until the file changes on disk (translations are edited while the server runs in development).
const cache = new Map<string, { mtimeMs: number; data: Record<string, unknown> }>();

/**
 * The translation dictionary of a supported language (proto/translations),
 * as the client loads it (GET /translations/{lang}) and as the server renders
 * notifications and mails with it. Throws when the file is missing.
 */
export async function readTranslations(lang: string): Promise<Record<string, unknown>> {
  const file = path.join(TRANSLATIONS_DIR, `${lang}.json`);
  const { mtimeMs } = await fsp.stat(file);
  const hit = cache.get(lang);
  if (hit && hit.mtimeMs === mtimeMs) return hit.data;
  const data = JSON.parse(await fsp.readFile(file, 'utf8')) as Record<string, unknown>;
  cache.set(lang, { mtimeMs, data });
  return data;
}
