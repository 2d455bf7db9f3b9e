/**
 * Two control points close together, on real reconstructions: what a user gets who pins the walk at a room and at
 * another a few metres on (or clicks the second a little aside), without running the pipeline again. Reads what
 * `WALK_BENCH_DETAIL=dir` kept of a walk-length bench run, pins each kept cluster at a keyframe (its first, and one
 * half-way) and at the first keyframe `lever` metres from it (true places, or the second clicked `aside` metres off),
 * lays it with today's projection and certainty, and then gives the control points it asks for, one after another,
 * at their true places. Each line: rooms' mean and worst error, flagged unsure, off by more than the threshold in
 * silence (and the worst of those).
 *
 *   npx tsx bench/short-lever-replay.ts --run .data/walk-cache/<walk>=/tmp/detail [--run …] [--levers 1,2,4]
 *     [--asides 0,0.3] [--suggestions 3] [--record]
 * WALK_BENCH_BEND='false' (or a JSON of wall-bend.ts options): lays the walk without its bend onto the walls, to compare.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { projectCluster } from '../workers/src/video/projection.js';
import { decodePly } from '../workers/src/video/ply.js';
import type { PathPose } from '../workers/src/video/reconstruct.js';
import type { PlanJson } from '../test/fixtures/walk-video/plan.js';
import { machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const { values } = parseArgs({
  options: {
    run: { type: 'string', multiple: true },
    levers: { type: 'string', default: '1,2,4' },
    asides: { type: 'string', default: '0,0.3' },
    suggestions: { type: 'string', default: '3' },
    record: { type: 'boolean', default: false },
  },
});
if (!values.run?.length) throw new Error('--run walkDir=detailDir is needed');
const levers = values.levers.split(',').map(Number);
const asides = values.asides.split(',').map(Number);
const suggestions = Number(values.suggestions);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const rows: string[] = [];

for (const run of values.run) {
  const [walkDir, detail] = run.split('=').map((p) => path.resolve(p));
  const frames = (JSON.parse(fs.readFileSync(path.join(walkDir, 'walk.path.json'), 'utf8')) as { frames: { x: number; y: number }[] }).frames;
  for (const file of fs.readdirSync(detail).filter((f) => f.endsWith('.path.json')).sort()) {
    const stem = file.slice(0, -'.path.json'.length);
    const [, planName] = /^(.*)-(\d+)$/.exec(stem)!;
    const kept = JSON.parse(fs.readFileSync(path.join(detail, `${stem}.json`), 'utf8')) as { loops: { a: number; b: number }[] };
    const poses = (JSON.parse(fs.readFileSync(path.join(detail, file), 'utf8')) as PathPose[]).sort((a, b) => a.frame - b.frame);
    // Stairs and stray pieces: a user lays those by hand.
    if (poses.length < 50) continue;
    const plan = JSON.parse(fs.readFileSync(path.join(walkDir, `${planName}.json`), 'utf8')) as PlanJson;
    const toSheet = (frame: number): [number, number] => [plan.origin.px + frames[frame].x * plan.pxPerMetre, plan.origin.py - frames[frame].y * plan.pxPerMetre];
    const { data: grey, info } = await sharp(path.join(walkDir, `${planName}.png`)).greyscale().raw().toBuffer({ resolveWithObject: true });
    const sheetPlan = { width: info.width, height: info.height, grey: new Uint8Array(grey.buffer, grey.byteOffset, grey.length), scale: 1 };
    const points = decodePly(fs.readFileSync(path.join(detail, `${stem}.ply`))).xyz;
    const distance = (a: PathPose, b: PathPose) => Math.hypot(frames[a.frame].x - frames[b.frame].x, frames[a.frame].y - frames[b.frame].y);
    for (const from of [0, Math.floor(poses.length / 2)]) {
      const start = poses[from];
      for (const lever of levers) {
        const second = poses.slice(from).find((q) => distance(q, start) >= lever);
        if (!second) continue;
        for (const aside of asides) {
          const controls = [
            { keyframe: start.keyframe, sheet: toSheet(start.frame) },
            { keyframe: second.keyframe, sheet: [toSheet(second.frame)[0], toSheet(second.frame)[1] + aside * plan.pxPerMetre] as [number, number] },
          ];
          const cells: string[] = [];
          for (let round = 0; round <= suggestions; round++) {
            const proj = projectCluster({ plan: sheetPlan, points, path: poses, sheet: { width: plan.imageWidth, height: plan.imageHeight }, loops: kept.loops, controls, ...(process.env.WALK_BENCH_BEND ? { bend: JSON.parse(process.env.WALK_BENCH_BEND) } : {}) });
            const c = proj.confidence!;
            const off = proj.rooms.map((r) => Math.hypot((r.x - plan.origin.px) / plan.pxPerMetre - frames[r.frame].x, (plan.origin.py - r.y) / plan.pxPerMetre - frames[r.frame].y));
            const flagged = new Set(c.unsure);
            const silent = off.filter((e, i) => e > c.thresholdM && !flagged.has(proj.rooms[i].keyframe));
            cells.push(`${mean(off).toFixed(2)} / ${Math.max(...off).toFixed(2)} m, ${flagged.size} unsure, ${silent.length} in silence${silent.length ? ` (worst ${Math.max(...silent).toFixed(2)} m)` : ''}`);
            const asked = c.suggested === null ? undefined : poses.find((p) => p.keyframe === c.suggested);
            if (!asked) break;
            controls.push({ keyframe: asked.keyframe, sheet: toSheet(asked.frame) });
          }
          const label = `${path.basename(walkDir)} | ${stem} (${poses.length}) | ${start.keyframe} and ${second.keyframe}, ${lever} m on${aside ? `, clicked ${aside} m aside` : ''}`;
          console.log(`${label} | ${cells.join(' | ')}`);
          rows.push(`| ${label} | ${cells[0]} | ${cells.slice(1).join('; ') || '—'} |`);
        }
      }
    }
  }
}

if (values.record) {
  appendResults(`## Two control points close together, replayed on kept runs (bench/short-lever-replay.ts), ${runDate()}

Machine: ${machine()}.
Method: the clusters a walk-length bench run kept (WALK_BENCH_DETAIL), each pinned at a keyframe (its first, then one half-way) and at the first keyframe the given distance on (its true place on the sheet, or clicked that far aside, 90° to the sheet's x axis), laid by projectCluster as the projection job lays them (snapped to the plan's walls when that helps); then the control points it asks for, given one after another at their true places (up to ${suggestions}). Each cell: the rooms' mean / worst error, rooms flagged unsure, rooms off by more than the 0.3 m threshold that are not flagged (in silence).

| Walk | Cluster (rooms) | Control points | Two points | Then the points asked for |
| --- | --- | --- | --- | --- |
${rows.join('\n')}
`);
}
