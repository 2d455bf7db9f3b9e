import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { CONSTANTS } from '@sitewalk/proto';

/**
 * Keys are the English texts themselves, so an empty translation set (SPEC §7:
 * translations failed to load) still shows a complete English interface, and
 * the server's messages can be looked up too. '{name}' placeholders follow the
 * spec's own notation ('Error loading settings: {message}').
 */
void i18n.use(initReactI18next).init({
  resources: {},
  lng: CONSTANTS.defaultLanguage,
  fallbackLng: false,
  keySeparator: false,
  nsSeparator: false,
  returnEmptyString: false,
  returnNull: false,
  interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
  react: { useSuspense: false },
  showSupportNotice: false,
});

export default i18n;

/** Translates a text outside React (stores, toasts). */
export const translate = (key: string, vars?: Record<string, unknown>) => i18n.t(key, vars);
