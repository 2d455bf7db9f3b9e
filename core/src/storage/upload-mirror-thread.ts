/**
 * A worker thread that streams one growing upload into the bucket (see
 * services/video-upload-mirror.ts). It runs beside the API's event loop, not
 * on it: reading the file again, signing and sending the parts is about as
 * much work as receiving the upload, and on one thread the two halves of an
 * 8 GB walk took turns. It needs nothing of the API but the bucket's
 * options, handed over in workerData (in memory only: never a job payload,
 * a log line or the queue).
 *
 * Messages: the parent sends 'cancel'; the thread answers once,
 * { ok: true } when every byte is in the bucket under the key, or
 * { ok: false, error } when it gave up (what it stored is removed).
 */
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { GROWING_FILE_CHUNK, growingFile } from './growing-file.js';
import { s3Driver } from './s3-driver.js';
import type { S3Options } from './s3-options.js';

export interface UploadMirrorJob {
  options: S3Options;
  key: string;
  filePath: string;
  total: number;
  idleLimitMs: number;
}
export type UploadMirrorResult = { ok: true } | { ok: false; error: string; cancelled: boolean };

const job = workerData as UploadMirrorJob;
const port = parentPort!;
const driver = s3Driver(job.options);
let cancelled = false;
const stream = Readable.from(growingFile(job.filePath, job.total, { cancelled: () => cancelled, idleLimitMs: job.idleLimitMs }), {
  objectMode: false,
  highWaterMark: GROWING_FILE_CHUNK,
});
port.on('message', (m) => {
  if (m !== 'cancel') return;
  cancelled = true;
  stream.destroy(new Error('upload cancelled'));
});

let result: UploadMirrorResult;
try {
  await driver.putStream(job.key, stream);
  result = { ok: true };
} catch (err) {
  await driver.remove(job.key).catch(() => undefined);
  result = { ok: false, error: (err as Error).message, cancelled };
}
port.postMessage(result);
port.close();
