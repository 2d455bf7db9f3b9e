/**
 * Fast loop for the video pipeline's options (not the bench, records
 * nothing): runs reconstruct (and processVideo first with --process) on a
 * walk the bench generated and prints CPU/wall per stage, keyframes placed,
 * the start-and-end placement error of projectCluster as the bench measures
 * it, the error of the best-fit shape (a 2D similarity over every placed
 * keyframe: the reconstruction's own error, without the two pinned cameras')
 * and the mean error by tenths of the walk. Reusing processed keyframes, one
 * try of COLMAP options costs one reconstruction (about 1–2 min) instead of
 * a bench run. Placement scatters between identical runs: judge over several.
 *
 *   nice -n 19 npx tsx bench/video-experiment.ts --walk .data/video-bench/walk-50s-… --work /tmp/w50 \
 *     [--process '{"views":{"count":3,"hFovDeg":130,"width":520,"height":320}}'] [--reconstruct '{"upright":true}'] [--runs N]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { processVideo } from '../workers/src/video/process.js';
import { reconstruct } from '../workers/src/video/reconstruct.js';
import { projectCluster } from '../workers/src/video/projection.js';
import { shapeErrors } from './shape-error.js';
import { decodePly } from '../workers/src/video/ply.js';
import sharp from 'sharp';

const { values: f } = parseArgs({
  options: { walk: { type: 'string' }, work: { type: 'string' }, process: { type: 'string' }, reconstruct: { type: 'string' }, runs: { type: 'string', default: '1' } },
});
const walk = f.walk!;
const work = f.work!;
const truth = JSON.parse(fs.readFileSync(path.join(walk, 'walk.path.json'), 'utf8')) as { frames: { x: number; y: number }[] };
const plan = JSON.parse(fs.readFileSync(path.join(walk, 'walk.plan.json'), 'utf8')) as { pxPerMetre: number; origin: { px: number; py: number }; imageWidth: number; imageHeight: number };
const fmt = (o: Record<string, number>) => Object.entries(o).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');

if (f.process !== undefined) {
  fs.rmSync(work, { recursive: true, force: true });
  const m = await processVideo(path.join(walk, 'walk.mp4'), work, undefined, JSON.parse(f.process || '{}'));
  console.log(`process: ${m.keyframes.length} keyframes × ${m.views.count} views; wall ${fmt(m.timings.wall)}; cpu ${fmt(m.timings.cpu)}`);
}
const { data: grey, info } = await sharp(path.join(walk, 'walk.plan.png')).greyscale().raw().toBuffer({ resolveWithObject: true });
const planRaster = { width: info.width, height: info.height, grey: new Uint8Array(grey.buffer, grey.byteOffset, grey.length), scale: 1 };
for (let r = 0; r < Number(f.runs); r++) {
  try {
    const rec = await reconstruct(work, undefined, JSON.parse(f.reconstruct || '{}'));
    const main = [...rec.clusters].sort((a, b) => b.path.length - a.path.length)[0];
    const poses = [...main.path].sort((a, b) => a.frame - b.frame);
    const toSheet = (frame: number): [number, number] => [plan.origin.px + truth.frames[frame].x * plan.pxPerMetre, plan.origin.py - truth.frames[frame].y * plan.pxPerMetre];
    const proj = projectCluster({
      points: decodePly(fs.readFileSync(main.plyPath)).xyz,
      path: poses,
      sheet: { width: plan.imageWidth, height: plan.imageHeight },
      plan: planRaster,
      controls: [
        { keyframe: poses[0].keyframe, sheet: toSheet(poses[0].frame) },
        { keyframe: poses[poses.length - 1].keyframe, sheet: toSheet(poses[poses.length - 1].frame) },
      ],
    });
    const errs = proj.rooms.map((q) => Math.hypot((q.x - plan.origin.px) / plan.pxPerMetre - truth.frames[q.frame].x, (plan.origin.py - q.y) / plan.pxPerMetre - truth.frames[q.frame].y));
    const mean = errs.reduce((a, b) => a + b, 0) / errs.length;
    // The shape alone: the placed positions fitted to the truth by the best 2D similarity over all of them.
    const src = proj.rooms.map((q): [number, number] => [(q.x - plan.origin.px) / plan.pxPerMetre, (plan.origin.py - q.y) / plan.pxPerMetre]);
    const dst = proj.rooms.map((q): [number, number] => [truth.frames[q.frame].x, truth.frames[q.frame].y]);
    const best = shapeErrors(src, dst);
    const tenths = Array.from({ length: 10 }, (_, k) => { const part = errs.slice(Math.floor((k * errs.length) / 10), Math.floor(((k + 1) * errs.length) / 10)); return (part.reduce((a, b) => a + b, 0) / part.length).toFixed(2); }).join(' ');
    console.log(`  best-fit shape error mean ${(best.reduce((a, b) => a + b, 0) / best.length).toFixed(3)}; errors along the walk (tenths): ${tenths}; ends ${errs[0].toFixed(3)} ${errs[errs.length - 1].toFixed(3)}`);
    const cpu = Object.values(rec.timings.cpu).reduce((a, b) => a + b, 0);
    console.log(
      `run ${r}: placed ${main.path.length}/${JSON.parse(fs.readFileSync(path.join(work, 'manifest.json'), 'utf8')).keyframes.length} (${rec.clusters.length} clusters), views ${rec.stats.viewsRegistered}/${rec.stats.viewsTotal}, pairs ${rec.stats.pairs}; ` +
        `placement (${proj.fittedBy}) mean ${mean.toFixed(3)} max ${Math.max(...errs).toFixed(3)}; cpu ${cpu.toFixed(1)} (${fmt(rec.timings.cpu)}); wall ${fmt(rec.timings.wall)}`,
    );
  } catch (err) {
    console.log(`run ${r}: failed: ${(err as Error).message}`);
  }
}
