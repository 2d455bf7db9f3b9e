import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { bidiIsolatingFormatter, notice, noticeInLanguage, withoutIsolates, type Notification } from '@sitewalk/proto';

const here = path.dirname(fileURLToPath(import.meta.url));
const load = (lang: string) => JSON.parse(fs.readFileSync(path.resolve(here, `../../../proto/translations/${lang}.json`), 'utf8')) as Record<string, string>;

/** An i18next set up as the app's (i18n.ts): English keys, '{name}' placeholders, the site's name as {site}. */
async function appI18n(lang: string) {
  const inst = i18next.createInstance().use(bidiIsolatingFormatter);
  await inst.init({
    lng: lang,
    fallbackLng: false,
    resources: { en: { translation: load('en') }, ar: { translation: load('ar') } },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false, alwaysFormat: true, prefix: '{', suffix: '}', defaultVariables: { site: 'Abdali Works' } },
  });
  return (n: Notification) => noticeInLanguage(n, lang, (k, v) => inst.t(k, v) as string);
}

const base = { id: 1, type: 'info', is_read: false, created_at: '2026-11-28T10:00:00Z', link: null };
const keyed = (text: ReturnType<typeof notice>): Notification => ({ ...base, title: 'stored title', message: 'stored message', ...text });

describe('a notification in the language the screen shows', () => {
  const visit = keyed(notice('visitCreated', { by: 'Rania', visit: 'Roof plan', date: { day: '2026-11-28' }, project: 'Amman, Jordan' }));

  it('renders a keyed notice in English and in Arabic, whatever language it was stored in', async () => {
    expect(withoutIsolates((await appI18n('en'))(visit).message)).toBe('Rania added the visit "Roof plan" (Nov 28, 2026) to "Amman, Jordan".');
    const ar = (await appI18n('ar'))(visit);
    expect(ar.title).toBe('زيارة جديدة');
    const day = new Intl.DateTimeFormat('ar', { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(2026, 10, 28));
    expect(withoutIsolates(ar.message)).toBe(`أضاف Rania الزيارة «Roof plan» (${day}) إلى «Amman, Jordan».`);
  });

  it('isolates every inserted value, so "Amman, Jordan" and the date do not swap places in Arabic', async () => {
    const ar = (await appI18n('ar'))(visit).message;
    expect(ar).toContain('«\u2068Amman, Jordan\u2069»');
    expect(ar).toContain('«\u2068Roof plan\u2069»');
    const day = new Intl.DateTimeFormat('ar', { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(2026, 10, 28));
    expect(ar).toContain(`(\u2068${day}\u2069)`);
  });

  it('calls the site by its current name', async () => {
    const mail = keyed(notice('mailWorks', { server: 'smtp.example.com:587' }));
    expect(withoutIsolates((await appI18n('en'))(mail).message)).toBe('Abdali Works can send e-mail through smtp.example.com:587.');
  });

  it('shows an older notification (no keys) as stored, translated when it is a known text', async () => {
    const old: Notification = { ...base, title: 'New visit', message: 'Written before keys.' };
    expect((await appI18n('ar'))(old)).toEqual({ title: 'زيارة جديدة', message: 'Written before keys.' });
  });

  it('picks the plural form of the count in each language', async () => {
    const two = keyed(notice('snagOverdue', { n: 2, list: { lines: ['• a', '• b'] } }));
    expect((await appI18n('en'))(two).title).toBe('You have 2 overdue snags');
    expect((await appI18n('ar'))(two).title).toBe('لديك ملاحظتان متأخرتان');
    expect((await appI18n('en'))(keyed(notice('snagOverdue', { n: 1, list: { lines: ['• a'] } }))).title).toBe('You have an overdue snag');
  });
});
