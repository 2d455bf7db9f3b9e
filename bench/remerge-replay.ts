/**
 * Joins a bench run's kept models again and lays the result on its sheets (not the bench, records nothing): reads what
 * `WALK_BENCH_DETAIL=dir` kept of a walk-length bench run (the mappers' models with their points, the keyframes'
 * manifest, each sheet's loops), joins the models with rig-merge.ts as it stands (or with `--merge` options over it),
 * splits the floors as reconstruct does, and judges each sheet as the walk-length bench does: rooms off, flagged unsure,
 * off in silence, then with the control points the projection asks for. The same COLMAP models for every try, so two
 * ways of joining them are compared without the mapper's run-to-run scatter.
 *
 *   npx tsx bench/remerge-replay.ts --walk .data/walk-cache/<walk> --detail /work/detail [--merge '{"relax":{"turns":false}}']
 *     [--options '{"snapSigmas":0}'] [--suggestions 3] [--record]
 *
 * --record: appends the sheets' lines to bench/RESULTS.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { judgeOnSheet } from './video-walk-run.js';
import { DEFAULT_MERGE_OPTIONS, mergeRigModels, type RigModel, type ViewRef } from '../workers/src/video/rig-merge.js';
import { DEFAULT_RELAX_OPTIONS } from '../workers/src/video/walk-relax.js';
import { DEFAULT_RECONSTRUCT_OPTIONS, clustersByFloor, pathPoseOf } from '../workers/src/video/reconstruct.js';
import type { Vec3 } from '../workers/src/video/linear-algebra.js';
import { writePly } from '../workers/src/video/ply.js';
import { machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const { values: f } = parseArgs({
  options: { walk: { type: 'string' }, detail: { type: 'string' }, merge: { type: 'string', default: '{}' }, options: { type: 'string' }, suggestions: { type: 'string', default: '1' }, record: { type: 'boolean', default: false } },
});
if (!f.walk || !f.detail) throw new Error('--walk and --detail are needed');
const walkDir = path.resolve(f.walk);
const detail = path.resolve(f.detail);
const kept = JSON.parse(fs.readFileSync(path.join(detail, 'models.json'), 'utf8')) as {
  models: (RigModel & { xyz?: number[]; rgb?: number[] })[];
  refs: [string, ViewRef][];
};
if (kept.models.some((m) => !m.xyz)) throw new Error('This run kept its models without their points: run the bench again with WALK_BENCH_DETAIL.');
const models: RigModel[] = kept.models.map((m) => ({
  images: m.images,
  points: Array.from({ length: m.xyz!.length / 3 }, (_, i) => ({ xyz: m.xyz!.slice(i * 3, i * 3 + 3) as Vec3, rgb: m.rgb!.slice(i * 3, i * 3 + 3) as [number, number, number], error: 0, trackLength: 0 })),
  source: m.source,
  bridge: m.bridge,
}));
const manifest = JSON.parse(fs.readFileSync(path.join(detail, 'manifest.json'), 'utf8')) as { keyframes: { index: number; frame: number; time: number }[] };
const byIndex = new Map(manifest.keyframes.map((k) => [k.index, k]));
// Bent as reconstruct bends them: only a walk mapped in several windows (the models' sources start with their window).
const windows = new Set(models.filter((m) => !m.bridge).map((m) => /^s(\d+)/.exec(m.source ?? '')?.[1] ?? '0')).size;
const override = JSON.parse(f.merge!) as { relax?: Record<string, unknown> | null };
const relax = windows > 1 ? (override.relax === null ? null : { ...DEFAULT_RELAX_OPTIONS, ...override.relax }) : null;
const t0 = performance.now();
const joined = mergeRigModels(models, new Map(kept.refs), { ...DEFAULT_MERGE_OPTIONS, ...override, relax });
const clusters = clustersByFloor(joined, false, DEFAULT_RECONSTRUCT_OPTIONS.minClusterFrames);
console.log(`${models.length} models of ${windows} windows joined in ${((performance.now() - t0) / 1000).toFixed(1)} s${relax ? ` (bent: ${JSON.stringify(relax)})` : ''}`);

const truth = JSON.parse(fs.readFileSync(path.join(walkDir, 'walk.path.json'), 'utf8')) as { frames: { x: number; y: number }[] };
const walk = { dir: walkDir, video: path.join(walkDir, 'walk.mp4'), pathJson: path.join(walkDir, 'walk.path.json'), generatedIn: 'reused' };
const levelled = clusters.filter((c) => c.level);
const proposed = levelled.length
  ? levelled.filter((c) => c.level!.kind === 'floor' && c.poses.length >= 2).map((c) => ({ c, plan: `walk.plan-${c.level!.floor}` }))
  : clusters.slice(0, 1).map((c) => ({ c, plan: fs.existsSync(path.join(walkDir, 'walk.plan.json')) ? 'walk.plan' : 'walk.plan-0' }));
// The loops each sheet was judged with in the run (the same for every sheet of a walk).
const sheetFile = fs.readdirSync(detail).find((n) => /-\d+\.json$/.test(n) && !n.endsWith('.path.json'));
const loops = sheetFile ? (JSON.parse(fs.readFileSync(path.join(detail, sheetFile), 'utf8')) as { loops: { a: number; b: number }[] }).loops : [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'remerge-'));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const rows: string[] = [];
const joining = relax ? `bent${relax.turns ? ', turned' : ''}${relax.scales ? ', scaled' : ''}${!relax.turns && !relax.scales ? ', shifted only' : ''}` : 'rigid';
try {
  for (const [id, { c, plan }] of proposed.entries()) {
    const pathPoses = c.poses.map((p) => pathPoseOf(p, byIndex.get(p.keyframe)!));
    const plyPath = path.join(tmp, `cluster-${id}.ply`);
    await writePly(plyPath, { xyz: c.xyz, rgb: c.rgb });
    const judged = await judgeOnSheet(walk, { id, plyPath, path: pathPoses }, plan, truth.frames, loops, f.options ? JSON.parse(f.options) : undefined, Number(f.suggestions));
    const more = (judged.rounds ?? []).map((r, i) => `+${i + 1}: ${mean(r.off).toFixed(2)} m, ${r.unsure} unsure, ${r.silent} in silence`).join('; ');
    console.log(`${plan}: ${judged.rooms} rooms, mean ${mean(judged.off).toFixed(3)} m, shape ${mean(judged.shape).toFixed(3)} m, ${judged.unsure} unsure, ${judged.silent} in silence; ${more}`);
    rows.push(`| ${path.basename(walkDir)} | ${plan} | ${joining} | ${judged.rooms} | ${mean(judged.off).toFixed(3)} m (shape ${mean(judged.shape).toFixed(3)} m) | ${judged.unsure} unsure, ${judged.silent} in silence | ${more || '—'} |`);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

if (f.record) {
  appendResults(`## Kept models joined again (bench/remerge-replay.ts), ${runDate()}

Machine: ${machine()}.
Method: the mappers' models a walk-length bench run kept (WALK_BENCH_DETAIL=${path.basename(detail)}) joined again by mergeRigModels${f.merge !== '{}' ? ` with ${f.merge}` : ''} (rigid: one similarity a model; bent: walk-relax.ts, shifts only, the rotations bent first, or each model's scale curve solved with the places), split into floors and laid on each floor's plan as the bench lays them (start and end pinned where the walk truly was, or the start and the room furthest from it); then the control point the projection asks for, given at its true place, ${f.suggestions} time(s) in a row. Shape: the mean error after the best fit over every room. In silence: rooms off by more than the 0.3 m threshold not flagged unsure.

| Walk | Sheet | Joined | Rooms | Placement: mean (shape) | Certainty | With the control points asked for |
| --- | --- | --- | ---: | --- | --- | --- |
${rows.join('\n')}
`);
}
