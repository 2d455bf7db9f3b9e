import { CONSTANTS, LANGUAGES, MESSAGES, type LanguageCode } from '@sitewalk/proto';
import bootstrapLtr from 'bootstrap/dist/css/bootstrap.min.css?url';
import bootstrapRtl from 'bootstrap/dist/css/bootstrap.rtl.min.css?url';
import i18n from './i18n';
import { local, session } from '../lib/browser-storage';
import { authKey } from '../lib/stored-auth';

/**
 * Switching language (SPEC §4): stores the choice, swaps the admin theme
 * stylesheet for its right-to-left variant, sets dir and lang on the page and
 * the rtl class on the body. Translations come from GET /translations/{lang}
 * (i18n.ts).
 */

export const isLanguage = (code: unknown): code is LanguageCode => LANGUAGES.some((l) => l.code === code);

export const directionOf = (code: LanguageCode) => LANGUAGES.find((l) => l.code === code)?.direction ?? 'ltr';

/** The language chosen on this browser: this tab's, else the remembered one, else English. */
export function storedLanguage(): LanguageCode {
  const v = session.getItem(authKey('language', false)) ?? local.getItem(authKey('language', true));
  return isLanguage(v) ? v : (CONSTANTS.defaultLanguage as LanguageCode);
}

export function rememberLanguage(code: LanguageCode): void {
  session.setItem(authKey('language', false), code);
  local.setItem(authKey('language', true), code);
}

const STYLESHEET_ID = 'sw-admin-theme';

/** Points the admin theme stylesheet at the given direction; resolves once it applied. */
function swapStylesheet(dir: 'ltr' | 'rtl'): Promise<void> {
  const href = dir === 'rtl' ? bootstrapRtl : bootstrapLtr;
  const current = document.getElementById(STYLESHEET_ID) as HTMLLinkElement | null;
  if (current && current.getAttribute('href') === href) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = () => {
      // The old sheet goes only once the new one applies, so the page never flashes unstyled.
      current?.remove();
      link.id = STYLESHEET_ID;
      resolve();
    };
    link.onerror = (err) => {
      console.error(MESSAGES.cssFailed, href, err);
      link.remove();
      resolve();
    };
    // Before the app's own stylesheet, so the app can override Bootstrap.
    const first = document.head.querySelector('link[rel="stylesheet"], style');
    document.head.insertBefore(link, current ?? first);
  });
}

/** Loads translations and stylesheets of a language and applies it to the page. */
export async function applyLanguage(code: LanguageCode): Promise<void> {
  const dir = directionOf(code);
  // A language whose read failed earlier is read again (i18next would keep the failure).
  const load = i18n.hasResourceBundle(code, 'translation') ? i18n.changeLanguage(code) : i18n.reloadResources(code).then(() => i18n.changeLanguage(code));
  await Promise.all([load, swapStylesheet(dir)]);
  const html = document.documentElement;
  html.setAttribute('lang', code);
  html.setAttribute('dir', dir);
  document.body.classList.toggle('rtl', dir === 'rtl');
  rememberLanguage(code);
}
