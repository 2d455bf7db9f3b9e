/// <reference path="./s3rver.d.ts" />
import fs from 'node:fs';
import S3rver from 's3rver';

/**
 * A local S3-compatible server for tests (s3rver: the S3 REST protocol,
 * SigV4, multipart uploads, presigned URLs), on a loopback port the system
 * picks. Its files live in `directory`.
 */
export interface S3StandIn {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The S3_* variables that make STORAGE_DRIVER=s3 use it. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3StandIn(directory: string, bucket = 'sitewalk-test'): Promise<S3StandIn> {
  fs.mkdirSync(directory, { recursive: true });
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials.
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    env: { S3_TYPE: 'custom', S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey },
    close: () => server.close(),
  };
}
