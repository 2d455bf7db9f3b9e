/**
 * Fast loop for joining a walk's models (not the bench, records nothing):
 * reads the models a reconstruction kept (`reconstruct(work, _, { keepModels })`,
 * e.g. through bench/video-experiment.ts --reconstruct '{"keepModels":"/tmp/m.json"}'),
 * joins them with rig-merge.ts as it stands and prints, for the largest
 * cluster, the keyframes it holds and the error of its shape seen from above
 * (the best 2D similarity to the true path over every keyframe), overall
 * and by tenths of the walk. A try of the merge costs seconds instead of a
 * reconstruction.
 *
 *   npx tsx bench/merge-experiment.ts --models /tmp/m.json --work /tmp/w1200 --walk .data/walk-cache/walk-1200s-… [--merge '{"minShared":5}'] [--refine '{"rounds":30}']
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_MERGE_OPTIONS, DEFAULT_REFINE_OPTIONS, alignSightings, mergeRigModels, sightingsOf, type RigModel, type ViewRef } from '../workers/src/video/rig-merge.js';
import type { Vec2 } from '../workers/src/video/linear-algebra.js';
import { topDownFrame, toTopDown, upFromRotations } from '../workers/src/video/projection.js';
import { shapeErrors } from './shape-error.js';

const { values: f } = parseArgs({ options: { models: { type: 'string' }, work: { type: 'string' }, walk: { type: 'string' }, merge: { type: 'string', default: '{}' }, refine: { type: 'string', default: '{}' }, explain: { type: 'boolean', default: false } } });
const kept = JSON.parse(fs.readFileSync(f.models!, 'utf8')) as { models: RigModel[]; refs: [string, ViewRef][] };
const manifest = JSON.parse(fs.readFileSync(path.join(f.work!, 'manifest.json'), 'utf8')) as { keyframes: { index: number; frame: number }[] };
const truth = JSON.parse(fs.readFileSync(path.join(f.walk!, 'walk.path.json'), 'utf8')) as { frames: { x: number; y: number; level?: number | 'stairs' }[] };
const frameOf = new Map(manifest.keyframes.map((k) => [k.index, k.frame]));

if (f.explain) {
  // Each model (a window's view direction, or a piece of it): its keyframes and direction; then every pair of models
  // sharing keyframes, and whether the merge's fit takes them together.
  const refs = new Map(kept.refs);
  const own = kept.models.map((m) => sightingsOf(m, refs));
  own.forEach((s, i) => {
    const ks = [...s.keys()].sort((a, b) => a - b);
    console.log(`model ${i}${kept.models[i].source ? ` (${kept.models[i].source})` : ''}: ${ks.length} keyframes ${ks[0]}–${ks[ks.length - 1]}`);
  });
  const opts = { ...DEFAULT_MERGE_OPTIONS, ...JSON.parse(f.merge!) };
  for (let i = 0; i < own.length; i++) {
    for (let j = i + 1; j < own.length; j++) {
      const shared = [...own[i].keys()].filter((k) => own[j].has(k));
      if (!shared.length) continue;
      const fit = alignSightings(own[j], own[i], opts);
      console.log(`  ${i} ~ ${j}: ${shared.length} shared (${Math.min(...shared)}–${Math.max(...shared)}) → ${fit ? `joined by ${fit.shared.length}, scale ${fit.scale.toFixed(3)}` : 'not joined'}`);
    }
  }
}

const t0 = performance.now();
const clusters = mergeRigModels(kept.models, new Map(kept.refs), { ...DEFAULT_MERGE_OPTIONS, ...JSON.parse(f.merge!) }, { ...DEFAULT_REFINE_OPTIONS, ...JSON.parse(f.refine!) });
const ms = performance.now() - t0;
const main = clusters[0];
const up = upFromRotations(main.poses.map((p) => p.rotation));
const frame = topDownFrame(up);
const placed = main.poses.map((p) => toTopDown(frame, p.centre));
const real = main.poses.map((p): Vec2 => {
  const t = truth.frames[frameOf.get(p.keyframe)!];
  return [t.x, t.y];
});
// Seen from above the model may be mirrored against the plan's axes: the better of the two fits.
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const a = shapeErrors(placed, real);
const b = shapeErrors(placed.map(([x, y]): Vec2 => [x, -y]), real);
const errors = mean(a) <= mean(b) ? a : b;
const tenths = Array.from({ length: 10 }, (_, k) => mean(errors.slice(Math.floor((k * errors.length) / 10), Math.floor(((k + 1) * errors.length) / 10))).toFixed(2)).join(' ');
console.log(
  `${kept.models.length} models → ${clusters.length} clusters (${clusters.map((c) => c.poses.length).join(', ')} keyframes) in ${ms.toFixed(0)} ms; ` +
    `largest: ${main.poses.length} of ${manifest.keyframes.length} keyframes, shape error mean ${mean(errors).toFixed(3)} m, max ${Math.max(...errors).toFixed(3)} m; by tenths: ${tenths}`,
);
// A walk over several storeys: each floor's shape on its own (as the bench lays each floor on its own sheet).
const levels = [...new Set(main.poses.map((p) => truth.frames[frameOf.get(p.keyframe)!].level).filter((l): l is number => typeof l === 'number'))].sort();
if (levels.length > 1) {
  const byFloor = levels.map((level) => {
    const on = main.poses.map((p, i) => i).filter((i) => truth.frames[frameOf.get(main.poses[i].keyframe)!].level === level);
    const pl = on.map((i) => placed[i]);
    const re = on.map((i) => real[i]);
    const e = Math.min(mean(shapeErrors(pl, re)), mean(shapeErrors(pl.map(([x, y]): Vec2 => [x, -y]), re)));
    return `floor ${level} (${on.length}): ${e.toFixed(3)} m`;
  });
  console.log(`Shape error by floor: ${byFloor.join(', ')}`);
}
