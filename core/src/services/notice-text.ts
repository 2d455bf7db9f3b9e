import i18next, { type i18n } from 'i18next';
import { SETTINGS_DEFAULTS, bidiIsolatingFormatter, noticeInLanguage, type NoticeParams, type Translate } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { readTranslations } from '../translations.js';
import { settingValue } from '../repositories/settings.repository.js';

/**
 * Notifications in a recipient's language on the server side (the API's
 * title and message fields, the e-mails): the same translation files and the
 * same i18next rules (plural forms, '{name}' placeholders) as the client, so
 * a notice reads alike in the app, in the API and in the mail box.
 */

export type NoticeLanguage = 'en' | 'ar';
export const noticeLanguage = (lang: string | null | undefined): NoticeLanguage => (lang === 'ar' ? 'ar' : 'en');

// One i18next instance, rebuilt when a translation file changes on disk (development).
let current: { en: unknown; ar: unknown; instance: i18n } | null = null;

async function instance(): Promise<i18n> {
  const [en, ar] = await Promise.all([readTranslations('en'), readTranslations('ar')]);
  if (current && current.en === en && current.ar === ar) return current.instance;
  // As the client: every inserted value isolated in the text's direction.
  const inst = i18next.createInstance().use(bidiIsolatingFormatter);
  await inst.init({
    lng: 'en',
    fallbackLng: false,
    resources: { en: { translation: en }, ar: { translation: ar } },
    // As the client's i18n.ts: keys are English texts, '{name}' placeholders.
    keySeparator: false,
    nsSeparator: false,
    returnEmptyString: false,
    returnNull: false,
    interpolation: { escapeValue: false, alwaysFormat: true, prefix: '{', suffix: '}' },
    showSupportNotice: false,
  });
  current = { en, ar, instance: inst };
  return inst;
}

/** A translate function of one language, with the site's name as {site}. */
export async function translatorFor(lang: string | null | undefined, site: string): Promise<Translate> {
  const t = (await instance()).getFixedT(noticeLanguage(lang));
  return (key, vars) => t(key, { site, ...vars }) as string;
}

/** The site's name (setting `name`), which notices call the site by. */
export async function siteName(): Promise<string> {
  const name = await settingValue(db(), 'name');
  return (typeof name === 'string' && name.trim()) || SETTINGS_DEFAULTS.name;
}

export interface StoredNotice {
  title: string;
  message: string;
  title_key?: string | null;
  message_key?: string | null;
  params?: NoticeParams | null;
}

/** A notice's title and message in a language: from its keys, or its stored text when it has none (older notifications). */
export async function renderNotice(n: StoredNotice, lang: string | null | undefined, site?: string): Promise<{ title: string; message: string }> {
  if (!n.title_key || !n.message_key) return { title: n.title, message: n.message };
  const t = await translatorFor(lang, site ?? (await siteName()));
  return noticeInLanguage(n, noticeLanguage(lang), t);
}
