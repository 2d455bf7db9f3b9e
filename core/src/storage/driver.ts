import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  size: number;
}

/**
 * What every storage driver does. Keys are checked by the caller
 * (storage/index.ts); a "folder" is a key prefix: removing or listing it
 * covers every key below it.
 */
export interface StorageDriver {
  readonly kind: 'local' | 's3';
  putBuffer(key: string, data: Buffer): Promise<void>;
  /** Streams to storage; never holds the whole file in memory (S3: multipart upload). */
  putStream(key: string, stream: Readable): Promise<void>;
  /** Stores a file that is on this machine's disk and removes the source. */
  moveFile(key: string, sourcePath: string): Promise<void>;
  /** Size in bytes, or null when the key is not stored. */
  size(key: string): Promise<number | null>;
  readStream(key: string): Promise<Readable>;
  /** Removes one key or a whole folder; missing is fine. */
  remove(keyOrFolder: string): Promise<void>;
  /** Every stored key under a folder ('' for all), in no set order. */
  list(folder: string): AsyncIterable<StoredObject>;
  /** The key's path on this machine's disk (local driver only). */
  localPath(key: string): string | null;
  /** A URL the browser fetches the file from directly (S3: presigned GET or the CDN domain). */
  directUrl(key: string, ttlSec: number): Promise<string | null>;
}
