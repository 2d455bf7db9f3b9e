import { describe, expect, it } from 'vitest';
import { learnProfile, PROFILE_RUNS, SIMILAR_RUNS } from './video-eta-profile.js';
import { estimateRemaining, profilePosition, type EtaSample } from './video-eta.js';

const shares = (p: ReturnType<typeof learnProfile>) => p.segments.map((s) => Number(s.share.toFixed(3)));

describe('how a video step divides its time', () => {
  it('stands on constants until a run has finished', () => {
    const p = learnProfile('generate-ply', []);
    expect(p.learnedFrom).toBe(0);
    expect(p.segments.map((s) => s.phase)).toEqual(['features', null, 'matching', 'mapping', null, null]);
    expect(p.segments.reduce((a, s) => a + s.share, 0)).toBeCloseTo(1, 9);
  });

  it('learns each phase share from the stage timings of finished runs, the median, newest runs only', () => {
    const run = (features: number, mapping: number) => ({ 'generate-ply.features': features, 'generate-ply.loops': 0, 'generate-ply.matching': 10, 'generate-ply.mapping': mapping, 'generate-ply.refine': 0, 'generate-ply.export': 0, 'generate-ply': 99 });
    // Three runs where mapping took half the time, one slow outlier, and older runs beyond the limit that say otherwise.
    const runs = [run(5, 15), run(5, 15), run(50, 15), run(5, 15), ...Array.from({ length: PROFILE_RUNS }, () => run(30, 0))].map((timings) => ({ timings }));
    const p = learnProfile('generate-ply', runs);
    expect(p.learnedFrom).toBe(PROFILE_RUNS);
    // Median over the 10 newest: 3 of them mapping-heavy, 1 outlier, 6 old-style → the old style wins the median;
    // with only the newest four, the mapping-heavy shape does.
    const newest = learnProfile('generate-ply', runs.slice(0, 4));
    expect(shares(newest)).toEqual([0.167, 0, 0.333, 0.5, 0, 0]);
    expect(p.segments[3].share).toBeLessThan(0.1);
  });

  it('brings a run of another length to the walk in hand: matching and mapping grow faster than features, the final adjustment slower', () => {
    const oneMinute = { timings: { 'generate-ply.features': 17, 'generate-ply.loops': 3, 'generate-ply.matching': 18, 'generate-ply.mapping': 8, 'generate-ply.refine': 3, 'generate-ply.export': 0 }, walkSeconds: 60 };
    const same = learnProfile('generate-ply', [oneMinute], 60);
    const longer = learnProfile('generate-ply', [oneMinute], 1200);
    // On a 20-minute walk the features' share shrinks and the mapping's grows; the final adjustment, the last
    // window's alone on a walk mapped in windows, shrinks to a fraction of its share.
    expect(longer.segments[0].share).toBeLessThan(same.segments[0].share);
    expect(longer.segments[3].share).toBeGreaterThan(same.segments[3].share);
    expect(longer.segments[4].share).toBeLessThan(same.segments[4].share / 2);
    // Without a length, the run's shares are taken as they are.
    expect(shares(learnProfile('generate-ply', [oneMinute]))).toEqual(shares(same));
  });

  it('learns from runs of a similar length alone once there are enough of them', () => {
    const timings = (mapping: number) => ({ 'generate-ply.features': 20, 'generate-ply.loops': 0, 'generate-ply.matching': 20, 'generate-ply.mapping': mapping, 'generate-ply.refine': 0, 'generate-ply.export': 0 });
    const oneMinute = Array.from({ length: 5 }, () => ({ timings: timings(8), walkSeconds: 60 }));
    const fiveMinutes = Array.from({ length: SIMILAR_RUNS }, () => ({ timings: timings(60), walkSeconds: 300 }));
    const forFive = learnProfile('generate-ply', [...oneMinute, ...fiveMinutes], 310);
    expect(forFive.learnedFrom).toBe(SIMILAR_RUNS);
    expect(shares(forFive)).toEqual(shares(learnProfile('generate-ply', fiveMinutes, 310)));
    // One 5-minute run is not enough: the median of all runs, each brought to the length, is safer.
    expect(learnProfile('generate-ply', [...oneMinute, fiveMinutes[0]], 310).learnedFrom).toBe(6);
    // A 1-minute walk learns from the 1-minute runs; a 20-minute one, with no run near its length, from all of them.
    expect(learnProfile('generate-ply', [...oneMinute, ...fiveMinutes], 60).learnedFrom).toBe(5);
    expect(learnProfile('generate-ply', [...oneMinute, ...fiveMinutes], 1200).learnedFrom).toBe(8);
  });

  it('skips runs that lack a stage (another version of the worker, a failed step)', () => {
    const p = learnProfile('process', [{ timings: { 'process.probe': 1, 'process.decode-and-write': 20 } }, { timings: { 'process.probe': 1, 'process.decode': 8, 'process.write': 1 } }]);
    expect(p.learnedFrom).toBe(1);
    expect(shares(p)).toEqual([0.1, 0.8, 0.1]);
  });
});

/** A step of `phases` (name, units, seconds, span) reported every half second. */
function run(phases: [string, number, number, [number, number]][]): { samples: EtaSample[]; totalMs: number } {
  const samples: EtaSample[] = [];
  let t0 = 0;
  for (const [phase, total, seconds, span] of phases) {
    for (let t = 0; t <= seconds * 1000; t += 500) {
      const done = (total * t) / (seconds * 1000);
      samples.push({ t: t0 + t, percent: span[0] + ((span[1] - span[0]) * done) / total, measure: { phase, unit: 'views', done, total, span } });
    }
    t0 += seconds * 1000;
  }
  return { samples, totalMs: t0 };
}

describe('remaining time with a learned profile', () => {
  // Features 0–30 % of the percent but 10 s; matching 30–50 % but 40 s; mapping 50–95 % but 10 s; export 5 % and 0 s.
  const step = run([['features', 60, 10, [0, 30]], ['matching', 10, 40, [30, 50]], ['mapping', 90, 10, [50, 95]]]);
  const timings = { 'generate-ply.features': 10, 'generate-ply.loops': 0, 'generate-ply.matching': 40, 'generate-ply.mapping': 10, 'generate-ply.refine': 0, 'generate-ply.export': 0 };
  const profile = learnProfile('generate-ply', [{ timings }]);
  const at = (ms: number) => step.samples.filter((s) => s.t <= ms);

  it('says the phases to come take the time they took before, not their share of the percent', () => {
    // Half-way through features (5 s in): 5 s of features, 40 of matching and 10 of mapping are left.
    const e = estimateRemaining(at(5000), { profile });
    expect(e.phase).toBe('features');
    expect(e.remaining_seconds).toBeCloseTo(55, 0);
    // Without the profile the percent spans mislead it: the step would be over in about half the time.
    expect(estimateRemaining(at(5000)).remaining_seconds!).toBeLessThan(30);
  });

  it('stays within a quarter of the truth through the step', () => {
    for (let ms = 5000; ms <= step.totalMs * 0.9; ms += 5000) {
      const said = estimateRemaining(at(ms), { profile }).remaining_seconds!;
      const truth = (step.totalMs - ms) / 1000;
      expect(Math.abs(said - truth) / truth).toBeLessThan(0.25);
    }
  });

  it('counts the final adjustment after the last keyframe is placed, which reports nothing', () => {
    const withTail = learnProfile('generate-ply', [{ timings: { ...timings, 'generate-ply.refine': 10 } }]);
    // At the mapping's last report (60 s in) the 10 s of the mappers' final adjustment are still to come.
    expect(estimateRemaining(step.samples, { profile: withTail }).remaining_seconds).toBeCloseTo(10, 0);
    expect(estimateRemaining(step.samples, { profile }).remaining_seconds).toBeLessThan(1);
  });

  it('counts the loop search as done once it has begun (it reports only its start), not as more time the features took', () => {
    const withLoops = learnProfile('generate-ply', [{ timings: { ...timings, 'generate-ply.loops': 3 } }]);
    // 10 s of features, then the 3 s loop search began (30 %, no units) and has run 2 s: 1 + 40 + 10 s are left.
    const e = estimateRemaining([...at(10000), { t: 12000, percent: 30 }], { profile: withLoops });
    expect(Math.abs(e.remaining_seconds! - 51) / 51).toBeLessThan(0.15);
  });

  it('places a report without units by its percent, and says nothing before a few percent of the time passed', () => {
    expect(profilePosition({ t: 1000, percent: 97.5 }, profile)).toMatchObject({ segment: 5, laterShare: 0 });
    expect(estimateRemaining([{ t: 100, percent: 0 }], { profile }).remaining_seconds).toBeNull();
    expect(estimateRemaining([...step.samples, { t: step.totalMs, percent: 100 }], { profile }).remaining_seconds).toBe(0);
  });
});
