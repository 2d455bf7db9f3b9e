import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { api } from './helpers.js';

const file = (lang: string) => JSON.parse(fs.readFileSync(new URL(`../../proto/translations/${lang}.json`, import.meta.url), 'utf8'));

describe('GET /api/translations/{lang}', () => {
  it('serves the English and Arabic files to anyone', async () => {
    for (const lang of ['en', 'ar']) {
      const res = await api().get(`/api/translations/${lang}`);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('success');
      expect(res.body.data).toEqual(file(lang));
    }
  });

  it('answers 404 with the available languages for any other', async () => {
    const res = await api().get('/api/translations/fr');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', message: 'There are no translations for "fr". Available: en, ar.', data: null });
    expect((await api().get('/api/translations/..%2Fpackage')).status).toBe(404);
  });
});
