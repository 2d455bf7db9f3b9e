import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { StorageDriver, StoredObject } from './driver.js';

/** Files under one folder of the local disk: the default, what `make start` uses. */
export function localDriver(root: string): StorageDriver {
  const full = (key: string) => path.join(root, key);
  const prepare = async (key: string) => {
    const p = full(key);
    await fsp.mkdir(path.dirname(p), { recursive: true });
    // Written beside the final name and renamed: a reader never sees half a file.
    return { p, tmp: `${p}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp` };
  };
  return {
    kind: 'local',
    async putBuffer(key, data) {
      const { p, tmp } = await prepare(key);
      await fsp.writeFile(tmp, data);
      await fsp.rename(tmp, p);
    },
    async putStream(key, stream) {
      const { p, tmp } = await prepare(key);
      try {
        await pipeline(stream, fs.createWriteStream(tmp));
        await fsp.rename(tmp, p);
      } finally {
        await fsp.rm(tmp, { force: true });
      }
    },
    async moveFile(key, sourcePath) {
      const { p } = await prepare(key);
      try {
        await fsp.rename(sourcePath, p);
      } catch {
        await fsp.copyFile(sourcePath, p);
        await fsp.rm(sourcePath, { force: true });
      }
    },
    async size(key) {
      return fsp.stat(full(key)).then((s) => (s.isFile() ? s.size : null), () => null);
    },
    async readStream(key) {
      // Opened before returning, so a missing file fails here and not mid-pipe.
      const handle = await fsp.open(full(key), 'r');
      return handle.createReadStream();
    },
    async remove(keyOrFolder) {
      await fsp.rm(full(keyOrFolder), { recursive: true, force: true });
    },
    list(folder) {
      return walk(root, folder);
    },
    localPath: full,
    async directUrl() {
      return null;
    },
  };
}

async function* walk(root: string, folder: string): AsyncIterable<StoredObject> {
  const base = path.join(root, folder);
  const dirs = [base];
  while (dirs.length) {
    const dir = dirs.pop()!;
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) dirs.push(p);
      else if (e.isFile() && !e.name.endsWith('.tmp')) yield { key: path.relative(root, p).split(path.sep).join('/'), size: (await fsp.stat(p)).size };
    }
  }
}
