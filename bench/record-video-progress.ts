/**
 * The remaining-time harness of the video steps. Records every progress
 * report of a real run of the pipeline (processVideo, reconstruct) on a
 * generated walk, with the run's stage timings, into
 * bench/video-progress-<seconds>s-seed<seed>.json; then replays every
 * recording in bench/ through the remaining-time estimate
 * (core/src/video-eta.ts) as the worker computes it, and says at 10 … 90 %
 * of each step's time what it predicted against the time that really was
 * left (target: within ±25 %). Three models side by side:
 *   - rate and percent (no profile; the estimate before profiles),
 *   - profile of constants (video-eta-profile.ts, no finished runs),
 *   - profile learned from the other recordings' stage timings (as the
 *     worker learns from the runs finished before; a recording never
 *     learns from itself).
 *
 *   npx tsx bench/record-video-progress.ts --seconds 30 [--seed 3]   (record one run, then evaluate)
 *   npx tsx bench/record-video-progress.ts [--record]                 (evaluate the recordings; --record appends to RESULTS.md)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { estimateRemaining, trimSamples, type EtaSample } from '../core/src/video-eta.js';
import { learnProfile, type StepProfile } from '../core/src/video-eta-profile.js';
import { loadAverage, machine } from './machine.js';
import { runWalk, saveRecording, type ProgressRecording, type RecordedStep } from './video-walk-run.js';
import { appendResults, runDate } from './results.js';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({ options: { seconds: { type: 'string' }, seed: { type: 'string' }, record: { type: 'boolean', default: false } } });

type Step = RecordedStep;
type Recording = ProgressRecording;

/** Fractions of a step's time the estimate is judged at. */
const AT = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/**
 * What the estimate said at each fraction of the step's time against what
 * was left (relative error; null before it says anything), fed the reports
 * one by one and trimmed as the worker does.
 */
export function replaySteps(samples: EtaSample[], totalMs: number, profile?: StepProfile): (number | null)[] {
  let kept: EtaSample[] = [];
  const said: { t: number; s: number | null }[] = [];
  for (const s of samples) {
    kept = trimSamples([...kept, s]);
    said.push({ t: s.t, s: estimateRemaining(kept, { profile }).remaining_seconds });
  }
  return AT.map((frac) => {
    const at = totalMs * frac;
    const last = [...said].reverse().find((x) => x.t <= at);
    if (!last || last.s === null) return null;
    // The worker's stepper counts down from the last report: what it shows at `at`.
    const shown = Math.max(0, last.s - (at - last.t) / 1000);
    const truth = (totalMs - at) / 1000;
    return (shown - truth) / truth;
  });
}

const pct = (e: number | null) => (e === null ? '—' : `${e >= 0 ? '+' : ''}${Math.round(e * 100)} %`);
const worst = (errs: (number | null)[], from: number) => {
  const xs = errs.slice(from).filter((e): e is number => e !== null);
  return xs.length ? Math.max(...xs.map(Math.abs)) : null;
};

function evaluate(files: string[]): string {
  const recs = files.map((f) => ({ file: path.basename(f), rec: JSON.parse(fs.readFileSync(f, 'utf8')) as Recording }));
  const rows: string[] = [];
  const worstOf: Record<string, number[]> = { none: [], constants: [], learned: [] };
  for (const { file, rec } of recs) {
    for (const step of ['process', 'generate-ply'] as Step[]) {
      const samples = rec.steps[step];
      const total = rec.duration_ms[step];
      if (!samples?.length || !total) continue;
      const others = recs.filter((o) => o.file !== file && o.rec.timings).map((o) => ({ timings: o.rec.timings!, walkSeconds: o.rec.walk_seconds }));
      const learned = learnProfile(step, others, rec.walk_seconds);
      const models: [string, string, StepProfile | undefined][] = [
        ['none', 'rate and percent (before)', undefined],
        ['constants', 'profile of constants', learnProfile(step, [], rec.walk_seconds)],
        ['learned', `profile learned from ${learned.learnedFrom} other run(s)`, learned],
      ];
      for (const [key, label, profile] of models) {
        if (key === 'learned' && !profile!.learnedFrom) continue;
        const errs = replaySteps(samples, total, profile);
        const w = worst(errs, 1);
        if (w !== null) worstOf[key].push(w);
        rows.push(`| ${file} (${rec.walk_seconds} s walk, load ${rec.load?.before ?? 'not noted'}) | ${step} ${(total / 1000).toFixed(0)} s | ${label} | ${errs.map(pct).join(' | ')} | ${w === null ? '—' : `${Math.round(w * 100)} %`} |`);
      }
    }
  }
  const summary = Object.entries(worstOf)
    .filter(([, w]) => w.length)
    .map(([k, w]) => `${k}: worst ${Math.round(Math.max(...w) * 100)} %, median of the steps' worst ${Math.round([...w].sort((a, b) => a - b)[w.length >> 1] * 100)} %`)
    .join('; ');
  return [
    `| Recording | Step (took) | Model | ${AT.map((a) => `${a * 100} %`).join(' | ')} | worst from 20 % |`,
    `| --- | --- | --- | ${AT.map(() => '---:').join(' | ')} | ---: |`,
    ...rows,
    '',
    `Worst error from 20 % of a step's time on, over the steps: ${summary}.`,
  ].join('\n');
}

async function recordRun(seconds: number, seed: number): Promise<void> {
  const { cachedWalk } = await import('./walk-cache.js');
  const walk = await cachedWalk({ seconds, seed });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitewalk-progress-'));
  const before = loadAverage();
  try {
    const run = await runWalk(walk, dir);
    const out = saveRecording(run, { seconds, seed }, { cores: os.cpus().length, recorded: runDate(), load: { before, after: loadAverage() } });
    console.log(`wrote ${path.relative(process.cwd(), out)}: process ${(run.ms.process / 1000).toFixed(1)} s, generate-ply ${(run.ms['generate-ply'] / 1000).toFixed(1)} s (walk ${walk.generatedIn})`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (flags.seconds) await recordRun(Number(flags.seconds), Number(flags.seed ?? 1));
const files = fs.readdirSync(BENCH).filter((f) => /^video-progress-.*\.json$/.test(f)).sort().map((f) => path.join(BENCH, f));
const table = evaluate(files);
console.log(table);
if (flags.record) {
  appendResults(
    [
      `## Remaining time of the video steps (bench/record-video-progress.ts), ${runDate()}`,
      '',
      `Machine: ${machine()}; load average now ${loadAverage()} (each recording notes the load it ran under: the machine is shared with other engineers' builds and tests, and a load that changes mid-step is what the estimate cannot foresee).`,
      `Method: every progress report of real runs of processVideo and reconstruct on generated walks (test/fixtures/walk-video), replayed through core/src/video-eta.ts as the worker feeds it (samples trimmed the same way); at each fraction of the step's time, what the stepper showed (the last estimate counted down) against the time that was really left, as a relative error. "Learned" takes each segment's share of the step's time from the other recordings' stage timings (as the worker does from the runs finished before), never from the run judged.`,
      '',
      table,
    ].join('\n'),
  );
}
