/**
 * Cost per minute of walk: generated 360 walks of 1 and 5 minutes (20 with
 * --minutes 1,5,20 when the machine allows; test/fixtures/walk-video, the
 * same rooms walked round and round, 1920 × 960, 30 fps) through the real
 * pipeline the workers chain after an upload is accepted — keyframes,
 * COLMAP, rooms proposed on the sheet (bench/video-walk-run.ts) — and a
 * table: walk length, time from upload accepted to rooms proposed, its
 * ratio to the walk's duration, CPU seconds per minute of walk, peak RSS of
 * the process and its tools, and the cost per minute relative to the
 * 1-minute walk (target: within 1.3×). Each run also saves its progress
 * reports for the remaining-time harness (bench/record-video-progress.ts).
 *
 * Walks are generated once into .data/walk-cache (bench/walk-cache.ts; a
 * minute of walk takes about 13 minutes to render on 2 busy cores) and not
 * timed. Each length's row is kept in .data/walk-length-bench/rows.json, so
 * lengths can be run one at a time on a shared machine; the table takes the
 * newest row of each length.
 *
 * --hard runs the hard walk of each length instead (bench/walk-cache.ts hardWalk: a third of the texture, noise,
 * blur, rolling shutter, light swings, people crossing, stops and a turn round at a dead end); its rows are
 * compared with the hard 1-minute walk.
 *
 *   npx tsx bench/walk-length-bench.ts [--minutes 1,5] [--hard] [--no-record]   (--minutes 0: only the table of the rows kept)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { cachedWalk } from './walk-cache.js';
import { runWalk, saveRecording } from './video-walk-run.js';
import { loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags } = parseArgs({ options: { minutes: { type: 'string', default: '1,5' }, 'no-record': { type: 'boolean', default: false }, seed: { type: 'string', default: '1' }, hard: { type: 'boolean', default: false }, building: { type: 'boolean', default: false } } });
const ROWS = path.join(ROOT, '.data/walk-length-bench/rows.json');

interface Row {
  seconds: number;
  /** The hard walk (bench/walk-cache.ts hardWalk): plain walls, noise, blur, light swings, people, stops, a turn round. */
  hard?: boolean;
  /** The two-storey site with stairs (--building; test/fixtures/walk-video building layout). */
  building?: boolean;
  /** Its floor segments, keyframes laid on the wrong floor, keyframes kept apart as stairs. */
  floors?: { segments: string; wrongFloor: number; stairs: number };
  date: string;
  load: { before: string; after: string };
  keyframes: number;
  placed: number;
  rooms: number;
  placement?: { meanM: number; p95M: number; shapeM?: number };
  unsure?: number;
  silent?: number;
  withSuggested?: { meanM: number; p95M: number; unsure: number; silent: number };
  submaps?: number;
  wallS: number;
  processS: number;
  plyS: number;
  cpuS: number;
  peakRssMb: number;
  phases: string;
}

const readRows = (): Row[] => (fs.existsSync(ROWS) ? (JSON.parse(fs.readFileSync(ROWS, 'utf8')) as Row[]) : []);

function table(rows: Row[]): string {
  const key = (r: Row) => `${r.building ? 'building ' : ''}${r.hard ? 'hard' : 'textured'} ${r.seconds}`;
  const newest = new Map<string, Row>();
  for (const r of rows) newest.set(key(r), r);
  const sorted = [...newest.values()].sort((a, b) => Number(!!a.building) - Number(!!b.building) || Number(!!a.hard) - Number(!!b.hard) || a.seconds - b.seconds);
  const perMin = (r: Row) => r.wallS / (r.seconds / 60);
  const cpuPerMin = (r: Row) => r.cpuS / (r.seconds / 60);
  const lines = sorted.map((r) => {
    // The building is compared with the one-storey minute of the same texture (it has no walk of a minute of its own).
    const one = newest.get(key({ ...r, building: false, seconds: 60 }));
    const floors = r.floors ? ` (segments: ${r.floors.segments}; ${r.floors.wrongFloor} keyframes on the wrong floor, ${r.floors.stairs} kept apart as stairs)` : r.building ? ' (not split into floors)' : '';
    return `| ${+(r.seconds / 60).toFixed(2)} min${r.building ? ', two-storey building with stairs' : ''}${r.hard ? ', hard' : ''}${floors} | ${r.keyframes} (${r.placed} placed, ${r.rooms} rooms proposed) | ${r.wallS.toFixed(0)} s (keyframes ${r.processS.toFixed(0)} s, COLMAP ${r.plyS.toFixed(0)} s) | ${(r.wallS / r.seconds).toFixed(2)}× | ${cpuPerMin(r).toFixed(0)} CPU-s | ${r.peakRssMb.toFixed(0)} MB | ${r.placement ? `${r.placement.meanM.toFixed(2)} / ${r.placement.p95M.toFixed(2)} m${r.placement.shapeM !== undefined ? ` (shape ${r.placement.shapeM.toFixed(2)} m)` : ''}, ${r.unsure ?? 0} unsure${r.silent !== undefined ? `, ${r.silent} off > 0.3 m in silence` : ''}` : '—'} | ${r.withSuggested ? `${r.withSuggested.meanM.toFixed(2)} / ${r.withSuggested.p95M.toFixed(2)} m, ${r.withSuggested.unsure} unsure, ${r.withSuggested.silent} in silence` : '—'} | ${r.submaps ?? '—'} | ${one ? `${(perMin(r) / perMin(one)).toFixed(2)}× wall, ${(cpuPerMin(r) / cpuPerMin(one)).toFixed(2)}× CPU` : '—'} | ${r.load.before} → ${r.load.after} (${r.date}) | ${r.phases} |`;
  });
  return [
    '| Walk | Keyframes | Upload accepted → rooms proposed | × walk | CPU per minute of walk | Peak RSS (process + tools) | Placement, start and end pinned: mean / 95th percentile (shape: the mean after the best fit over every room, the pins left out), rooms flagged unsure, rooms off by more than the 0.3 m threshold not flagged | With the suggested third control point: mean / 95th percentile, unsure, in silence | Windows mapped (submaps) | Cost per minute vs the 1-minute walk (of the same kind; for the building, the one-storey minute) | Load average before → after (1, 5, 15 min) | Stages (wall) |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- | --- | ---: | --- | --- | --- |',
    ...lines,
  ].join('\n');
}

const seed = Number(flags.seed);
for (const minutes of flags.minutes!.split(',').map(Number).filter((m) => m > 0)) {
  const seconds = Math.round(minutes * 60);
  const walk = await cachedWalk({ seconds, seed, hard: flags.hard, building: flags.building });
  console.log(`${minutes} min walk: ${walk.generatedIn}; running the pipeline …`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sitewalk-walk-length-'));
  const before = loadAverage();
  try {
    const run = await runWalk(walk, work);
    const after = loadAverage();
    saveRecording(run, { seconds, seed }, { cores: os.cpus().length, recorded: runDate(), load: { before, after } });
    const row: Row = {
      seconds,
      ...(flags.hard ? { hard: true } : {}),
      ...(flags.building ? { building: true, floors: run.floors } : {}),
      date: runDate(),
      load: { before, after },
      keyframes: run.keyframes,
      placed: run.placed,
      rooms: run.rooms,
      placement: run.placement,
      unsure: run.unsure,
      silent: run.silent,
      withSuggested: run.withSuggested,
      submaps: run.submaps,
      wallS: run.ms.total / 1000,
      processS: run.ms.process / 1000,
      plyS: run.ms['generate-ply'] / 1000,
      cpuS: run.cpuSeconds,
      peakRssMb: run.peakRssBytes / 2 ** 20,
      phases: Object.entries(run.timings).map(([k, v]) => `${k} ${v.toFixed(0)} s`).join(', '),
    };
    fs.mkdirSync(path.dirname(ROWS), { recursive: true });
    fs.writeFileSync(ROWS, JSON.stringify([...readRows(), row], null, 1));
    console.log(table([row]));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
const all = table(readRows());
console.log(`\n${all}`);
if (!flags['no-record']) {
  appendResults(
    [
      `## Cost per minute of walk (bench/walk-length-bench.ts), ${runDate()}`,
      '',
      `Machine: ${machine()}; COLMAP on the CPU. The machine is shared with other engineers' builds and tests: the load average beside each row says how busy it was, and wall times under a load of several times the cores measure the queue as much as the code — the CPU seconds per minute of walk are the steadier figure.`,
      `Method: generated 360 walks (test/fixtures/walk-video, seed ${seed}, 1920 × 960, 30 fps, H.264; the six rooms walked round and round, so a longer walk passes the same places again; the hard rows: bench/walk-cache.ts hardWalk) run through processVideo, reconstruct and projectCluster as the workers chain them after an upload is accepted (start and end of the walk as the two control points); peak RSS is the sum over this process and the tools it runs, sampled every 250 ms. Placement: each proposed room's distance to where the walk truly was (rows before 2026-11-29 17:00 UTC did not measure it); in silence: rooms further off than the 0.3 m threshold that the projection did not flag unsure (rows before 2026-11-29 20:00 UTC did not count them); the suggested third control point: the keyframe the projection asks for, given at its true place, and the walk projected again, as a user answering the request would; windows: how many overlapping windows of the walk were mapped on their own (submaps.ts; before 2026-11-29 17:00 UTC one, not noted).`,
      '',
      all,
    ].join('\n'),
  );
}
