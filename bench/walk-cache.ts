/**
 * Generated walks for the benches, made once and reused: a walk's folder is
 * named after its length, size, seed and a hash of the generator's sources
 * (a changed generator makes a new one). Generating a minute of 1920 × 960
 * video takes minutes on 2 cores, so benches share these folders.
 *
 *   npx tsx bench/walk-cache.ts --seconds 60 [--seed 1]   (makes one ahead of a bench)
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateWalk } from '../test/fixtures/walk-video/generate.js';

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
  const { seconds, seed = 1, width = 1920, fps = 30 } = spec;
  const dir = path.join(walkCacheDir(), `walk-${seconds}s-${width}-seed${seed}-${generatorHash()}`);
  const video = path.join(dir, 'walk.mp4');
  const pathJson = path.join(dir, 'walk.path.json');
  if (fs.existsSync(video) && fs.existsSync(pathJson)) return { dir, video, pathJson, generatedIn: 'reused' };
  // Made beside the final folder and renamed in: a generation stopped half-way is never taken for a walk.
  const tmp = `${dir}.part-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const g = await generateWalk({ kind: '360', seconds, width, height: width / 2, fps, seed, outDir: tmp });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  return { dir, video, pathJson, generatedIn: `generated in ${(g.ms / 1000).toFixed(0)} s` };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, seed: { type: 'string' } } });
  const w = await cachedWalk({ seconds: Number(values.seconds ?? 60), seed: Number(values.seed ?? 1) });
  console.log(`${w.dir}: ${w.generatedIn}`);
}
