import { exists, listFolder } from '@sitewalk/core/storage';

/**
 * What storage holds, asked through the storage module, so a test reads the
 * same on the local disk and on S3 (STORAGE_DRIVER=s3).
 */

/** A stored file, or a folder with at least one file in it. */
export async function isStored(keyOrFolder: string): Promise<boolean> {
  return (await exists(keyOrFolder)) || (await listFolder(keyOrFolder)).length > 0;
}

/** Names of the files and folders right under a stored folder, sorted. */
export async function storedNames(folder: string): Promise<string[]> {
  const names = new Set((await listFolder(folder)).map((o) => o.key.slice(folder.length + 1).split('/')[0]!));
  return [...names].sort();
}
