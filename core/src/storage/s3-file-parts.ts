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
 * whose parts are ranges of the file. Each lane of parts in flight reads its
 * part into one buffer of its own, reused from part to part, and sends it
 * unhashed (UNSIGNED-PAYLOAD, as the SDK signs streams). The SDK's own
 * Upload gathers a stream's chunks into fresh part buffers (a copy of every
 * byte, often two) and hashes each one; read streams of the file spared the
 * copies but still left a megabyte of garbage per megabyte sent, and the
 * garbage collector became the API's largest cost (bench/s3-upload-bench.ts).
 * Memory stays lanes × part size whatever the file's size.
 *
 * The file may still be growing (an upload being received): each part waits
 * until the file holds its last byte (`bytesReady`). A part that fails is
 * sent again from its buffer; when the upload cannot finish it is aborted,
 * so no parts stay billed.
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
  // Opened at the first part that is ready: a growing file may not exist before its first byte.
  let opening: Promise<fsp.FileHandle> | undefined;
  const file = () => (opening ??= fsp.open(filePath, 'r'));
  try {
    if (total <= opts.partSize) {
      await ready(total);
      const body = await readRange(await file(), Buffer.allocUnsafe(total), 0);
      await withAttempts(() => client.send(unsignedPayload(new PutObjectCommand({ ...target, Body: body, ContentLength: total }))));
      return;
    }
    const { UploadId } = await client.send(new CreateMultipartUploadCommand(target));
    const { Bucket, Key } = target;
    try {
      const count = Math.ceil(total / opts.partSize);
      const etags: string[] = new Array(count);
      let next = 0;
      const lane = async () => {
        const buffer = Buffer.allocUnsafeSlow(opts.partSize);
        while (next < count) {
          const i = next++;
          const start = i * opts.partSize;
          const end = Math.min(total, start + opts.partSize);
          await ready(end);
          const body = await readRange(await file(), buffer.subarray(0, end - start), start);
          // The buffer is read again only once this part's request has ended, whichever way.
          const sent = await withAttempts(() =>
            client.send(unsignedPayload(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: i + 1, Body: body, ContentLength: end - start }))),
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
  } finally {
    await opening?.then((f) => f.close()).catch(() => undefined);
  }
}

/** Fills `into` with the file's bytes from `position` (a read may return fewer bytes than asked). */
async function readRange(file: fsp.FileHandle, into: Buffer, position: number): Promise<Buffer> {
  for (let got = 0; got < into.length; ) {
    const { bytesRead } = await file.read(into, got, into.length - got, position + got);
    if (bytesRead === 0) throw new Error(`the file ended ${position + got} bytes in, before the ${position + into.length} expected`);
    got += bytesRead;
  }
  return into;
}

/**
 * Signs the request without hashing its body, as the SDK does for streams:
 * SigV4 takes a given x-amz-content-sha256 as is. The connection (TLS)
 * guards the bytes, as for every stream the SDK sends.
 */
function unsignedPayload<C extends PutObjectCommand | UploadPartCommand>(command: C): C {
  (command as UploadPartCommand).middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) request.headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
      return next(args);
    },
    { step: 'build', name: 'sitewalkUnsignedPayload' },
  );
  return command;
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
