import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import { activeStorage, putStream, remove } from '../storage/index.js';
import { logger } from '../logger.js';

/**
 * With the files in a bucket, a resumable upload's bytes are streamed on to
 * the bucket while they arrive, under the key the video will have: when the
 * last byte of an 8 GB walk is in, only the content check is left, not a
 * second transfer of 8 GB. The upload still grows on this API machine's disk
 * first (the tus file store: the protocol's offsets and the check need it);
 * the mirror follows that file as it grows (it is only ever appended to: tus
 * writes at the offset, which is the file's size). With local-disk storage
 * nothing is mirrored: the finished file is moved into place, a rename.
 *
 * A mirror lives in the process that received the upload's creation. When it
 * cannot finish (the process restarted, the upload went quiet for too long,
 * the bucket refused a part) the upload is stored the ordinary way once it is
 * complete, so a mirror only ever saves time.
 */

const MiB = 1024 * 1024;
const CHUNK = 4 * MiB;
/** How often the growing file is looked at while no bytes are new. */
const POLL_MS = 100;
/** An upload that gets no byte for this long is no longer mirrored (its client may come back tomorrow). */
const idleLimitMs = () => Number(process.env.VIDEO_UPLOAD_MIRROR_IDLE_MS ?? 10 * 60_000);

interface Mirror {
  key: string;
  total: number;
  /** True once every byte is in the bucket under `key`; false when the mirror gave up. */
  done: Promise<boolean>;
  cancel: () => void;
}
const mirrors = new Map<string, Mirror>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The bytes of a file that only grows, read as they arrive, until `total` bytes were read. */
async function* growingFile(filePath: string, total: number, cancelled: () => boolean): AsyncGenerator<Buffer> {
  let handle: fsp.FileHandle | null = null;
  let position = 0;
  let lastGrowth = Date.now();
  try {
    while (position < total) {
      if (cancelled()) throw new Error('upload cancelled');
      handle ??= await fsp.open(filePath, 'r').catch(() => null);
      const size = handle ? (await handle.stat()).size : 0;
      if (size <= position) {
        if (Date.now() - lastGrowth > idleLimitMs()) throw new Error('no new bytes for too long');
        await sleep(POLL_MS);
        continue;
      }
      lastGrowth = Date.now();
      const length = Math.min(CHUNK, size - position);
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle!.read(buffer, 0, length, position);
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle?.close();
  }
}

/**
 * Starts streaming a new upload's file to the bucket under `key` (when the
 * files are in a bucket; otherwise does nothing). Never throws: a mirror
 * that cannot start is a mirror that is not there.
 */
export async function startUploadMirror(id: string, key: string, filePath: string, total: number): Promise<void> {
  if (mirrors.has(id)) return;
  try {
    if ((await activeStorage()).kind !== 's3') return;
  } catch {
    return;
  }
  let cancelled = false;
  const stream = Readable.from(growingFile(filePath, total, () => cancelled), { objectMode: false, highWaterMark: CHUNK });
  const done = putStream(key, stream).then(
    () => true,
    async (err: Error) => {
      if (!cancelled) logger.warn({ upload_id: id, err: err.message }, 'video upload not mirrored to the bucket; it is stored once complete');
      await remove(key).catch(() => undefined);
      return false;
    },
  );
  mirrors.set(id, {
    key,
    total,
    done,
    cancel: () => {
      cancelled = true;
      stream.destroy(new Error('upload cancelled'));
    },
  });
}

/**
 * The upload's last byte is in: waits for its mirror to put the last part
 * and answers the key its bytes are stored under, or null when there is no
 * finished mirror (the caller then stores the file itself).
 */
export async function finishUploadMirror(id: string): Promise<string | null> {
  const m = mirrors.get(id);
  if (!m) return null;
  mirrors.delete(id);
  const ok = await m.done;
  if (ok) logger.info({ upload_id: id, bytes: m.total }, 'video upload already in the bucket as it arrived');
  return ok ? m.key : null;
}

/** The upload was cancelled or refused: its mirror stops, and what it stored goes. */
export async function dropUploadMirror(id: string): Promise<void> {
  const m = mirrors.get(id);
  if (!m) return;
  mirrors.delete(id);
  m.cancel();
  await m.done;
}
