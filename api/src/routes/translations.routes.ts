import fsp from 'node:fs/promises';
import path from 'node:path';
import { LANGUAGE_CODES } from '@sitewalk/proto';
import { ROOT_DIR } from '../core/config.js';
import { ok } from '../http/envelope.js';
import { notFound } from '../core/errors.js';
import type { RouteModule } from './types.js';

const TRANSLATIONS_DIR = path.join(ROOT_DIR, 'proto', 'translations');

// Parsed files, kept until the file changes on disk (translations are edited while the server runs in development).
const cache = new Map<string, { mtimeMs: number; data: Record<string, unknown> }>();

async function readTranslations(lang: string): Promise<Record<string, unknown>> {
  const file = path.join(TRANSLATIONS_DIR, `${lang}.json`);
  const { mtimeMs } = await fsp.stat(file);
  const hit = cache.get(lang);
  if (hit && hit.mtimeMs === mtimeMs) return hit.data;
  const data = JSON.parse(await fsp.readFile(file, 'utf8')) as Record<string, unknown>;
  cache.set(lang, { mtimeMs, data });
  return data;
}

/** SPEC §7: GET /translations/{lang} for every supported language (en, ar). */
const translationsRoutes: RouteModule = (r) => {
  r.get('/translations/:lang', async (ctx) => {
    const lang = (ctx.params as { lang: string }).lang;
    if (!(LANGUAGE_CODES as string[]).includes(lang)) {
      throw notFound(`There are no translations for "${lang.slice(0, 20)}". Available: ${LANGUAGE_CODES.join(', ')}.`);
    }
    ctx.set('Cache-Control', 'no-cache');
    ok<Record<string, unknown>>(ctx, await readTranslations(lang));
  });
};

export default translationsRoutes;
