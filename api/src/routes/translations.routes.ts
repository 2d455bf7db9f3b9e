import { LANGUAGE_CODES } from '@sitewalk/proto';
import { readTranslations } from '@sitewalk/core/translations.js';
import { ok } from '../http/envelope.js';
import { notFound } from '@sitewalk/core/errors.js';
import type { RouteModule } from './types.js';

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
