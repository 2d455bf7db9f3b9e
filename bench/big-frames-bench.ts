/**
 * A consumer 360 camera's 5.7K frames (issue 21, Deliver 4): the generated
 * 1-minute walk (bench/walk-cache.ts, seed 2) brought to 5760 × 2880 at
 * 60 Mbit/s without B-frames, as such cameras record (ffmpeg, cached beside
 * the walk), its keyframes chosen and written by processVideo twice in one
 * run — as before (every decoded frame passed on in full, rooms at the
 * video's width) and with today's defaults (rooms at most 3840 wide, about
 * ten frames a second passed on in full) — then, with the defaults, the
 * whole walk reconstructed and its rooms placed with the start and the end
 * pinned (bench/video-walk-run.ts), against the same walk at 1920 × 960.
 *
 *   npx tsx bench/big-frames-bench.ts [--no-record]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { processVideo } from '../workers/src/video/process.js';
import { cachedWalk, type CachedWalk } from './walk-cache.js';
import { runWalk } from './video-walk-run.js';
import { cpuSeconds, loadAverage, machine } from './machine.js';
import { appendResults, runDate } from './results.js';

const { values: flags } = parseArgs({ options: { 'no-record': { type: 'boolean', default: false } } });

const walk = await cachedWalk({ seconds: 60, seed: 2 });
const big: CachedWalk = { ...walk, dir: `${walk.dir}-5760`, video: path.join(`${walk.dir}-5760`, 'walk.mp4'), generatedIn: 'reused' };
if (!fs.existsSync(big.video)) {
  const tmp = `${big.dir}.part-${process.pid}`;
  fs.mkdirSync(tmp, { recursive: true });
  for (const f of ['walk.path.json', 'walk.plan.json', 'walk.plan.png']) fs.copyFileSync(path.join(walk.dir, f), path.join(tmp, f));
  console.log('Bringing the walk to 5760 × 2880 (a few minutes) …');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', walk.video, '-vf', 'scale=5760:2880:flags=bicubic', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '60M', '-maxrate', '60M', '-bufsize', '60M', '-g', '30', '-bf', '0', path.join(tmp, 'walk.mp4')]);
  fs.rmSync(big.dir, { recursive: true, force: true });
  fs.renameSync(tmp, big.dir);
}

interface KeyframeRun { label: string; wallS: number; cpuS: number; keyframes: number; roomWidth: number }
async function keyframesOnly(label: string, opts: Record<string, unknown>): Promise<KeyframeRun> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sitewalk-big-frames-'));
  try {
    const c0 = cpuSeconds();
    const t0 = performance.now();
    const m = await processVideo(big.video, work, undefined, opts);
    const wallS = (performance.now() - t0) / 1000;
    const roomWidth = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=width', '-of', 'csv=p=0', path.join(work, m.keyframes[0].room)], { encoding: 'utf8' }).trim());
    return { label, wallS, cpuS: cpuSeconds() - c0, keyframes: m.keyframes.length, roomWidth };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const before = loadAverage();
const old = await keyframesOnly('as before: every frame in full, rooms at the video\'s width', { roomWidth: Infinity, fullFramesAllUpTo: Infinity });
const now = await keyframesOnly('defaults: rooms ≤ 3840 wide, about ten frames a second in full', {});
console.log(old, now);
const runs: { label: string; run: Awaited<ReturnType<typeof runWalk>> }[] = [];
for (const [label, w] of [['5760 × 2880', big], ['1920 × 960 (the same walk)', walk]] as const) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sitewalk-big-frames-'));
  try {
    runs.push({ label, run: await runWalk(w, work) });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
const after = loadAverage();
const kfRow = (r: KeyframeRun) => `| ${r.label} | ${r.wallS.toFixed(1)} s (${(r.wallS / 60).toFixed(2)}× the walk) | ${r.cpuS.toFixed(0)} CPU-s | ${r.keyframes} | ${r.roomWidth} px |`;
const walkRow = ({ label, run }: (typeof runs)[number]): string =>
  `| ${label} | ${(run.ms.total / 1000).toFixed(0)} s (${(run.ms.total / 60000).toFixed(2)}×; keyframes ${(run.ms.process / 1000).toFixed(0)} s) | ${run.cpuSeconds.toFixed(0)} CPU-s | ${(run.peakRssBytes / 2 ** 20).toFixed(0)} MB | ${run.placed}/${run.keyframes} | ${run.placement ? `${run.placement.meanM.toFixed(3)} / ${run.placement.p95M.toFixed(3)} m` : '—'} |`;
const section = [
  `## 5.7K frames (bench/big-frames-bench.ts), ${runDate()}`,
  '',
  `Machine: ${machine()}; load ${before} → ${after}. The generated 1-minute walk (seed 2) brought to 5760 × 2880, H.264 at 60 Mbit/s, no B-frames (every frame decoded), 30 fps.`,
  '',
  '| Keyframes of the 5.7K walk | Wall | CPU | Keyframes | Room width |',
  '| --- | ---: | ---: | ---: | ---: |',
  kfRow(old),
  kfRow(now),
  '',
  `Keyframes step: ${(old.wallS / now.wallS).toFixed(2)}× faster, ${(old.cpuS / now.cpuS).toFixed(2)}× less CPU with the defaults.`,
  '',
  '| Whole walk, defaults (upload accepted → rooms proposed) | Wall | CPU | Peak RSS | Placed | Placement, start and end pinned: mean / 95th percentile |',
  '| --- | ---: | ---: | ---: | ---: | --- |',
  ...runs.map(walkRow),
].join('\n');
console.log(`\n${section}`);
if (!flags['no-record']) appendResults(section);
