import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { placeholders, requiredKeys } from './translation-keys';

const here = path.dirname(fileURLToPath(import.meta.url));
const srcDir = path.resolve(here, '..');
const translationsDir = path.resolve(here, '../../../proto/translations');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.test.ts') ? [fs.readFileSync(p, 'utf8')] : [];
  });
}

const load = (lang: string) => JSON.parse(fs.readFileSync(path.join(translationsDir, `${lang}.json`), 'utf8')) as Record<string, unknown>;

describe('translations', () => {
  const keys = [...requiredKeys(sources(srcDir))];
  const en = load('en');
  const ar = load('ar');

  it('finds the texts the client shows', () => {
    expect(keys).toContain('Ready to Leave?');
    expect(keys).toContain('Select "Logout" below if you are ready to end your current session.');
    expect(keys).toContain('See All Notifications');
    expect(keys).toContain('Dashboard');
  });

  it('has every text in English and in Arabic', () => {
    expect(keys.filter((k) => typeof en[k] !== 'string')).toEqual([]);
    expect(keys.filter((k) => typeof ar[k] !== 'string' || !(ar[k] as string).trim())).toEqual([]);
  });

  it('keeps English as written in the source', () => {
    expect(keys.filter((k) => en[k] !== k)).toEqual([]);
  });

  it('keeps the placeholders of every text in both languages', () => {
    for (const [lang, dict] of [['en', en], ['ar', ar]] as const) {
      // A plural form named for its count ('one person', 'شخصان') may leave a placeholder out; none may add one.
      const fits = (k: string, v: string) =>
        /_(zero|one|two)$/.test(k) ? placeholders(v).every((p) => placeholders(k).includes(p)) : placeholders(v).join() === placeholders(k).join();
      const broken = Object.entries(dict).filter(([k, v]) => typeof v !== 'string' || !fits(k, v));
      expect(broken.map(([k]) => `${lang}: ${k}`)).toEqual([]);
    }
  });

  it('gives every counted text all the plural forms of both languages (Arabic has six)', () => {
    const counted = new Set(Object.keys(ar).filter((k) => /_(zero|one|two|few|many|other)$/.test(k)).map((k) => k.replace(/_[a-z]+$/, '')));
    expect(counted.size).toBeGreaterThan(0);
    for (const base of counted) {
      for (const form of ['zero', 'one', 'two', 'few', 'many', 'other']) expect(typeof ar[`${base}_${form}`], `ar: ${base}_${form}`).toBe('string');
      for (const form of ['one', 'other']) expect(typeof en[`${base}_${form}`], `en: ${base}_${form}`).toBe('string');
    }
  });

  it('writes Arabic in Arabic script', () => {
    const latinOnly = keys.filter((k) => typeof ar[k] === 'string' && !/[\u0600-\u06FF]/.test(ar[k] as string) && /[a-z]{3}/i.test(k));
    expect(latinOnly).toEqual([]);
  });
});
