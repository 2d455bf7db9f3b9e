import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { config } from '../config.js';
import { hmac, safeEqual } from '../secrets.js';
import { getSettings } from '../services/settings.service.js';
import { assertSafeKey, isSafeKey, newKey } from './keys.js';
import type { StorageDriver, StoredObject } from './driver.js';
import { localDriver } from './local-driver.js';
import { s3Driver, type S3Driver } from './s3-driver.js';
import { s3OptionsFromSettings, s3SettingsFromEnv, type S3StorageSettings } from './s3-options.js';

/**
 * The one storage module: every feature stores and reads files through these
 * functions, whichever driver is on — the local disk (the default) or an
 * S3-compatible bucket. Keys are server-chosen relative paths (keys.ts).
 *
 * The driver: STORAGE_DRIVER=local|s3 in the environment decides for the
 * process (S3_* variables, see s3-options.ts); otherwise the "Storage"
 * settings do — S3 when aws_s3_vt_auto ("store new files in the bucket") is on
 * and the settings are complete — read again at most every few seconds, so
 * every API and workers process follows a switch without a restart.
 */
export { isSafeKey, newKey };
export type { StorageDriver, StoredObject };

const SETTINGS_TTL_MS = 5_000;
let current: { driver: StorageDriver; signature: string; at: number } | null = null;
const local = localDriver(config.storageDir);

function fromS3Settings(s: S3StorageSettings): { driver: StorageDriver } {
  const r = s3OptionsFromSettings(s);
  if (!r.ok) throw new Error(`S3 storage is on but not usable: ${r.reason}`);
  return { driver: s3Driver(r.options) };
}
const localInForce = () => ({ driver: local });

/** The driver in force now. */
export async function activeStorage(): Promise<StorageDriver> {
  const forced = process.env.STORAGE_DRIVER;
  if (forced === 's3' || forced === 'local') {
    if (!current || current.signature !== `env:${forced}`) {
      current = { ...(forced === 's3' ? fromS3Settings(s3SettingsFromEnv(process.env)) : localInForce()), signature: `env:${forced}`, at: Date.now() };
    }
    return current.driver;
  }
  if (current && Date.now() - current.at < SETTINGS_TTL_MS) return current.driver;
  const s = await getSettings();
  const on = s.aws_s3_vt_auto && !!s.aws_s3_type;
  const signature = on ? JSON.stringify([s.aws_s3_type, s.aws_s3_accountid, s.aws_s3_custom_domain, s.aws_s3_region, s.aws_s3_key, s.aws_s3_secret, s.aws_s3_bucket, s.aws_s3_endpoint]) : 'local';
  if (!current || current.signature !== signature) current = { ...(on ? fromS3Settings(s) : localInForce()), signature, at: Date.now() };
  current.at = Date.now();
  return current.driver;
}

/** The bucket in force, or null while files are on the local disk: for what only a bucket does (multipart uploads built part by part). */
export async function activeBucket(): Promise<S3Driver | null> {
  const driver = await activeStorage();
  return driver.kind === 's3' ? (driver as S3Driver) : null;
}

/** Forgets the driver in force, so the next call reads the settings again (after they change). */
export function refreshStorage(): void {
  current = null;
}

export async function putBuffer(key: string, data: Buffer): Promise<void> {
  await (await activeStorage()).putBuffer(assertSafeKey(key), data);
}

/** Streams into storage; on S3 as a multipart upload, never the whole file in memory. */
export async function putStream(key: string, stream: Readable): Promise<void> {
  await (await activeStorage()).putStream(assertSafeKey(key), stream);
}

/** Moves a file on this machine's disk (an upload's temp file, a tool's output) into storage. */
export async function putFile(key: string, sourcePath: string): Promise<void> {
  await (await activeStorage()).moveFile(assertSafeKey(key), sourcePath);
}

export async function exists(key: string): Promise<boolean> {
  return (await (await activeStorage()).size(assertSafeKey(key))) !== null;
}

/** Size in bytes, or null when not stored. */
export async function storedSize(key: string): Promise<number | null> {
  return (await activeStorage()).size(assertSafeKey(key));
}

export async function readStream(key: string): Promise<Readable> {
  return (await activeStorage()).readStream(assertSafeKey(key));
}

export async function readBuffer(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await readStream(key)) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

/** Removes a file or a whole folder of files; missing is fine. */
export async function remove(keyOrFolder: string | null | undefined): Promise<void> {
  if (!keyOrFolder) return;
  await (await activeStorage()).remove(assertSafeKey(keyOrFolder));
}

/** Every stored key under a folder. */
export async function listFolder(folder: string): Promise<StoredObject[]> {
  const out: StoredObject[] = [];
  for await (const o of (await activeStorage()).list(assertSafeKey(folder))) out.push(o);
  return out;
}

/**
 * The key's path under the local-disk storage folder. Only the local driver
 * keeps files there: code that needs a file on disk uses withLocalFile or
 * withLocalFolder, which work on either driver.
 */
export const localPath = (key: string) => path.join(config.storageDir, assertSafeKey(key));

/**
 * A per-job scratch folder on this machine's disk for tools that need files
 * (ffmpeg, COLMAP, pdftoppm, libvips); always removed afterwards, whatever happens.
 */
export async function withScratch<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  await fsp.mkdir(config.scratchDir, { recursive: true });
  const dir = await fsp.mkdtemp(path.join(config.scratchDir, `job-${process.pid}-`));
  try {
    return await fn(dir);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Runs `fn` with a path on disk holding the stored file: the file itself on
 * local disk, a scratch copy (removed afterwards) on S3.
 */
export async function withLocalFile<T>(key: string, fn: (filePath: string) => Promise<T>): Promise<T> {
  const copy = await localCopy(key);
  try {
    return await fn(copy.path);
  } finally {
    await copy.release();
  }
}

/**
 * The stored file on this machine's disk until `release()`: the file itself
 * on local disk, a scratch copy on S3 (release removes it). For code whose
 * use of the file spans a try/catch of its own; prefer withLocalFile.
 */
export async function localCopy(key: string): Promise<{ path: string; release: () => Promise<void> }> {
  const driver = await activeStorage();
  const direct = driver.localPath(assertSafeKey(key));
  if (direct) return { path: direct, release: async () => undefined };
  await fsp.mkdir(config.scratchDir, { recursive: true });
  const dir = await fsp.mkdtemp(path.join(config.scratchDir, `job-${process.pid}-`));
  const release = () => fsp.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  try {
    const p = path.join(dir, path.posix.basename(key));
    await downloadTo(driver, key, p);
    return { path: p, release };
  } catch (err) {
    await release();
    throw err;
  }
}

/**
 * Runs `fn` with a folder on disk standing for a stored folder. On local disk
 * it is the stored folder itself (tools write straight into storage). On S3 it
 * is a scratch folder: with `read`, the stored files are fetched into it
 * first; after `fn` succeeds, new and changed files are uploaded and stored
 * files `fn` deleted are removed; the scratch folder is always removed.
 * Names starting with a dot (tools' staging folders, temp files) are never uploaded.
 */
export async function withLocalFolder<T>(folder: string, fn: (dir: string) => Promise<T>, opts: { read?: boolean } = {}): Promise<T> {
  const driver = await activeStorage();
  const direct = driver.localPath(assertSafeKey(folder));
  if (direct) {
    await fsp.mkdir(direct, { recursive: true });
    return fn(direct);
  }
  return withScratch(async (dir) => {
    const before = new Map<string, string>();
    if (opts.read) {
      const objects: StoredObject[] = [];
      for await (const o of driver.list(folder)) objects.push(o);
      await pool(objects, 8, async (o) => {
        const rel = o.key.slice(folder.length + 1);
        await downloadTo(driver, o.key, path.join(dir, rel));
        before.set(rel, await fileStamp(path.join(dir, rel)));
      });
    }
    const result = await fn(dir);
    const after = await listLocal(dir);
    await pool([...after], 8, async ([rel, stamp]) => {
      if (before.get(rel) === stamp) return;
      await driver.putStream(assertSafeKey(`${folder}/${rel}`), fs.createReadStream(path.join(dir, rel)));
    });
    await pool([...before.keys()].filter((rel) => !after.has(rel)), 8, (rel) => driver.remove(`${folder}/${rel}`));
    return result;
  });
}

async function downloadTo(driver: StorageDriver, key: string, filePath: string): Promise<void> {
  await fsp.mkdir(path.dirname(filePath), { recursive: true });
  const { pipeline } = await import('node:stream/promises');
  await pipeline(await driver.readStream(key), fs.createWriteStream(filePath));
}

const fileStamp = async (p: string) => {
  const s = await fsp.stat(p);
  return `${s.size}:${s.mtimeMs}`;
};

/** Files under `dir` (relative, '/'-separated) with their size and time; dot-names skipped. */
async function listLocal(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  for (const e of entries) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath, e.name);
    const rel = path.relative(dir, p).split(path.sep).join('/');
    if (rel.split('/').some((part) => part.startsWith('.')) || rel.endsWith('.tmp')) continue;
    out.set(rel, await fileStamp(p));
  }
  return out;
}

/** Runs `fn` on every item, at most `n` at a time. */
async function pool<I>(items: I[], n: number, fn: (item: I) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, lane));
}

const DEFAULT_URL_TTL_SEC = 6 * 3600;

/**
 * A temporary URL for a stored file, signed so only holders of a link the API
 * gave out can read it. `prefix` signs a folder, so one signature serves
 * every tile of a sheet. When S3 is on, GET /api/files answers these with a
 * redirect to a presigned GET of the bucket (or to the CDN domain), so the
 * file itself never passes through the API.
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

/** Random bytes for the storage check's object name. */
export const checkKey = () => `storage-check/${crypto.randomUUID()}.txt`;
