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
 * Memory stays lanes × part size whatever the file's size. A part that
 * fails is sent again from its buffer; when the upload cannot finish it is
 * aborted, so no parts stay billed.
 */

export interface FilePartsOptions {
  partSize: number;
  /** Parts in flight at once. */
  queueSize: number;
}

const PART_ATTEMPTS = 3;

export async function uploadFileInParts(
  client: S3Client,
  target: { Bucket: string; Key: string; ContentType: string },
  filePath: string,
  total: number,
  opts: FilePartsOptions,
): Promise<void> {
  let opening: Promise<fsp.FileHandle> | undefined;
  const file = () => (opening ??= fsp.open(filePath, 'r'));
  try {
    if (total <= opts.partSize) {
      const body = await readRange(await file(), Buffer.allocUnsafe(total), 0);
      await withAttempts(() => client.send(unsignedPayload(new PutObjectCommand({ ...target, Body: body, ContentLength: total }))));
      return;
    }
    const UploadId = (await client.send(new CreateMultipartUploadCommand(target))).UploadId!;
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
          const body = await readRange(await file(), buffer.subarray(0, end - start), start);
          // The buffer is read again only once this part's request has ended, whichever way.
          etags[i] = await sendPart(client, { Bucket, Key, UploadId, PartNumber: i + 1 }, body);
        }
      };
      await Promise.all(Array.from({ length: Math.min(opts.queueSize, count) }, lane));
      await completeMultipart(client, { Bucket, Key, UploadId }, etags);
    } catch (err) {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => undefined);
      throw err;
    }
  } finally {
    await opening?.then((f) => f.close()).catch(() => undefined);
  }
}

/** One part of a multipart upload, sent unhashed and tried again on failure; answers its ETag. */
export async function sendPart(client: S3Client, part: { Bucket: string; Key: string; UploadId: string; PartNumber: number }, body: Buffer): Promise<string> {
  const sent = await withAttempts(() => client.send(unsignedPayload(new UploadPartCommand({ ...part, Body: body, ContentLength: body.length }))));
  return sent.ETag!;
}

/** Joins a multipart upload's parts, `etags[i]` being part i + 1's. */
export async function completeMultipart(client: S3Client, target: { Bucket: string; Key: string; UploadId: string }, etags: string[]): Promise<void> {
  await client.send(new CompleteMultipartUploadCommand({ ...target, MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) } }));
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
