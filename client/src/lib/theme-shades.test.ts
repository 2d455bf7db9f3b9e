import { describe, expect, it } from 'vitest';
import { contrastRatio, parseHex, themeShades, themeTextColours, themeVariables, toHex } from './theme-shades';

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

describe('text colours derived from the theme colour', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#2987f2', '#ffffff')).toBeCloseTo(3.59, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('keeps the default blue, a little darker, under white text, and darkens its links until they pass', () => {
    const light = themeTextColours('#2987f2', false);
    expect(light.onSolid).toBe('#ffffff');
    expect(contrastRatio(light.solid, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(light.solid, '#2987f2')).toBeLessThan(1.5); // still the same blue to the eye
    expect(contrastRatio(light.text, '#e9ecef')).toBeGreaterThanOrEqual(4.5);
    const dark = themeTextColours('#2987f2', true);
    expect(contrastRatio(dark.text, '#212529')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(dark.text, '#343a40')).toBeGreaterThanOrEqual(4.5);
  });

  it('puts black text on a light theme colour instead of turning it brown', () => {
    expect(themeTextColours('#ffd600', false).onSolid).toBe('#000000');
    expect(themeTextColours('#ffd600', false).solid).toBe('#ffd600');
  });

  it('gives at least 4.5:1 for every theme colour an administrator can pick, in both modes', () => {
    const colours: string[] = [];
    for (let r = 0; r <= 255; r += 51) for (let g = 0; g <= 255; g += 51) for (let b = 0; b <= 255; b += 51) colours.push(toHex([r, g, b]));
    colours.push('#2987f2', '#ff0000', '#00ff00', '#777777', '#808080', '#1e90ff', '#ffa500');
    const backgrounds = { light: ['#ffffff', '#f8f9fa', '#e9ecef'], dark: ['#212529', '#2b3035', '#343a40'] };
    const failures: string[] = [];
    for (const colour of colours) {
      for (const dark of [false, true]) {
        const c = themeTextColours(colour, dark);
        const vars = themeVariables(colour, dark);
        if (contrastRatio(c.text, c.subtle) < 4.5) failures.push(`${colour} ${dark}: text ${c.text} on subtle ${c.subtle}`);
        if (contrastRatio(c.onSolid, c.solid) < 4.5) failures.push(`${colour} ${dark}: on solid ${c.onSolid}/${c.solid}`);
        if (contrastRatio(c.onSolid, c.solidEnd) < 4.5) failures.push(`${colour} ${dark}: on gradient end ${c.onSolid}/${c.solidEnd}`);
        for (const bg of backgrounds[dark ? 'dark' : 'light'])
          if (contrastRatio(c.text, bg) < 4.5) failures.push(`${colour} ${dark}: text ${c.text} on ${bg}`);
        if (vars['--bs-link-color'] !== c.text || vars['--sw-on-primary'] !== c.onSolid) failures.push(`${colour}: variables do not carry the colours`);
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
