import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { bidiIsolatingFormatter, isolateInSentence } from '@sitewalk/proto';
import { isolate, joinIsolated } from './bidi';

const FSI = '\u2068';
const PDI = '\u2069';

describe('mixed-direction text', () => {
  it('wraps a value in first-strong and pop isolates', () => {
    expect(isolate('A-105')).toBe(`${FSI}A-105${PDI}`);
    expect(isolate(28)).toBe(`${FSI}28${PDI}`);
  });

  it('joins only the parts that are there, each isolated', () => {
    expect(joinIsolated(['Amman, Jordan', null, '', false, '28/11/2026'])).toBe(`${FSI}Amman, Jordan${PDI} · ${FSI}28/11/2026${PDI}`);
    expect(joinIsolated([])).toBe('');
  });
});

describe('a value inserted into a sentence', () => {
  it('is isolated in a right-to-left sentence, whatever it holds', () => {
    expect(isolateInSentence('Roof plan', 'rtl')).toBe(`${FSI}Roof plan${PDI}`);
    expect(isolateInSentence('28/11/2026', 'rtl')).toBe(`${FSI}28/11/2026${PDI}`);
    expect(isolateInSentence(3, 'rtl')).toBe(`${FSI}3${PDI}`);
  });

  it('is isolated in a left-to-right sentence only when it could reorder it', () => {
    expect(isolateInSentence('Roof plan', 'ltr')).toBe('Roof plan');
    expect(isolateInSentence(3, 'ltr')).toBe(3);
    expect(isolateInSentence('برج العبدلي', 'ltr')).toBe(`${FSI}برج العبدلي${PDI}`);
    // A direction override typed into a name stays inside the name.
    expect(isolateInSentence('x\u202Eabc', 'ltr')).toBe(`${FSI}x\u202Eabc${PDI}`);
  });

  it('is not isolated twice, and a block of lines or a non-text value is left as it is', () => {
    expect(isolateInSentence(isolate('A-105'), 'rtl')).toBe(`${FSI}A-105${PDI}`);
    expect(isolateInSentence('• a\n• b', 'rtl')).toBe('• a\n• b');
    const element = { type: 'b' };
    expect(isolateInSentence(element, 'rtl')).toBe(element);
    expect(isolateInSentence('', 'rtl')).toBe('');
  });
});

describe('translated texts with inserted values (the app i18next setup)', () => {
  async function translator(lng: string) {
    const inst = i18next.createInstance().use(bidiIsolatingFormatter);
    await inst.init({
      lng,
      fallbackLng: false,
      resources: {
        en: { translation: {} },
        ar: { translation: { '{name} ({code}) on {site}': '{name} ({code}) على {site}', '{count} rooms_few': '{count} غرف' } },
      },
      keySeparator: false,
      nsSeparator: false,
      showSupportNotice: false,
      interpolation: { escapeValue: false, alwaysFormat: true, prefix: '{', suffix: '}', defaultVariables: { site: 'Abdali Works' } },
    });
    return inst.t.bind(inst);
  }

  it('isolates every value of an Arabic text, the site name and counts too, and keeps plural forms', async () => {
    const t = await translator('ar');
    expect(t('{name} ({code}) on {site}', { name: 'Roof plan', code: 'A-105' })).toBe(`${FSI}Roof plan${PDI} (${FSI}A-105${PDI}) على ${FSI}Abdali Works${PDI}`);
    expect(t('{count} rooms', { count: 3 })).toBe(`${FSI}3${PDI} غرف`);
  });

  it('leaves an English text of English values untouched', async () => {
    const t = await translator('en');
    expect(t('{name} ({code}) on {site}', { name: 'Roof plan', code: 'A-105' })).toBe('Roof plan (A-105) on Abdali Works');
  });
});
