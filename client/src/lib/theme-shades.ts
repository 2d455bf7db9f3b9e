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

/** The CSS custom properties the stylesheet reads (see styles/app.css). */
export function themeVariables(color: string, dark: boolean): Record<string, string> {
  const rgb = parseHex(color) ?? (parseHex(SETTINGS_DEFAULTS.theme_color) as Rgb);
  const hex = toHex(rgb);
  const vars: Record<string, string> = {
    '--sw-primary': hex,
    '--sw-primary-rgb': rgb.join(', '),
    // Bootstrap's own primary follows the setting, so links and focus rings match.
    '--bs-primary': hex,
    '--bs-primary-rgb': rgb.join(', '),
    '--bs-link-color': hex,
    '--bs-link-color-rgb': rgb.join(', '),
  };
  themeShades(hex, dark).forEach((shade, i) => {
    vars[`--sw-primary-shade-${i + 1}`] = shade;
  });
  return vars;
}
