import { CONSTANTS, SETTINGS_DEFAULTS } from '@sitewalk/proto';

/**
 * The primary theme colour and its four shades (SPEC §9): each step is 10 %
 * lighter in light mode and 10 % darker in dark mode. Pure, so the colours
 * can be checked without a browser.
 */

type Rgb = [number, number, number];

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The colour as [r, g, b], or null when it is not a #rgb / #rrggbb colour. */
export function parseHex(color: string): Rgb | null {
  const m = HEX.exec(color.trim());
  if (!m) return null;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

export const toHex = (rgb: Rgb): string =>
  '#' + rgb.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('');

/** Moves `rgb` toward `target` by `amount` (0..1). */
const mix = (rgb: Rgb, target: Rgb, amount: number): Rgb =>
  rgb.map((c, i) => c + (target[i] - c) * amount) as Rgb;

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

/** The four shades of a colour, lighter (light mode) or darker (dark mode) in 10 % steps. */
export function themeShades(color: string, dark: boolean): string[] {
  const base = parseHex(color) ?? (parseHex(SETTINGS_DEFAULTS.theme_color) as Rgb);
  return Array.from({ length: CONSTANTS.themeShadeCount }, (_, i) =>
    toHex(mix(base, dark ? BLACK : WHITE, CONSTANTS.themeShadeStep * (i + 1))),
  );
}

/** WCAG 2.2 relative luminance of an sRGB colour. */
export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = Math.round(Math.min(255, Math.max(0, c))) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.2 contrast ratio of two colours (1..21). */
export function contrastRatio(a: Rgb | string, b: Rgb | string): number {
  const la = luminance(typeof a === 'string' ? (parseHex(a) as Rgb) : a);
  const lb = luminance(typeof b === 'string' ? (parseHex(b) as Rgb) : b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** WCAG AA for normal text. */
export const MIN_TEXT_CONTRAST = 4.5;

/**
 * The least move of `rgb` toward `target` (in 1 % steps, on the rounded
 * colour a browser would paint) that passes `ok`; `target` itself when
 * nothing short of it does.
 */
function leastMix(rgb: Rgb, target: Rgb, ok: (c: Rgb) => boolean): { color: Rgb; amount: number } {
  for (let step = 0; step <= 100; step++) {
    const color = parseHex(toHex(mix(rgb, target, step / 100))) as Rgb;
    if (ok(color)) return { color, amount: step / 100 };
  }
  return { color: target, amount: 1 };
}

/**
 * Bootstrap's page backgrounds that links and outline buttons sit on
 * (body, tertiary and secondary backgrounds), per mode.
 */
const PAGE_BACKGROUNDS: Record<'light' | 'dark', Rgb[]> = {
  light: [WHITE, [248, 249, 250], [233, 236, 239]],
  dark: [
    [33, 37, 41],
    [43, 48, 53],
    [52, 58, 64],
  ],
};

/** Bootstrap's 'primary subtle' background (unread rows, highlights) in the theme's tone, for either mode. */
const subtleBackground = (base: Rgb, dark: boolean): Rgb => parseHex(toHex(mix(base, dark ? PAGE_BACKGROUNDS.dark[0] : WHITE, dark ? 0.8 : 0.85))) as Rgb;

/** The primary colour darkened for a filled control: at most this far before dark text is used instead. */
const MAX_SOLID_DARKENING = 0.35;

/**
 * The text colours derived from the theme colour (SPEC §9), so that any
 * colour an administrator picks gives text of at least 4.5:1:
 * - `solid` is the background of filled controls (primary buttons, the
 *   sidebar, active items): the colour itself, or slightly darker, under
 *   white text; a light colour (yellow, mint) keeps its tone under black text;
 * - `solidEnd` is the far end of the sidebar's gradient, a little further from
 *   the text colour, so the whole gradient passes;
 * - `text` is the colour of links and outline buttons on the page: the theme
 *   colour moved toward black (light mode) or white (dark mode) until it
 *   passes on every page background.
 */
export function themeTextColours(color: string, dark: boolean): { solid: string; solidEnd: string; onSolid: string; text: string; subtle: string } {
  const base = parseHex(color) ?? (parseHex(SETTINGS_DEFAULTS.theme_color) as Rgb);
  const passesWith = (text: Rgb) => (c: Rgb) => contrastRatio(text, c) >= MIN_TEXT_CONTRAST;
  const darker = leastMix(base, BLACK, passesWith(WHITE));
  const whiteText = darker.amount <= MAX_SOLID_DARKENING;
  const solid = whiteText ? darker.color : base;
  const onSolid = whiteText ? WHITE : BLACK;
  const solidEnd = mix(solid, whiteText ? BLACK : WHITE, 0.15);
  const subtle = subtleBackground(base, dark);
  const backgrounds = [...PAGE_BACKGROUNDS[dark ? 'dark' : 'light'], subtle];
  const text = leastMix(base, dark ? WHITE : BLACK, (c) => backgrounds.every((bg) => contrastRatio(c, bg) >= MIN_TEXT_CONTRAST)).color;
  return { solid: toHex(solid), solidEnd: toHex(solidEnd), onSolid: toHex(onSolid), text: toHex(text), subtle: toHex(subtle) };
}

/** The CSS custom properties the stylesheet reads (see styles/app.css). */
export function themeVariables(color: string, dark: boolean): Record<string, string> {
  const rgb = parseHex(color) ?? (parseHex(SETTINGS_DEFAULTS.theme_color) as Rgb);
  const hex = toHex(rgb);
  const { solid, solidEnd, onSolid, text, subtle } = themeTextColours(hex, dark);
  const rgbOf = (h: string) => (parseHex(h) as Rgb).join(', ');
  const vars: Record<string, string> = {
    '--sw-primary': hex,
    '--sw-primary-rgb': rgb.join(', '),
    // Text and filled controls: derived so they pass WCAG AA on any theme colour.
    '--sw-primary-solid': solid,
    '--sw-primary-solid-end': solidEnd,
    '--sw-on-primary': onSolid,
    '--sw-on-primary-rgb': rgbOf(onSolid),
    '--sw-primary-text': text,
    // Bootstrap's own primary follows the setting, so focus rings match; its links take the readable shade.
    '--bs-primary': hex,
    '--bs-primary-rgb': rgb.join(', '),
    '--bs-link-color': text,
    '--bs-link-color-rgb': rgbOf(text),
    '--bs-link-hover-color': text,
    '--bs-link-hover-color-rgb': rgbOf(text),
    '--bs-primary-text-emphasis': text,
    '--bs-primary-bg-subtle': subtle,
  };
  themeShades(hex, dark).forEach((shade, i) => {
    vars[`--sw-primary-shade-${i + 1}`] = shade;
  });
  return vars;
}
