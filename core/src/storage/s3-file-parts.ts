import fs from 'node:fs';
import fsp from 'node:fs/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';

/**
 * A file on this machine's disk put into a bucket as a multipart upload
 * whose parts are ranges of the file, each sent as a read stream of known
 * length. The SDK's own Upload gathers a stream's chunks into part buffers
 * (a copy of every byte, often two) and hashes each buffer for its
 * signature; here no byte is copied into the process or hashed, which
 * halved the CPU an 8 GB walk costs the API machine (bench/s3-upload-bench.ts).
 *
 * The file may still be growing (an upload being received): each part waits
 * until the file holds its last byte (`bytesReady`). A part that fails is
 * sent again from the file (a stream cannot be replayed by the SDK); when
 * the upload cannot finish it is aborted, so no parts stay billed.
 */

export interface FilePartsOptions {
  partSize: number;
  /** Parts in flight at once. */
  queueSize: number;
  /** Resolves once the file holds `end` bytes (default: it already does). */
  bytesReady?: (end: number) => Promise<void>;
}

const PART_ATTEMPTS = 3;

export async function uploadFileInParts(
  client: S3Client,
  target: { Bucket: string; Key: string; ContentType: string },
  filePath: string,
  total: number,
  opts: FilePartsOptions,
): Promise<void> {
  const ready = opts.bytesReady ?? (async () => undefined);
  const range = (start: number, end: number) => (end > start ? fs.createReadStream(filePath, { start, end: end - 1, highWaterMark: 1024 * 1024 }) : Buffer.alloc(0));
  if (total <= opts.partSize) {
    await ready(total);
    await withAttempts(() => client.send(new PutObjectCommand({ ...target, Body: range(0, total), ContentLength: total })));
    return;
  }
  const { UploadId } = await client.send(new CreateMultipartUploadCommand(target));
  const { Bucket, Key } = target;
  try {
    const count = Math.ceil(total / opts.partSize);
    const etags: string[] = new Array(count);
    let next = 0;
    const lane = async () => {
      while (next < count) {
        const i = next++;
        const start = i * opts.partSize;
        const end = Math.min(total, start + opts.partSize);
        await ready(end);
        const sent = await withAttempts(() =>
          client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: i + 1, Body: range(start, end), ContentLength: end - start })),
        );
        etags[i] = sent.ETag!;
      }
    };
    await Promise.all(Array.from({ length: Math.min(opts.queueSize, count) }, lane));
    await client.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) } }));
  } catch (err) {
    await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
    throw err;
  }
}

async function withAttempts<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (attempt >= PART_ATTEMPTS || (err as Error).name === 'AbortError') throw err;
    }
  }
}

/** `bytesReady` for a file that is still being written: polls its size; fails when cancelled or when no byte came for `idleLimitMs`. */
export function growingFileReady(filePath: string, opts: { cancelled: () => boolean; idleLimitMs: number; pollMs?: number }): (end: number) => Promise<void> {
  let lastSize = -1;
  let lastGrowth = Date.now();
  return async (end) => {
    for (;;) {
      if (opts.cancelled()) throw new Error('upload cancelled');
      const size = (await fsp.stat(filePath).catch(() => null))?.size ?? 0;
      if (size > lastSize) {
        lastSize = size;
        lastGrowth = Date.now();
      }
      if (size >= end) return;
      if (Date.now() - lastGrowth > opts.idleLimitMs) throw new Error('no new bytes for too long');
      await new Promise((r) => setTimeout(r, opts.pollMs ?? 100));
    }
  };
}
