import { Worker } from 'node:worker_threads';
import { activeS3Options, remove } from '../storage/index.js';
import type { UploadMirrorJob, UploadMirrorResult } from '../storage/upload-mirror-thread.js';
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
 * complete, so a mirror only ever saves time. The transfer runs in a worker
 * thread of its own (storage/upload-mirror-thread.ts), beside the event loop
 * that receives the upload.
 */

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

/**
 * Starts the thread's program: the compiled file beside the bundle in a
 * build (scripts/build-server.mjs makes it an entry of its own); while the
 * server runs from sources (tsx, the tests), its TypeScript source loaded
 * through tsx's API (a worker thread inherits no loader).
 */
function startMirrorThread(job: UploadMirrorJob): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./upload-mirror-thread.js', import.meta.url), { workerData: job });
  const source = JSON.stringify(new URL('../storage/upload-mirror-thread.ts', import.meta.url).href);
  return new Worker(`import('tsx/esm/api').then((tsx) => tsx.tsImport(${source}, ${source}))`, { eval: true, workerData: job });
}

/**
 * Starts streaming a new upload's file to the bucket under `key` (when the
 * files are in a bucket; otherwise does nothing). Never throws: a mirror
 * that cannot start is a mirror that is not there.
 */
export async function startUploadMirror(id: string, key: string, filePath: string, total: number): Promise<void> {
  if (mirrors.has(id)) return;
  let options;
  try {
    options = await activeS3Options();
  } catch {
    return;
  }
  if (!options) return;
  let worker: Worker;
  try {
    worker = startMirrorThread({ options, key, filePath, total, idleLimitMs: idleLimitMs() });
  } catch (err) {
    logger.warn({ upload_id: id, err: (err as Error).message }, 'video upload mirror could not start; the upload is stored once complete');
    return;
  }
  const done = new Promise<boolean>((resolve) => {
    let answered = false;
    worker.once('message', (r: UploadMirrorResult) => {
      answered = true;
      if (!r.ok && !r.cancelled) logger.warn({ upload_id: id, err: r.error }, 'video upload not mirrored to the bucket; it is stored once complete');
      resolve(r.ok);
    });
    // A thread that died without answering (it could not load, it ran out of memory) stored nothing usable.
    worker.once('error', (err) => logger.warn({ upload_id: id, err: err.message }, 'video upload mirror stopped; the upload is stored once complete'));
    worker.once('exit', () => {
      if (answered) return;
      void remove(key).catch(() => undefined).then(() => resolve(false));
    });
  });
  mirrors.set(id, { key, total, done, cancel: () => worker.postMessage('cancel') });
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
