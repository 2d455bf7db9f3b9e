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
import { parentPort, workerData } from 'node:worker_threads';
import { growingFileReady } from './s3-file-parts.js';
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
port.on('message', (m) => {
  if (m === 'cancel') cancelled = true;
});

let result: UploadMirrorResult;
try {
  // Each part is sent once the growing file holds its last byte, read from the file as it goes.
  await driver.putFileInParts(job.key, job.filePath, job.total, growingFileReady(job.filePath, { cancelled: () => cancelled, idleLimitMs: job.idleLimitMs }));
  result = { ok: true };
} catch (err) {
  await driver.remove(job.key).catch(() => undefined);
  result = { ok: false, error: (err as Error).message, cancelled };
}
port.postMessage(result);
port.close();
