/**
 * Lays a bench run's clusters on their sheets again with today's projection and certainty, without running the
 * pipeline again: reads what `WALK_BENCH_DETAIL=dir` kept (each sheet's cluster path and points), and judges each
 * sheet as the walk-length bench does — rooms off, flagged unsure, off in silence.
 *
 *   npx tsx bench/confidence-replay.ts --walk .data/walk-cache/<walk> --detail /tmp/detail [--options '{"driftM":0.08}'] [--suggestions 3]
 *
 * --suggestions n: the control points asked for given one after another, as a user answering each request would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { judgeOnSheet } from './video-walk-run.js';
import type { PathPose } from '../workers/src/video/reconstruct.js';

const { values } = parseArgs({ options: { walk: { type: 'string' }, detail: { type: 'string' }, options: { type: 'string' }, suggestions: { type: 'string', default: '1' } } });
if (!values.walk || !values.detail) throw new Error('--walk and --detail are needed');
const walkDir = path.resolve(values.walk);
const detail = path.resolve(values.detail);
const walk = { dir: walkDir, video: path.join(walkDir, 'walk.mp4'), pathJson: path.join(walkDir, 'walk.path.json'), generatedIn: 'reused' };
const truth = JSON.parse(fs.readFileSync(walk.pathJson, 'utf8')) as { frames: { x: number; y: number }[] };
const confidence = values.options ? JSON.parse(values.options) : undefined;

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
let rooms = 0, unsure = 0, silent = 0;
const offs: number[] = [];
for (const file of fs.readdirSync(detail).filter((f) => f.endsWith('.path.json')).sort()) {
  const stem = file.slice(0, -'.path.json'.length);
  const [, planName, id] = /^(.*)-(\d+)$/.exec(stem)!;
  const kept = JSON.parse(fs.readFileSync(path.join(detail, `${stem}.json`), 'utf8')) as { loops: { a: number; b: number }[] };
  const clusterPath = JSON.parse(fs.readFileSync(path.join(detail, file), 'utf8')) as PathPose[];
  const judged = await judgeOnSheet(walk, { id: Number(id), plyPath: path.join(detail, `${stem}.ply`), path: clusterPath }, planName, truth.frames, kept.loops, confidence, Number(values.suggestions));
  rooms += judged.rooms; unsure += judged.unsure; silent += judged.silent; offs.push(...judged.off);
  console.log(`${stem}: ${judged.rooms} rooms, mean ${mean(judged.off).toFixed(3)} m, shape ${mean(judged.shape).toFixed(3)} m, ${judged.unsure} unsure, ${judged.silent} off in silence` +
    (judged.rounds ?? []).map((r, i) => `; +${i + 1} point${i ? 's' : ''}: ${mean(r.off).toFixed(3)} m, ${r.unsure} unsure, ${r.silent} silent`).join(''));
}
console.log(`all: ${rooms} rooms, mean ${mean(offs).toFixed(3)} m, ${unsure} unsure, ${silent} off in silence`);
