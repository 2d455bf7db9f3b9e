import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { config } from '../config.js';
import { hmac, safeEqual } from '../secrets.js';

/**
 * The one storage module. Keys are server-chosen relative paths such as
 * `avatars/7/3f2c….webp`; nothing a client sends becomes a file name.
 * Local disk is the driver here; an S3-compatible driver plugs in behind the
 * same functions.
 */

const SAFE_KEY = /^[a-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

function fullPath(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
  return path.join(config.storageDir, key);
}

/** A fresh key under a folder, with a random name and the given extension. */
export function newKey(folder: string, ext: string): string {
  return `${folder}/${crypto.randomUUID()}${ext.startsWith('.') ? ext : `.${ext}`}`;
}

export async function putBuffer(key: string, data: Buffer): Promise<void> {
  const p = fullPath(key);
  await fsp.mkdir(path.dirname(p), { recursive: true });
  const tmp = `${p}.${process.pid}.tmp`;
  await fsp.writeFile(tmp, data);
  await fsp.rename(tmp, p);
}

export async function putStream(key: string, stream: Readable): Promise<void> {
  const p = fullPath(key);
  await fsp.mkdir(path.dirname(p), { recursive: true });
  const tmp = `${p}.${process.pid}.tmp`;
  await pipeline(stream, fs.createWriteStream(tmp));
  await fsp.rename(tmp, p);
}

/** Moves a file already on local disk (an upload's temp file) into storage. */
export async function putFile(key: string, sourcePath: string): Promise<void> {
  const p = fullPath(key);
  await fsp.mkdir(path.dirname(p), { recursive: true });
  try {
    await fsp.rename(sourcePath, p);
  } catch {
    await fsp.copyFile(sourcePath, p);
    await fsp.rm(sourcePath, { force: true });
  }
}

export const localPath = (key: string) => fullPath(key);

export async function exists(key: string): Promise<boolean> {
  return fsp.access(fullPath(key)).then(() => true, () => false);
}

export function readStream(key: string): Readable {
  return fs.createReadStream(fullPath(key));
}

/** Removes a file or a whole folder of files; missing is fine. */
export async function remove(keyOrFolder: string | null | undefined): Promise<void> {
  if (!keyOrFolder) return;
  await fsp.rm(fullPath(keyOrFolder), { recursive: true, force: true });
}

const DEFAULT_URL_TTL_SEC = 6 * 3600;

/**
 * A temporary URL for a stored file, signed so only holders of a link the API
 * gave out can read it (like an S3 presigned URL). `prefix` signs a folder,
 * so one signature serves every tile of a sheet.
 */
export function signedUrl(key: string | null | undefined, ttlSec = DEFAULT_URL_TTL_SEC): string | null {
  if (!key) return null;
  // Round expiry so URLs stay identical for a while and browsers can cache them.
  const exp = Math.ceil((Date.now() / 1000 + ttlSec) / 3600) * 3600;
  const sig = hmac(`${key}|${exp}`);
  return `/api/files/${key}?exp=${exp}&sig=${sig}`;
}

export function signedFolderUrl(folder: string, ttlSec = DEFAULT_URL_TTL_SEC): string {
  const exp = Math.ceil((Date.now() / 1000 + ttlSec) / 3600) * 3600;
  const sig = hmac(`${folder}/*|${exp}`);
  return `/api/files/${folder}/{path}?exp=${exp}&sig=${sig}&scope=folder`;
}

/** Checks a signed URL's key, expiry and signature. */
export function verifySignedKey(key: string, exp: string, sig: string, scope?: string): boolean {
  if (!/^\d{9,12}$/.test(exp) || Number(exp) * 1000 < Date.now()) return false;
  if (scope === 'folder') {
    // The signature covers a folder; the key must be inside it.
    const parts = key.split('/');
    for (let i = parts.length - 1; i >= 1; i--) {
      const folder = parts.slice(0, i).join('/');
      if (safeEqual(hmac(`${folder}/*|${exp}`), sig)) return true;
    }
    return false;
  }
  return safeEqual(hmac(`${key}|${exp}`), sig);
}

export const isSafeKey = (key: string) => SAFE_KEY.test(key) && !key.includes('..');
