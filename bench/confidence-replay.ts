/**
 * Lays bench runs' clusters on their sheets again with today's projection and certainty, without running the pipeline
 * again: reads what `WALK_BENCH_DETAIL=dir` kept of a walk-length bench run (each sheet's cluster path and points, and
 * the rooms as that run judged them), and judges each sheet as the walk-length bench does — rooms off, flagged unsure,
 * off in silence — then again after each control point the projection asks for, given where the walk truly was.
 *
 *   npx tsx bench/confidence-replay.ts --run .data/walk-cache/<walk>=/tmp/detail [--run …] [--options '{"driftM":0.08}']
 *     [--suggestions 3] [--record]
 *
 * --suggestions n: the control points asked for given one after another, as a user answering each request would.
 * --record: appends the table to bench/RESULTS.md.
 * WALK_BENCH_SILENT=1: prints each room off in silence after a point asked for, with the error the certainty took.
 * WALK_BENCH_BEND='false' (or a JSON of wall-bend.ts options): lays the walk without its bend onto the walls (or with
 * those options), to compare.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { judgeOnSheet } from './video-walk-run.js';
import { machine } from './machine.js';
import { appendResults, runDate } from './results.js';
import type { PathPose } from '../workers/src/video/reconstruct.js';

const { values } = parseArgs({
  options: { run: { type: 'string', multiple: true }, options: { type: 'string' }, suggestions: { type: 'string', default: '1' }, record: { type: 'boolean', default: false } },
});
if (!values.run?.length) throw new Error('--run walkDir=detailDir is needed');
const confidence = values.options ? JSON.parse(values.options) : undefined;
const suggestions = Number(values.suggestions);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const rows: string[] = [];

for (const run of values.run) {
  const [walkDir, detail] = run.split('=').map((p) => path.resolve(p));
  const walk = { dir: walkDir, video: path.join(walkDir, 'walk.mp4'), pathJson: path.join(walkDir, 'walk.path.json'), generatedIn: 'reused' };
  const truth = JSON.parse(fs.readFileSync(walk.pathJson, 'utf8')) as { frames: { x: number; y: number }[] };
  for (const file of fs.readdirSync(detail).filter((f) => f.endsWith('.path.json')).sort()) {
    const stem = file.slice(0, -'.path.json'.length);
    const [, planName, id] = /^(.*)-(\d+)$/.exec(stem)!;
    const kept = JSON.parse(fs.readFileSync(path.join(detail, `${stem}.json`), 'utf8')) as {
      loops: { a: number; b: number }[];
      confidence: { thresholdM: number } | null;
      rooms: { off: number; unsure: boolean }[];
    };
    const clusterPath = JSON.parse(fs.readFileSync(path.join(detail, file), 'utf8')) as PathPose[];
    const judged = await judgeOnSheet(walk, { id: Number(id), plyPath: path.join(detail, `${stem}.ply`), path: clusterPath }, planName, truth.frames, kept.loops, confidence, suggestions);
    const threshold = kept.confidence?.thresholdM ?? 0.3;
    const before = `${kept.rooms.filter((r) => r.unsure).length} unsure, ${kept.rooms.filter((r) => r.off > threshold && !r.unsure).length} in silence`;
    const more = (judged.rounds ?? []).map((r, i) => `+${i + 1}: ${mean(r.off).toFixed(2)} m, ${r.unsure} unsure, ${r.silent} in silence`).join('; ');
    console.log(`${path.basename(walkDir)} ${stem}: ${judged.rooms} rooms, mean ${mean(judged.off).toFixed(3)} m, shape ${mean(judged.shape).toFixed(3)} m; as run: ${before}; now: ${judged.unsure} unsure, ${judged.silent} in silence; ${more}`);
    rows.push(`| ${path.basename(walkDir)} | ${planName} | ${judged.rooms} | ${mean(judged.off).toFixed(2)} m (shape ${mean(judged.shape).toFixed(2)} m) | ${before} | ${judged.unsure} unsure, ${judged.silent} in silence | ${more || '—'} |`);
  }
}

if (values.record) {
  appendResults(`## Placement certainty replayed on kept runs (bench/confidence-replay.ts), ${runDate()}

Machine: ${machine()}.
Method: the clusters a walk-length bench run kept (WALK_BENCH_DETAIL) laid on their sheets again by projectCluster with today's certainty${values.options ? ` (options ${values.options})` : ''}, the reconstruction unchanged; the start and end pinned where the walk truly was (or the start and the room furthest from it), as the bench pins them. "As run": the certainty the bench run itself had. Then the control point the projection asks for, given at its true place, ${suggestions} time${suggestions === 1 ? '' : 's'} in a row (+1, +2, …: mean error, unsure, in silence). In silence: rooms off by more than the 0.3 m threshold that are not flagged.

| Walk | Sheet | Rooms | Placement: mean (shape) | As run | Today's certainty | With the control points asked for |
| --- | --- | ---: | --- | --- | --- | --- |
${rows.join('\n')}
`);
}
