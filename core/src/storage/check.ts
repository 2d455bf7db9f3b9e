import crypto from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from './s3-driver.js';
import { s3OptionsFromSettings, type S3Options, type S3StorageSettings } from './s3-options.js';

export type StorageCheckStep = 'settings' | 'write' | 'read' | 'delete';
export interface StorageCheckResult {
  ok: boolean;
  /** The step that failed; null when every step passed. */
  step: StorageCheckStep | null;
  message: string;
}

/**
 * "Test storage": writes a small object into the bucket, reads it back,
 * deletes it and checks it is gone. Says in words which step failed and why
 * (unknown bucket, wrong key, no permission, server not reachable…).
 */
export async function checkS3Storage(settings: S3StorageSettings): Promise<StorageCheckResult> {
  const parsed = s3OptionsFromSettings(settings);
  if (!parsed.ok) return { ok: false, step: 'settings', message: parsed.reason };
  const o = parsed.options;
  // One try each and short timeouts: the administrator is waiting for the answer.
  const client = s3Client(o, { maxAttempts: 1, connectionTimeout: 5_000, requestTimeout: 15_000 });
  const Key = `sitewalk-storage-check/${crypto.randomUUID()}.txt`;
  const body = `SiteWalk storage check ${new Date().toISOString()}`;
  let step: StorageCheckStep = 'write';
  try {
    await client.send(new PutObjectCommand({ Bucket: o.bucket, Key, Body: body, ContentType: 'text/plain' }));
    step = 'read';
    const got = await client.send(new GetObjectCommand({ Bucket: o.bucket, Key }));
    const text = await got.Body?.transformToString();
    if (text !== body) return { ok: false, step, message: 'A file written to the bucket read back different: the server does not keep files as written.' };
    step = 'delete';
    await client.send(new DeleteObjectCommand({ Bucket: o.bucket, Key }));
    const still = await client.send(new HeadObjectCommand({ Bucket: o.bucket, Key })).then(() => true, () => false);
    if (still) return { ok: false, step, message: 'A file deleted from the bucket is still there: the key may write but not delete.' };
    return { ok: true, step: null, message: `The bucket "${o.bucket}" works: a file was written, read back and deleted.` };
  } catch (err) {
    return { ok: false, step, message: `${STEP_WORDS[step]} ${explain(err, o)}` };
  } finally {
    client.destroy();
  }
}

const STEP_WORDS: Record<StorageCheckStep, string> = {
  settings: '',
  write: 'Writing a test file to the bucket failed:',
  read: 'Reading the test file back failed:',
  delete: 'Deleting the test file failed:',
};

/** What an S3 or network error means for the administrator. */
export function explain(err: unknown, o: Pick<S3Options, 'bucket' | 'endpoint' | 'region'>): string {
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number }; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code ?? e?.name ?? '';
  const where = o.endpoint ?? `Amazon S3 (${o.region})`;
  switch (code) {
    case 'NoSuchBucket':
      return `the bucket "${o.bucket}" does not exist on ${where}.`;
    case 'InvalidAccessKeyId':
      return 'the access key is not known to the server.';
    case 'SignatureDoesNotMatch':
      return 'the secret key does not match the access key.';
    case 'AccessDenied':
    case 'Forbidden':
      return `the key may not do this in the bucket "${o.bucket}" (access denied).`;
    case 'PermanentRedirect':
    case 'AuthorizationHeaderMalformed':
      return `the bucket "${o.bucket}" is in another region than "${o.region}".`;
    case 'ECONNREFUSED':
      return `nothing answers at ${where} (connection refused).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the server name of ${where} is not known (DNS).`;
    case 'TimeoutError':
    case 'ETIMEDOUT':
    case 'RequestTimeout':
      return `${where} did not answer in time.`;
    default: {
      const status = e?.$metadata?.httpStatusCode;
      const detail = (e?.message ?? String(err)).slice(0, 200);
      return `the server answered ${status ? `HTTP ${status}` : 'with an error'} (${code || 'unknown'}: ${detail}).`;
    }
  }
}
