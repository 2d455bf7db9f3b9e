import { fileTypeFromFile } from 'file-type';
import { unsupportedMedia } from './errors.js';

/** A file received by the HTTP layer, waiting in a temporary folder for a service to check and store it. */
export interface UploadedFile {
  filepath: string;
  size: number;
  originalFilename: string | null;
  mimetype: string | null;
}

/**
 * Checks the file's real type by its magic bytes, not its name or the
 * browser's claim. Returns the detected extension and mime type.
 */
export async function detectType(file: UploadedFile, accepted: readonly string[], what: string): Promise<{ ext: string; mime: string }> {
  const t = await fileTypeFromFile(file.filepath);
  if (!t || !accepted.includes(t.mime)) {
    throw unsupportedMedia(`This file is not ${what}. Accepted: ${accepted.map((m) => m.split('/')[1].toUpperCase()).join(', ')}.`);
  }
  return { ext: t.ext, mime: t.mime };
}
