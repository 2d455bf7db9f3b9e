/**
 * How each kept model drifts inside itself (not the bench, records nothing): reads what `WALK_BENCH_DETAIL=dir` kept
 * of a walk-length bench run and, for each mapped model and for each joined cluster, fits the best 2D similarity (seen
 * from above) to the true path over stretches of `--stretch` keyframes in walking order, and prints how the stretches'
 * scale and heading differ from the whole model's fit. A model whose stretches differ in scale drifts in scale (which
 * neither a shift nor a turn of the keyframes takes up); in heading, it turns as it goes.
 *
 *   npx tsx bench/model-drift.ts --walk .data/walk-cache/<walk> --detail /work/detail [--stretch 40] [--merge '{…}']
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_MERGE_OPTIONS, mergeRigModels, sightingsOf, type RigModel, type ViewRef } from '../workers/src/video/rig-merge.js';
import { DEFAULT_RELAX_OPTIONS } from '../workers/src/video/walk-relax.js';
import { applySimilarity, type Mat3, type Vec2, type Vec3 } from '../workers/src/video/linear-algebra.js';
import { fitSimilarity2D } from '../workers/src/video/similarity-fit.js';
import { topDownFrame, toTopDown, upFromRotations } from '../workers/src/video/projection.js';

const { values: f } = parseArgs({ options: { walk: { type: 'string' }, detail: { type: 'string' }, stretch: { type: 'string', default: '40' }, merge: { type: 'string', default: '{}' } } });
const detail = path.resolve(f.detail!);
const kept = JSON.parse(fs.readFileSync(path.join(detail, 'models.json'), 'utf8')) as { models: RigModel[]; refs: [string, ViewRef][] };
const models = kept.models.map((m) => ({ ...m, points: [] }));
const refs = new Map(kept.refs);
const manifest = JSON.parse(fs.readFileSync(path.join(detail, 'manifest.json'), 'utf8')) as { keyframes: { index: number; frame: number }[] };
const frameOf = new Map(manifest.keyframes.map((k) => [k.index, k.frame]));
const truth = JSON.parse(fs.readFileSync(path.join(path.resolve(f.walk!), 'walk.path.json'), 'utf8')) as { frames: { x: number; y: number; level?: number | 'stairs' }[] };
const stretch = Number(f.stretch);
const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** Scale ratio and heading (degrees) of each stretch against the whole's fit; the whole's mean residual. */
function drift(places: Map<number, { centre: Vec3; rotation: Mat3 }>) {
  const ks = [...places.keys()].sort((a, b) => a - b).filter((k) => typeof truth.frames[frameOf.get(k)!].level !== 'string');
  const up = upFromRotations(ks.map((k) => places.get(k)!.rotation));
  const frame = topDownFrame(up);
  const mirrored = (flip: boolean) => ks.map((k): Vec2 => {
    const [x, y] = toTopDown(frame, places.get(k)!.centre);
    return flip ? [x, -y] : [x, y];
  });
  const real = ks.map((k): Vec2 => [truth.frames[frameOf.get(k)!].x, truth.frames[frameOf.get(k)!].y]);
  const fitOf = (src: Vec2[], dst: Vec2[]) => {
    const s = fitSimilarity2D(src, dst);
    const res = src.map((p, i) => {
      const [x, y] = applySimilarity(s, p);
      return Math.hypot(x - dst[i][0], y - dst[i][1]);
    });
    return { s, mean: res.reduce((a, b) => a + b, 0) / res.length };
  };
  const [a, b] = [fitOf(mirrored(false), real), fitOf(mirrored(true), real)];
  const flip = b.mean < a.mean;
  const placed = mirrored(flip);
  const whole = flip ? b : a;
  const scales: number[] = [];
  const headings: number[] = [];
  for (let i = 0; i + stretch <= ks.length; i += Math.max(1, stretch >> 1)) {
    const src = placed.slice(i, i + stretch);
    const dst = real.slice(i, i + stretch);
    // A stretch standing nearly still tells no scale.
    const extent = Math.hypot(...[0, 1].map((ax) => Math.max(...dst.map((p) => p[ax])) - Math.min(...dst.map((p) => p[ax]))));
    if (extent < 2) continue;
    const local = fitOf(src, dst).s;
    scales.push(local.scale / whole.s.scale);
    headings.push(((((local.rotation - whole.s.rotation) * 180) / Math.PI + 540) % 360) - 180);
  }
  return { keyframes: ks.length, whole: whole.mean, scales, headings };
}

const line = (name: string, d: ReturnType<typeof drift>) =>
  d.scales.length
    ? `${name}: ${d.keyframes} kf, whole-fit mean ${d.whole.toFixed(3)} m; stretch scale ×${pct(d.scales, 0.05).toFixed(3)}…×${pct(d.scales, 0.5).toFixed(3)}…×${pct(d.scales, 0.95).toFixed(3)} (range ${((Math.max(...d.scales) / Math.min(...d.scales) - 1) * 100).toFixed(1)} %); heading ${pct(d.headings, 0.05).toFixed(2)}°…${pct(d.headings, 0.95).toFixed(2)}°`
    : `${name}: ${d.keyframes} kf, too short`;

for (const [i, m] of models.entries()) {
  if (m.bridge) continue;
  const own = sightingsOf(m, refs);
  if (own.size < stretch * 2) continue;
  console.log(line(`model ${i} (${m.source})`, drift(own)));
}
const windows = new Set(models.filter((m) => !m.bridge).map((m) => /^s(\d+)/.exec(m.source ?? '')?.[1] ?? '0')).size;
const override = JSON.parse(f.merge!) as { relax?: Record<string, unknown> | null };
const relax = windows > 1 ? (override.relax === null ? null : { ...DEFAULT_RELAX_OPTIONS, ...override.relax }) : null;
const joined = mergeRigModels(models, refs, { ...DEFAULT_MERGE_OPTIONS, ...override, relax });
for (const [i, c] of joined.entries()) {
  if (c.poses.length < stretch * 2) continue;
  const levels = [...new Set(c.poses.map((p) => truth.frames[frameOf.get(p.keyframe)!].level))].filter((l) => typeof l === 'number');
  for (const level of levels.length ? levels : [undefined]) {
    const on = c.poses.filter((p) => truth.frames[frameOf.get(p.keyframe)!].level === level);
    console.log(line(`cluster ${i}${level === undefined ? '' : ` floor ${level}`}`, drift(new Map(on.map((p) => [p.keyframe, p])))));
  }
}
