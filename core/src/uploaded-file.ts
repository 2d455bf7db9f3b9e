import fsp from 'node:fs/promises';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { unsupportedMedia } from './errors.js';
import { loadPdfJs } from './pdfjs.js';

/** A file received by the HTTP layer, waiting in a temporary folder for a service to check and store it. */
export interface UploadedFile {
  filepath: string;
  size: number;
  originalFilename: string | null;
  mimetype: string | null;
}

/**
 * Checks the file's real type by its magic bytes, not its name or the
 * browser's claim. Returns the detected extension and mime type. A PDF must
 * also open: five bytes of "%PDF-" make file-type say PDF, but only a parse
 * tells a plan from a renamed text file.
 */
export async function detectType(file: UploadedFile, accepted: readonly string[], what: string): Promise<{ ext: string; mime: string }> {
  const t = acceptedType(await fileTypeFromFile(file.filepath), accepted, what);
  if (t.mime === 'application/pdf') await checkPdfOpens(file.filepath);
  return t;
}

/** How many bytes from a file's start `detectTypeOfHead` needs (file-type reads at most this many). */
export const TYPE_HEAD_BYTES = 4100;

/** The same check for a file that is not on this machine's disk, by its first `TYPE_HEAD_BYTES` bytes (not for PDFs, which must open). */
export async function detectTypeOfHead(head: Uint8Array, accepted: readonly string[], what: string): Promise<{ ext: string; mime: string }> {
  return acceptedType(await fileTypeFromBuffer(head), accepted, what);
}

function acceptedType(t: { ext: string; mime: string } | undefined, accepted: readonly string[], what: string): { ext: string; mime: string } {
  if (!t || !accepted.includes(t.mime)) {
    throw unsupportedMedia(`This file is not ${what}. Accepted: ${accepted.map((m) => m.split('/')[1].toUpperCase()).join(', ')}.`);
  }
  return { ext: t.ext, mime: t.mime };
}

export const PDF_INCOMPLETE_MESSAGE =
  'This PDF is incomplete: the end of the file is missing. It was probably cut off while copying or uploading; upload the original again.';
export const PDF_DAMAGED_MESSAGE = 'This file starts like a PDF but cannot be read as one. Export it again from the drawing program and upload the new file.';

/**
 * Opens the PDF's structure with pdf.js (the reader the sheet worker uses)
 * before it is stored and queued, so a file that is no PDF at all is refused
 * here (415, as any file that is not a PDF) instead of failing later in the worker. Password-protected files
 * do open; the worker explains what to do with them, page by page checks
 * (sizes, count) stay there too.
 */
export async function checkPdfOpens(filePath: string): Promise<void> {
  const data = new Uint8Array(await fsp.readFile(filePath));
  const tail = Buffer.from(data.subarray(Math.max(0, data.length - 2048)));
  const { getDocument } = await loadPdfJs();
  let doc;
  try {
    doc = await getDocument({ data, isEvalSupported: false, disableFontFace: true, stopAtErrors: true, verbosity: 0 }).promise;
  } catch (err) {
    if ((err as Error).name === 'PasswordException') return;
    throw unsupportedMedia(tail.includes('%%EOF') ? PDF_DAMAGED_MESSAGE : PDF_INCOMPLETE_MESSAGE);
  }
  await doc.destroy();
}
