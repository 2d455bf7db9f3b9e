/**
 * Generated walks for the benches, made once and reused: a walk's folder is
 * named after its length, size, seed and a hash of the generator's sources
 * (a changed generator makes a new one). Generating a minute of 1920 × 960
 * video takes minutes on 2 cores, so benches share these folders.
 *
 *   npx tsx bench/walk-cache.ts --seconds 60 [--seed 1] [--hard] [--building]   (makes one ahead of a bench; --building: the
 *   two-storey site with stairs, whose whole route is --seconds 735)
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateWalk, type WalkOptions } from '../test/fixtures/walk-video/generate.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = path.join(ROOT, 'test/fixtures/walk-video');

export interface CachedWalk {
  dir: string;
  video: string;
  pathJson: string;
  /** 'reused' or how long the generation took. */
  generatedIn: string;
}

export interface WalkSpec {
  seconds: number;
  seed?: number;
  width?: number;
  fps?: number;
  /** The walk as real capture makes it (hardWalk): plainer walls, noise, blur, light swings, people, stops, a turn round. */
  hard?: boolean;
  /** The two-storey site with stairs (test/fixtures/walk-video building layout) instead of the one-storey loop. */
  building?: boolean;
}

/**
 * A hard walk of `seconds`: the rooms at a third of their texture (bare concrete, white drywall), sensor noise, motion
 * blur, rolling shutter, the light swinging by ±30 %, someone crossing the view every 25 s, a bobbing, tilting
 * handheld camera, two stops standing still (at 15 % and 70 % of the walk), and a turn round on the spot at a dead
 * end two-fifths of the way, after which the walk goes back through the rooms it passed.
 */
export function hardWalk(seconds: number): Pick<WalkOptions, 'variant' | 'conditions'> {
  const stops = [0.15, 0.7].map((f) => ({ at: Math.round(f * seconds), seconds: 3 }));
  return {
    variant: { stops, turnAround: { at: Math.round(0.4 * seconds), seconds: 3 }, bob: 0.02, tiltDeg: 4 },
    conditions: { textureContrast: 0.35, noise: 5, blurPx: 3, rollingShutterMs: 20, exposure: 0.3, exposurePeriod: 20, peopleEvery: 25 },
  };
}

/** The folder benches keep their generated walks in. */
export const walkCacheDir = () => path.resolve(ROOT, process.env.WALK_CACHE_DIR ?? '.data/walk-cache');

function generatorHash(): string {
  const hash = createHash('sha1');
  for (const f of fs.readdirSync(FIXTURE).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts')).sort()) hash.update(fs.readFileSync(path.join(FIXTURE, f)));
  return hash.digest('hex').slice(0, 8);
}

/** The walk of `spec`, generated into the cache when it is not there yet. */
export async function cachedWalk(spec: WalkSpec): Promise<CachedWalk> {
  const { seconds, seed = 1, width = 1920, fps = 30, hard = false, building = false } = spec;
  const dir = path.join(walkCacheDir(), `walk-${seconds}s-${width}-seed${seed}${building ? '-building' : ''}${hard ? '-hard' : ''}-${generatorHash()}`);
  const video = path.join(dir, 'walk.mp4');
  const pathJson = path.join(dir, 'walk.path.json');
  if (fs.existsSync(video) && fs.existsSync(pathJson)) return { dir, video, pathJson, generatedIn: 'reused' };
  // Made beside the final folder and renamed in: a generation stopped half-way is never taken for a walk.
  const tmp = `${dir}.part-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const g = await generateWalk({ kind: '360', seconds, width, height: width / 2, fps, seed, outDir: tmp, ...(building ? { layout: 'building' as const } : {}), ...(hard ? hardWalk(seconds) : {}) });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  return { dir, video, pathJson, generatedIn: `generated in ${(g.ms / 1000).toFixed(0)} s` };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, seed: { type: 'string' }, hard: { type: 'boolean', default: false }, building: { type: 'boolean', default: false } } });
  const w = await cachedWalk({ seconds: Number(values.seconds ?? 60), seed: Number(values.seed ?? 1), hard: values.hard, building: values.building });
  console.log(`${w.dir}: ${w.generatedIn}`);
}
