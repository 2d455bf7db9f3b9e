/**
 * Dates and numbers in a reader's language, with the platform's Intl (no
 * library needed): the client shows them, and the server writes them into
 * notifications and mails in the recipient's language. An unreadable value
 * shows as given rather than as "Invalid Date".
 */
import { LANGUAGES } from './constants.js';

/** A calendar day (YYYY-MM-DD, no time zone) in the language's own form: "28 Nov 2026", "٢٨ نوفمبر ٢٠٢٦". */
export function formatDay(day: string, locale: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(d.getTime())) return day;
  // UTC both ways: the day is the day written, whatever the reader's time zone.
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
}

/** A moment (ISO text) with its time, in the reader's language and time zone. */
export function formatDateTime(iso: string, locale: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** A count or measure with the language's digits and grouping. */
export const formatNumber = (n: number, locale: string, options?: Intl.NumberFormatOptions): string => new Intl.NumberFormat(locale, options).format(n);

const FIRST_STRONG_ISOLATE = '\u2068';
const POP_DIRECTIONAL_ISOLATE = '\u2069';

/**
 * A value put into a sentence as one isolated run (Unicode FSI … PDI), its
 * direction taken from its own first letter: an English project name in an
 * Arabic sentence (or the reverse) does not pull the punctuation or the
 * words around it to its side.
 */
export const isolate = (value: string | number): string => `${FIRST_STRONG_ISOLATE}${value}${POP_DIRECTIONAL_ISOLATE}`;

/** The text without the isolate marks (for comparing or for places that cannot show them). */
export const withoutIsolates = (text: string): string => text.replace(/[\u2066-\u2069]/g, '');

// Letters written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms) and the
// Unicode direction controls: a value holding one of these can reorder a left-to-right sentence around it.
const REORDERS_LTR_SENTENCE = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200e\u200f\u202a-\u202e\u2066-\u2069]|\ud802[\udc00-\udfff]|\ud83a[\udc00-\udfff]/;

const isIsolated = (text: string): boolean => text.startsWith(FIRST_STRONG_ISOLATE) && text.endsWith(POP_DIRECTIONAL_ISOLATE);

/**
 * A value inserted into a translated sentence, isolated when it could
 * reorder it: always in a right-to-left sentence (an English name, a code
 * such as "A-105", a date or a number in Arabic), and in a left-to-right one
 * when the value has a right-to-left letter or a direction mark. A value
 * already isolated is kept as it is, and a block of several lines is not a
 * value of one line (isolates end at a line break; its lines isolate their
 * own names). Anything not text or a number (a React element) is left alone.
 */
export function isolateInSentence<T>(value: T, direction: 'ltr' | 'rtl'): T | string {
  if (typeof value === 'number') return direction === 'rtl' ? isolate(value) : value;
  if (typeof value !== 'string' || value === '' || value.includes('\n') || isIsolated(value)) return value;
  return direction === 'rtl' || REORDERS_LTR_SENTENCE.test(value) ? isolate(value) : value;
}

/**
 * An i18next formatter module (`i18n.use(...)` with `interpolation.alwaysFormat`)
 * that isolates every value i18next puts into a text, in the text's language:
 * the client's screens and the server's notices and mails read alike, and no
 * screen has to remember to isolate what it inserts. Named formats
 * ('{n, number}') are not used by the app's texts; one would pass unchanged.
 */
export const bidiIsolatingFormatter = {
  type: 'formatter' as const,
  init() {},
  add() {},
  addCached() {},
  format: (value: unknown, _format: string | undefined, lng: string | undefined) => isolateInSentence(value, languageDirection(lng)),
};

/** The writing direction of a language code ('ar', 'ar-JO'); unknown languages are left to right. */
export const languageDirection = (lng: string | undefined): 'ltr' | 'rtl' => LANGUAGES.find((l) => l.code === lng?.split('-')[0])?.direction ?? 'ltr';
