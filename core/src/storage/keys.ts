import crypto from 'node:crypto';

/**
 * Storage keys are server-chosen relative paths such as
 * `avatars/7/3f2c….webp`; nothing a client sends becomes a key. The same
 * key names a file under the storage folder on local disk and an object in
 * the bucket on S3, so files copy between drivers one to one.
 */
const SAFE_KEY = /^[a-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

export const isSafeKey = (key: string) => SAFE_KEY.test(key) && !key.includes('..');

export function assertSafeKey(key: string): string {
  if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
  return key;
}

/** A fresh key under a folder, with a random name and the given extension. */
export function newKey(folder: string, ext: string): string {
  return `${folder}/${crypto.randomUUID()}${ext.startsWith('.') ? ext : `.${ext}`}`;
}
