import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import mime from 'mime-types';
import { logger } from '../logger.js';
import type { StorageDriver, StoredObject } from './driver.js';
import type { S3Options } from './s3-options.js';
import { completeMultipart, sendPart, uploadFileInParts } from './s3-file-parts.js';

/** Parts of 8 MB, four in flight: a 2 GB upload holds about 32 MB, never the file. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 4;

export function s3Client(o: S3Options, tune: { maxAttempts?: number; connectionTimeout?: number; requestTimeout?: number } = {}): S3Client {
  return new S3Client({
    ...(tune.connectionTimeout ? { requestHandler: { connectionTimeout: tune.connectionTimeout, requestTimeout: tune.requestTimeout } } : {}),
    region: o.region,
    endpoint: o.endpoint,
    forcePathStyle: o.forcePathStyle,
    credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey },
    // Many S3-compatible servers (and older MinIO, Ceph, R2 on some calls) refuse the
    // SDK's newer default CRC checksums; send them only where the S3 API demands one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: tune.maxAttempts ?? 4,
  });
}

const contentType = (key: string) => mime.lookup(key) || 'application/octet-stream';

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

/**
 * The S3 driver, with what only a bucket does: a file on disk sent in parts
 * read from the file, and a multipart upload built part by part (a resumable
 * upload received straight into the bucket), whose state lives in the
 * bucket and with the caller, not in the process that started it.
 */
export interface S3Driver extends StorageDriver {
  kind: 's3';
  putFileInParts(key: string, filePath: string, total: number): Promise<void>;
  multipart: {
    /** Starts one under `key`; answers its upload id. */
    start(key: string): Promise<string>;
    /** Sends part `partNumber` (from 1; every part but the last must hold at least 5 MiB); answers its ETag. */
    putPart(key: string, uploadId: string, partNumber: number, body: Buffer): Promise<string>;
    /** Joins the parts into the object `key`, `etags[i]` being part i + 1's (kept by the caller: not every S3-compatible server lists parts). */
    complete(key: string, uploadId: string, etags: string[]): Promise<void>;
    /** Drops its parts (missing is fine). */
    abort(key: string, uploadId: string): Promise<void>;
  };
  /** `length` bytes of an object from `start` (fewer at its end). */
  readRange(key: string, start: number, length: number): Promise<Buffer>;
  /** A presigned GET for this server's own tools (ffprobe), at the endpoint the server reaches, not the browsers' one. */
  serverUrl(key: string, ttlSec: number): Promise<string>;
}

/** Objects in one bucket of an S3-compatible server. */
export function s3Driver(o: S3Options, client: S3Client = s3Client(o)): S3Driver {
  const Bucket = o.bucket;
  // Presigned URLs name the host browsers reach; the signature covers it.
  const presigner = o.publicEndpoint ? s3Client({ ...o, endpoint: o.publicEndpoint }) : client;
  const upload = async (key: string, Body: Readable | Buffer) => {
    await new Upload({ client, queueSize: QUEUE_SIZE, partSize: PART_SIZE, leavePartsOnError: false, params: { Bucket, Key: key, Body, ContentType: contentType(key) } }).done();
  };
  const putFileInParts = (key: string, filePath: string, total: number) =>
    uploadFileInParts(client, { Bucket, Key: key, ContentType: contentType(key) }, filePath, total, { partSize: PART_SIZE, queueSize: QUEUE_SIZE });
  async function* list(folder: string): AsyncIterable<StoredObject> {
    const Prefix = folder ? `${folder.replace(/\/$/, '')}/` : undefined;
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
      for (const c of page.Contents ?? []) if (c.Key) yield { key: c.Key, size: c.Size ?? 0 };
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }
  return {
    kind: 's3',
    async putBuffer(key, data) {
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: data, ContentType: contentType(key) }));
    },
    putStream: upload,
    async moveFile(key, sourcePath) {
      const { size } = await fsp.stat(sourcePath);
      // Small files in one request; large ones in parts, each a range read from disk as it is sent.
      if (size <= PART_SIZE) await client.send(new PutObjectCommand({ Bucket, Key: key, Body: await fsp.readFile(sourcePath), ContentType: contentType(key) }));
      else await putFileInParts(key, sourcePath, size);
      await fsp.rm(sourcePath, { force: true });
    },
    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? 0;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async readStream(key) {
      const res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      return res.Body as Readable;
    },
    async remove(keyOrFolder) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOrFolder })).catch((err) => {
        if (!isMissing(err)) throw err;
      });
      let batch: { Key: string }[] = [];
      const flush = async () => {
        if (batch.length) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch, Quiet: true } }));
        batch = [];
      };
      for await (const obj of list(keyOrFolder)) {
        batch.push({ Key: obj.key });
        if (batch.length === 1000) await flush();
      }
      await flush();
    },
    list,
    localPath: () => null,
    putFileInParts,
    multipart: {
      async start(key) {
        const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType(key) }));
        return UploadId!;
      },
      putPart: (key, UploadId, PartNumber, body) => sendPart(client, { Bucket, Key: key, UploadId, PartNumber }, body),
      complete: (key, UploadId, etags) => completeMultipart(client, { Bucket, Key: key, UploadId }, etags),
      async abort(key, UploadId) {
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId })).catch((err) => {
          const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
          if (isMissing(err) || e.name === 'NoSuchUpload') return;
          // Some S3-compatible servers (s3rver among them) cannot abort: the parts stay until the server's own cleanup.
          if (e.$metadata?.httpStatusCode === 405 || e.$metadata?.httpStatusCode === 501) {
            logger.warn({ key }, 'the bucket cannot abort a multipart upload; its parts stay until the bucket cleans them up');
            return;
          }
          throw err;
        });
      },
    },
    serverUrl: (key, expiresIn) => getSignedUrl(client, new GetObjectCommand({ Bucket, Key: key }), { expiresIn }),
    async readRange(key, start, length) {
      const res = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: `bytes=${start}-${start + length - 1}` }));
      return Buffer.from(await res.Body!.transformToByteArray());
    },
    async directUrl(key, ttlSec) {
      if (o.customDomain) return `${o.customDomain}/${key.split('/').map(encodeURIComponent).join('/')}`;
      return getSignedUrl(presigner, new GetObjectCommand({ Bucket, Key: key, ResponseContentType: contentType(key) }), {
        expiresIn: ttlSec,
        // Signed as of the hour's start: the same URL all hour, so browsers cache the file.
        signingDate: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000),
      });
    },
  };
}

