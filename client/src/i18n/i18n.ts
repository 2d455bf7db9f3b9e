import i18n from 'i18next';
import HttpBackend, { type HttpBackendOptions } from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { CONSTANTS, MESSAGES, SETTINGS_DEFAULTS, bidiIsolatingFormatter } from '@sitewalk/proto';
import { sanitizeDictionary } from './dictionary';

/**
 * Keys are the English texts themselves, so an empty translation set (SPEC §7:
 * translations failed to load) still shows a complete English interface, and
 * the server's messages can be looked up too. '{name}' placeholders follow the
 * spec's own notation ('Error loading settings: {message}').
 *
 * Translations come from GET /api/translations/{lang} through
 * i18next-http-backend. i18next itself keeps the loading states (pending,
 * loaded, failed) and the SPEC §4/§7/§9 policy: each language read once,
 * retried up to 5 times with the delay doubling from 350 ms (5xx and network
 * errors only: a 4xx will not get better), at most 10 reads in parallel.
 * No language is set here: the app applies the stored one (language.ts), so
 * nothing is read twice at start.
 */
const SITE_NAME_CHANGED = 'siteNameChanged';

void i18n
  .use(HttpBackend)
  .use(initReactI18next)
  // Every inserted value (a name, a code, a date, the site's name) is its own
  // direction-isolated run, so Arabic sentences around English values read right.
  .use(bidiIsolatingFormatter)
  .init<HttpBackendOptions>({
    fallbackLng: false,
    keySeparator: false,
    nsSeparator: false,
    returnEmptyString: false,
    returnNull: false,
    interpolation: { escapeValue: false, alwaysFormat: true, prefix: '{', suffix: '}', defaultVariables: { site: SETTINGS_DEFAULTS.name } },
    // Screens translate again when the language or the site's name changes.
    react: { useSuspense: false, bindI18n: `languageChanged ${SITE_NAME_CHANGED}` },
    showSupportNotice: false,
    maxRetries: CONSTANTS.translationRetries,
    retryTimeout: CONSTANTS.translationRetryBaseMs,
    maxParallelReads: CONSTANTS.translationParallelMax,
    backend: {
      loadPath: (lngs: string[]) => `/api/translations/${lngs[0]}`,
      // The answer is the API's envelope; a dictionary from the server is not trusted blindly.
      parse: (body: string) => sanitizeDictionary((JSON.parse(body) as { data?: unknown }).data),
      requestOptions: { credentials: 'same-origin', cache: 'default' },
      // Read once per page load (in Node the backend would re-read every hour).
      reloadInterval: false,
    },
  });

i18n.on('failedLoading', (lng, _ns, msg) => console.error(MESSAGES.translationsFailed, lng, msg));

export default i18n;

/** Translates a text outside React (stores, toasts). */
export const translate = (key: string, vars?: Record<string, unknown>) => i18n.t(key, vars);

/**
 * The site's name (SPEC §3 setting `name`) as '{site}' in every text, so a
 * renamed site is called by its name everywhere (tour, notices, settings)
 * without each screen passing it.
 */
export function setSiteName(name: string): void {
  const interpolation = i18n.options.interpolation ?? {};
  if (interpolation.defaultVariables?.site === name) return;
  i18n.options.interpolation = { ...interpolation, defaultVariables: { ...interpolation.defaultVariables, site: name } };
  i18n.emit(SITE_NAME_CHANGED);
}
