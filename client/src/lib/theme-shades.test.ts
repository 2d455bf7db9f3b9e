import { describe, expect, it } from 'vitest';
import { parseHex, themeShades, themeVariables, toHex } from './theme-shades';

const lightness = (hex: string) => (parseHex(hex) as number[]).reduce((a, b) => a + b, 0);

describe('theme shades', () => {
  it('parses and prints colours', () => {
    expect(parseHex('#2987f2')).toEqual([41, 135, 242]);
    expect(parseHex('#fff')).toEqual([255, 255, 255]);
    expect(parseHex('blue')).toBeNull();
    expect(toHex([41, 135, 242])).toBe('#2987f2');
  });

  it('makes four shades, each 10 % lighter than the last in light mode', () => {
    const shades = themeShades('#2987f2', false);
    expect(shades).toHaveLength(4);
    // 10 % of the way to white: 41 + (255 - 41) * 0.1 = 62.4 → 3e
    expect(shades[0]).toBe('#3e93f3');
    expect(shades[3]).toBe('#7fb7f7');
    for (let i = 1; i < 4; i++) expect(lightness(shades[i])).toBeGreaterThan(lightness(shades[i - 1]));
  });

  it('makes them darker in dark mode', () => {
    const shades = themeShades('#2987f2', true);
    // 10 % of the way to black: 41 → 36.9 (25), 135 → 121.5 (7a), 242 → 217.8 (da)
    expect(shades[0]).toBe('#257ada');
    expect(shades[3]).toBe('#195191');
    for (let i = 1; i < 4; i++) expect(lightness(shades[i])).toBeLessThan(lightness(shades[i - 1]));
  });

  it('falls back to the default theme colour for an invalid setting', () => {
    expect(themeShades('not a colour', false)).toEqual(themeShades('#2987f2', false));
  });

  it('exposes the colour and its shades as CSS variables', () => {
    const vars = themeVariables('#ff0000', false);
    expect(vars['--sw-primary']).toBe('#ff0000');
    expect(vars['--sw-primary-rgb']).toBe('255, 0, 0');
    expect(vars['--bs-primary']).toBe('#ff0000');
    expect(vars['--sw-primary-shade-1']).toBe('#ff1a1a');
    expect(vars['--sw-primary-shade-4']).toBe('#ff6666');
  });
});
