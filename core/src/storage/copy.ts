import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import type { StorageDriver, StoredObject } from './driver.js';
import { isSafeKey } from './keys.js';

export interface CopyProgress {
  total: number;
  copied: number;
  /** Already at the destination with the same size and checksum. */
  skipped: number;
  failed: { key: string; reason: string }[];
  bytes: number;
}

export interface CopyOptions {
  /** Only keys under this folder ('' for all). */
  folder?: string;
  /**
   * A JSON-lines file of keys already copied and verified (key, size, sha256):
   * a run that stops is resumed from it without reading those files again.
   */
  manifest?: string;
  concurrency?: number;
  onFile?: (key: string, outcome: 'copied' | 'skipped' | 'failed', p: CopyProgress) => void;
}

async function sha256(stream: Readable): Promise<string> {
  const h = crypto.createHash('sha256');
  for await (const c of stream) h.update(c as Buffer);
  return h.digest('hex');
}

/**
 * Copies every stored file from one driver to another (disk → S3 or back),
 * each verified by its size and SHA-256 read back from the destination.
 * Idempotent: a file already there with the same size and checksum is left
 * as it is; resumable: verified keys go to the manifest as they finish. The
 * source is never changed, so both keep working while it runs.
 */
export async function copyStorage(from: StorageDriver, to: StorageDriver, opts: CopyOptions = {}): Promise<CopyProgress> {
  const done = opts.manifest ? await readManifest(opts.manifest) : new Map<string, { size: number; sha256: string }>();
  const out = opts.manifest ? fs.createWriteStream(opts.manifest, { flags: 'a' }) : null;
  const p: CopyProgress = { total: 0, copied: 0, skipped: 0, failed: [], bytes: 0 };
  const queue: StoredObject[] = [];
  for await (const o of from.list(opts.folder ?? '')) {
    // Transient files (tools' staging folders, half-written temp files) are not copied.
    if (!isSafeKey(o.key) || o.key.split('/').some((part) => part.startsWith('.'))) continue;
    queue.push(o);
  }
  p.total = queue.length;
  const one = async (o: StoredObject) => {
    try {
      const known = done.get(o.key);
      const there = await to.size(o.key);
      if (known && known.size === o.size && there === o.size) return finish(o.key, 'skipped');
      if (there === o.size) {
        const [a, b] = await Promise.all([from.readStream(o.key).then(sha256), to.readStream(o.key).then(sha256)]);
        if (a === b) {
          record(o.key, o.size, a);
          return finish(o.key, 'skipped');
        }
      }
      // Hashed on the way, then read back from the destination and compared.
      const hash = crypto.createHash('sha256');
      // Hashes what passes without reading ahead of the destination (no 'data' listener: that would drain it).
      const tee = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          hash.update(chunk);
          cb(null, chunk);
        },
      });
      const source = await from.readStream(o.key);
      source.on('error', (err) => tee.destroy(err));
      await to.putStream(o.key, source.pipe(tee));
      const sent = hash.digest('hex');
      const size = await to.size(o.key);
      if (size !== o.size) throw new Error(`size at the destination is ${size ?? 'nothing'}, not ${o.size} bytes`);
      const back = await sha256(await to.readStream(o.key));
      if (back !== sent) throw new Error('the checksum read back differs from the one sent');
      record(o.key, o.size, sent);
      p.bytes += o.size;
      finish(o.key, 'copied');
    } catch (err) {
      p.failed.push({ key: o.key, reason: (err as Error).message ?? String(err) });
      opts.onFile?.(o.key, 'failed', p);
    }
  };
  const record = (key: string, size: number, sum: string) => out?.write(`${JSON.stringify({ key, size, sha256: sum })}\n`);
  const finish = (key: string, outcome: 'copied' | 'skipped') => {
    p[outcome]++;
    opts.onFile?.(key, outcome, p);
  };
  let next = 0;
  const lane = async () => {
    while (next < queue.length) await one(queue[next++]!);
  };
  try {
    await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 4, queue.length) }, lane));
  } finally {
    if (out) await new Promise<void>((resolve) => out.end(resolve));
  }
  return p;
}

async function readManifest(file: string): Promise<Map<string, { size: number; sha256: string }>> {
  const map = new Map<string, { size: number; sha256: string }>();
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const text = await fsp.readFile(file, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    try {
      const r = JSON.parse(line) as { key: string; size: number; sha256: string };
      if (r.key) map.set(r.key, r);
    } catch {
      // A line cut short by a crash: that file is checked again.
    }
  }
  return map;
}
