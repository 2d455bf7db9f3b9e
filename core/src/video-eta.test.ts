import { describe, expect, it } from 'vitest';
import { estimateRemaining, trimSamples, windowRate, type EtaSample } from './video-eta.js';

/** A phase that counts `total` units at `perSecond`, reported every `everyMs`, over span [from, to] of the step. */
function phase(name: string, unit: 'views' | 'images', total: number, perSecond: number, span: [number, number], t0: number, everyMs = 500): EtaSample[] {
  const out: EtaSample[] = [];
  const ms = (total / perSecond) * 1000;
  for (let t = 0; t <= ms; t += everyMs) {
    const done = Math.min(total, (t / 1000) * perSecond);
    out.push({ t: t0 + t, percent: span[0] + ((span[1] - span[0]) * done) / total, measure: { phase: name, unit, done, total, span } });
  }
  return out;
}

describe('remaining time of a video step', () => {
  it('says nothing before a rate is measured', () => {
    expect(estimateRemaining([]).remaining_seconds).toBeNull();
    const one = phase('features', 'views', 100, 10, [0, 100], 0).slice(0, 2);
    expect(estimateRemaining(one)).toMatchObject({ phase: 'features', unit: 'views', per_second: null, remaining_seconds: null });
  });

  it('measures units a second over the last samples and the time left of a steady phase', () => {
    const samples = phase('features', 'views', 200, 8, [0, 100], 0);
    const half = samples.slice(0, Math.floor(samples.length / 2));
    const e = estimateRemaining(half);
    expect(e.per_second).toBeCloseTo(8, 5);
    // 100 views left at 8 a second.
    expect(e.remaining_seconds).toBeCloseTo((200 - half[half.length - 1].measure!.done) / 8, 3);
  });

  it('follows a phase that slows down (the window forgets the fast start)', () => {
    const fast = phase('mapping', 'images', 100, 20, [0, 100], 0).filter((s) => s.measure!.done <= 50);
    const t1 = fast[fast.length - 1].t;
    const slow = Array.from({ length: 30 }, (_, i) => {
      const done = 50 + (i + 1) * 0.5; // 1 image a second, reported every 500 ms
      return { t: t1 + (i + 1) * 500, percent: done, measure: { phase: 'mapping', unit: 'images' as const, done, total: 100, span: [0, 100] as [number, number] } };
    });
    const e = estimateRemaining([...fast, ...slow]);
    expect(e.per_second).toBeCloseTo(1, 1);
    expect(e.remaining_seconds).toBeCloseTo(35, 0);
  });

  it('adds the phases still to come at the pace the step kept so far', () => {
    // Features: 0–30 % of the step in 30 s; then matching starts.
    const features = phase('features', 'views', 60, 2, [0, 30], 0);
    const t1 = features[features.length - 1].t;
    const matching = phase('matching', 'views', 20, 2, [30, 50], t1).slice(1, 11);
    const e = estimateRemaining([...features, ...matching]);
    const last = matching[matching.length - 1];
    const pace = last.t / 1000 / last.percent;
    expect(e.remaining_seconds).toBeCloseTo((20 - last.measure!.done) / 2 + 50 * pace, 3);
  });

  it('uses the percent itself when a step reports no units', () => {
    const samples: EtaSample[] = Array.from({ length: 20 }, (_, i) => ({ t: i * 1000, percent: i * 2 }));
    const e = estimateRemaining(samples);
    expect(e).toMatchObject({ phase: null, unit: 'percent' });
    expect(e.per_second).toBeCloseTo(2, 5);
    expect(e.remaining_seconds).toBeCloseTo((100 - 38) / 2, 5);
  });

  it('keeps the samples of a long step bounded', () => {
    const many = phase('features', 'views', 10_000, 10, [0, 100], 0, 100);
    expect(trimSamples(many).length).toBeLessThan(200);
    expect(windowRate([{ t: 0, v: 0 }, { t: 500, v: 3 }])).toBeNull();
  });
});
