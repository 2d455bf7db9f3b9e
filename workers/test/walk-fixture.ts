import fs from 'node:fs';
import { generateWalk, type WalkOptions } from '../../test/fixtures/walk-video/generate.js';

/**
 * A generated walk kept in `dir` between the test files that use it (the same
 * options always give the same pixels, so it is rendered once per data
 * folder). Test files run in parallel: the walk is rendered into a folder of
 * its own and renamed into place whole, so a file never takes a half-written
 * walk of another for a finished one; when two render it at once, the first
 * rename wins and the other's copy is dropped.
 */
export async function cachedWalk(dir: string, opts: Omit<WalkOptions, 'outDir'>): Promise<string> {
  if (fs.existsSync(dir)) return dir;
  const part = `${dir}.part-${process.pid}-${Date.now()}`;
  await generateWalk({ ...opts, outDir: part });
  try {
    fs.renameSync(part, dir);
  } catch (err) {
    fs.rmSync(part, { recursive: true, force: true });
    if (!fs.existsSync(dir)) throw err;
  }
  return dir;
}
